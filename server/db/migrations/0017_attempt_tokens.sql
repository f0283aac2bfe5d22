-- Decision 031: every write of an attempt carries the token of the browser that started it, and the link
-- keeps its hash. An attempt in progress when this runs has no token (its page never made one): it is
-- marked 'legacy' and keeps the link id's rule until it ends (its deadline), so no one taking a test while
-- the servers are upgraded loses their answers. Every attempt started since has a token.
ALTER TABLE "test_links" ADD COLUMN "attempt_token_hash" text;--> statement-breakpoint
UPDATE "test_links" SET "attempt_token_hash" = 'legacy'
  WHERE "started_at" IS NOT NULL AND NOT "is_completed" AND "status" = 'TAKE_TEST';
