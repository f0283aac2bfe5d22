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
