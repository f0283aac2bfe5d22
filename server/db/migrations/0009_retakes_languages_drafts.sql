ALTER TABLE "test_links" ADD COLUMN "test_key" text GENERATED ALWAYS AS (case
  when type in ('RESOURCE', 'RESOURCE-FROM-WHATSAPP') then 'RESOURCE:' || resource_id::text
  when type = 'SECTION' then 'SECTION:' || section_id::text
  when type = 'ROADMAP' then 'ROADMAP:' || roadmap_id::text
  when type = 'SUBJECT' then 'SUBJECT:' || subject_id::text
  when type = 'CUSTOM-TEST' then 'CUSTOM-TEST:' || tenant_assessment_id::text
  when type = 'INITIAL-ASSESSMENT' then 'INITIAL-ASSESSMENT:' || roadmap_id::text
end) STORED;--> statement-breakpoint
ALTER TABLE "test_links" ADD COLUMN "attempt" integer;--> statement-breakpoint
CREATE INDEX "test_links_user_test_idx" ON "test_links" USING btree ("user_id","test_key","created_at");--> statement-breakpoint
-- the attempts already started, numbered per learner and test in the order they started
UPDATE "test_links" AS t SET "attempt" = s.n
FROM (
  SELECT id, row_number() OVER (PARTITION BY user_id, test_key ORDER BY started_at, created_at, id) AS n
  FROM "test_links" WHERE started_at IS NOT NULL
) AS s
WHERE s.id = t.id;
--> statement-breakpoint
-- Languages of questions (issue 9, item 4): a test draws questions of one language only
DROP INDEX "questions_subject_idx";--> statement-breakpoint
ALTER TABLE "questions" ADD COLUMN "language_id" uuid;--> statement-breakpoint
INSERT INTO "languages" ("name") VALUES ('English') ON CONFLICT ("name") DO NOTHING;--> statement-breakpoint
-- a question assessing a roadmap, a section or a resource is in that roadmap's language
UPDATE "questions" AS q SET "language_id" = s.language_id
FROM (
  SELECT t.question_id, (array_agg(r.language_id ORDER BY r.created_at, r.id))[1] AS language_id
  FROM "question_targets" t
  JOIN "roadmaps" r ON (t.kind = 'ROADMAP' AND r.id = t.target_id)
    OR (t.kind = 'SECTION' AND r.id = (SELECT sc.roadmap_id FROM "sections" sc WHERE sc.id = t.target_id))
    OR (t.kind = 'RESOURCE' AND r.id IN (
      SELECT sc.roadmap_id FROM "section_resources" sr JOIN "sections" sc ON sc.id = sr.section_id
      WHERE sr.resource_id = t.target_id))
  GROUP BY t.question_id
) AS s
WHERE s.question_id = q.id;--> statement-breakpoint
-- the rest (authors' own questions) in English; their authors can change it in the editor
UPDATE "questions" SET "language_id" = (SELECT "id" FROM "languages" WHERE "name" = 'English')
WHERE "language_id" IS NULL;--> statement-breakpoint
ALTER TABLE "questions" ALTER COLUMN "language_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_language_id_languages_id_fk" FOREIGN KEY ("language_id") REFERENCES "public"."languages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "questions_subject_idx" ON "questions" USING btree ("subject_id","language_id","status");--> statement-breakpoint
-- Drafts (issue 9, item 5): a question created inside an assessment joins it when first saved
CREATE TABLE "assessment_drafts" (
	"question_id" uuid PRIMARY KEY NOT NULL,
	"assessment_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "assessment_drafts" ADD CONSTRAINT "assessment_drafts_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assessment_drafts" ADD CONSTRAINT "assessment_drafts_assessment_id_tenant_assessments_id_fk" FOREIGN KEY ("assessment_id") REFERENCES "public"."tenant_assessments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- questions never saved that an assessment held: they wait for their first save instead
INSERT INTO "assessment_drafts" ("question_id", "assessment_id")
SELECT DISTINCT ON (taq.question_id) taq.question_id, taq.assessment_id
FROM "tenant_assessment_questions" taq JOIN "questions" q ON q.id = taq.question_id
WHERE q.status = 'PREVIEW'
ORDER BY taq.question_id, taq.added_at;--> statement-breakpoint
DELETE FROM "tenant_assessment_questions" taq USING "questions" q
WHERE q.id = taq.question_id AND q.status = 'PREVIEW';
