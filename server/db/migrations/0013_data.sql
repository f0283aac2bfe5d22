CREATE TABLE "activity_erasures" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"resource_id" uuid,
	"start_at" bigint NOT NULL,
	"end_at" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "activity_spans" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"resource_id" uuid NOT NULL,
	"day" date NOT NULL,
	"start_at" bigint NOT NULL,
	"end_at" bigint NOT NULL,
	"tab_active" boolean NOT NULL,
	"times_known" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
DROP INDEX "test_activity_link_idx";--> statement-breakpoint
ALTER TABLE "test_activity" ADD COLUMN "at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "test_activity" ADD COLUMN "question" integer;--> statement-breakpoint
ALTER TABLE "test_activity" ADD COLUMN "chars" integer;--> statement-breakpoint
ALTER TABLE "test_activity" ADD COLUMN "client_id" text;--> statement-breakpoint
ALTER TABLE "activity_erasures" ADD CONSTRAINT "activity_erasures_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_erasures" ADD CONSTRAINT "activity_erasures_resource_id_resources_id_fk" FOREIGN KEY ("resource_id") REFERENCES "public"."resources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_spans" ADD CONSTRAINT "activity_spans_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_spans" ADD CONSTRAINT "activity_spans_resource_id_resources_id_fk" FOREIGN KEY ("resource_id") REFERENCES "public"."resources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "activity_erasures_user_idx" ON "activity_erasures" USING btree ("user_id","end_at");--> statement-breakpoint
CREATE INDEX "activity_spans_user_start_idx" ON "activity_spans" USING btree ("user_id","start_at");--> statement-breakpoint
CREATE INDEX "activity_spans_user_day_idx" ON "activity_spans" USING btree ("user_id","day");--> statement-breakpoint
CREATE INDEX "activity_spans_resource_idx" ON "activity_spans" USING btree ("resource_id");--> statement-breakpoint
CREATE UNIQUE INDEX "test_activity_client_key" ON "test_activity" USING btree ("test_link_id","client_id");--> statement-breakpoint
CREATE INDEX "test_activity_link_idx" ON "test_activity" USING btree ("test_link_id","at");--> statement-breakpoint
-- events recorded before the server kept its own time: the page's time is the best there is
UPDATE "test_activity" SET "at" = "time_stamp";--> statement-breakpoint
-- time recorded before spans were kept: one span per day and resource, its time of day unknown
INSERT INTO "activity_spans" ("user_id", "resource_id", "day", "start_at", "end_at", "tab_active", "times_known")
SELECT "user_id", "resource_id", "day",
       (extract(epoch from "day"::timestamp) * 1000)::bigint,
       (extract(epoch from "day"::timestamp) * 1000)::bigint + "ms",
       true, false
FROM "activity_daily" WHERE "ms" > 0;