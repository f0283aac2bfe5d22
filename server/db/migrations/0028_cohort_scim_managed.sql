ALTER TABLE "cohorts" ADD COLUMN "scim_managed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
UPDATE "cohorts" SET "scim_managed" = true WHERE EXISTS (SELECT 1 FROM "audit_events" a WHERE a."target_kind" = 'cohort' AND a."target_id" = "cohorts"."id"::text AND a."actor_kind" = 'scimToken');
