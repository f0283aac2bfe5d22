-- Issue 15: the sweep's partial indexes are partial on their own column being set, which only the sweep's
-- range implies (deadline_at < …, expires_at < …). A taker's statement finds its link by the link id and
-- states the link's state (open, started or not started); with the old predicates that state implied an
-- index, and when the statistics saw it nearly empty (taken before ten thousand links start within a
-- minute) the planner walked it to find one link, for every answer saved and every test submitted.
-- A link's expiry is never later than the end of its window (the share sets both): the sweep expires unused
-- links by expires_at alone, through its index; links from before that rule get it here.
UPDATE "test_links" SET "expires_at" = "start_time" + make_interval(hours => "duration_hours")
  WHERE "start_time" IS NOT NULL AND "duration_hours" IS NOT NULL
    AND ("expires_at" IS NULL OR "expires_at" > "start_time" + make_interval(hours => "duration_hours"));--> statement-breakpoint
DROP INDEX "test_links_due_idx";--> statement-breakpoint
DROP INDEX "test_links_unused_idx";--> statement-breakpoint
CREATE INDEX "test_links_due_idx" ON "test_links" USING btree ("deadline_at") WHERE "test_links"."status" = 'TAKE_TEST' and "test_links"."is_completed" = false and "test_links"."deadline_at" is not null;--> statement-breakpoint
CREATE INDEX "test_links_unused_idx" ON "test_links" USING btree ("expires_at") WHERE "test_links"."status" = 'TAKE_TEST' and "test_links"."is_completed" = false and "test_links"."started_at" is null and "test_links"."expires_at" is not null;