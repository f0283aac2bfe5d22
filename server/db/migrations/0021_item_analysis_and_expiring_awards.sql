-- Issue 30 (decision 037): item analysis's aggregates, kept by a job that folds each evaluated attempt once
-- (item_attempts is the claim), the time an answer was first saved, an index to find the attempts evaluated
-- lately, and awards that expire: validity periods from the moment they are set, and the awards with an end.
CREATE TABLE "item_attempts" (
	"test_link_id" uuid PRIMARY KEY NOT NULL,
	"test_key" text NOT NULL,
	"user_id" uuid,
	"k" integer NOT NULL,
	"raw" double precision NOT NULL,
	"percentage" numeric(6, 2) NOT NULL,
	"passed" boolean NOT NULL,
	"completed_in" integer,
	"completed_at" timestamp with time zone NOT NULL,
	"folded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "item_buckets" (
	"test_key" text NOT NULL,
	"question_id" uuid NOT NULL,
	"bucket" smallint NOT NULL,
	"option" text NOT NULL,
	"n" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "item_buckets_test_key_question_id_bucket_option_pk" PRIMARY KEY("test_key","question_id","bucket","option")
);
--> statement-breakpoint
CREATE TABLE "item_days" (
	"test_key" text NOT NULL,
	"question_id" uuid NOT NULL,
	"day" date NOT NULL,
	"n" integer DEFAULT 0 NOT NULL,
	"sx" double precision DEFAULT 0 NOT NULL,
	"sxx" double precision DEFAULT 0 NOT NULL,
	"nr" integer DEFAULT 0 NOT NULL,
	"sr" double precision DEFAULT 0 NOT NULL,
	CONSTRAINT "item_days_test_key_question_id_day_pk" PRIMARY KEY("test_key","question_id","day")
);
--> statement-breakpoint
CREATE TABLE "item_fold_state" (
	"name" text PRIMARY KEY NOT NULL,
	"through" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "item_sums" (
	"test_key" text NOT NULL,
	"question_id" uuid NOT NULL,
	"n" integer DEFAULT 0 NOT NULL,
	"sx" double precision DEFAULT 0 NOT NULL,
	"sxx" double precision DEFAULT 0 NOT NULL,
	"nr" integer DEFAULT 0 NOT NULL,
	"rx" double precision DEFAULT 0 NOT NULL,
	"rxx" double precision DEFAULT 0 NOT NULL,
	"sr" double precision DEFAULT 0 NOT NULL,
	"srr" double precision DEFAULT 0 NOT NULL,
	"sxr" double precision DEFAULT 0 NOT NULL,
	"timed" integer DEFAULT 0 NOT NULL,
	"seconds" double precision DEFAULT 0 NOT NULL,
	CONSTRAINT "item_sums_test_key_question_id_pk" PRIMARY KEY("test_key","question_id")
);
--> statement-breakpoint
CREATE TABLE "award_expiries" (
	"award_id" text PRIMARY KEY NOT NULL,
	"test_link_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"test_key" text NOT NULL,
	"earned_at" timestamp with time zone NOT NULL,
	"valid_until" timestamp with time zone NOT NULL,
	"reminded_at" timestamp with time zone,
	"renewal_link_id" text
);
--> statement-breakpoint
CREATE TABLE "award_validity_periods" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"test_key" text NOT NULL,
	"months" integer,
	"effective_from" timestamp with time zone DEFAULT now() NOT NULL,
	"set_by" uuid
);
--> statement-breakpoint
-- answers saved before this migration have no first time (their answered_at may be the submission's): the
-- column is added empty, and only then does a new answer get now() as its first time
ALTER TABLE "test_answers" ADD COLUMN "first_answered_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "test_answers" ALTER COLUMN "first_answered_at" SET DEFAULT now();--> statement-breakpoint
ALTER TABLE "item_attempts" ADD CONSTRAINT "item_attempts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "item_buckets" ADD CONSTRAINT "item_buckets_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "item_days" ADD CONSTRAINT "item_days_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "item_sums" ADD CONSTRAINT "item_sums_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "award_expiries" ADD CONSTRAINT "award_expiries_test_link_id_test_links_id_fk" FOREIGN KEY ("test_link_id") REFERENCES "public"."test_links"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "award_expiries" ADD CONSTRAINT "award_expiries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "award_validity_periods" ADD CONSTRAINT "award_validity_periods_set_by_users_id_fk" FOREIGN KEY ("set_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "item_attempts_test_idx" ON "item_attempts" USING btree ("test_key","percentage");--> statement-breakpoint
CREATE INDEX "item_sums_question_idx" ON "item_sums" USING btree ("question_id");--> statement-breakpoint
CREATE INDEX "award_expiries_due_idx" ON "award_expiries" USING btree ("valid_until");--> statement-breakpoint
CREATE INDEX "award_expiries_learner_idx" ON "award_expiries" USING btree ("user_id","test_key");--> statement-breakpoint
CREATE INDEX "award_validity_periods_key_idx" ON "award_validity_periods" USING btree ("test_key","effective_from");--> statement-breakpoint
CREATE INDEX "test_links_completed_idx" ON "test_links" USING btree ("completed_at") WHERE "test_links"."is_completed";