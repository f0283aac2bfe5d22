CREATE TABLE "question_feedback" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"question_id" uuid NOT NULL,
	"test_link_id" uuid,
	"user_id" uuid,
	"feedback" text NOT NULL,
	"status" text DEFAULT 'OPEN' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "question_options" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"question_id" uuid NOT NULL,
	"value" text DEFAULT '' NOT NULL,
	"is_correct" boolean DEFAULT false NOT NULL,
	"points" integer DEFAULT 0 NOT NULL,
	"position" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "question_targets" (
	"question_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"target_id" uuid NOT NULL,
	CONSTRAINT "question_targets_question_id_kind_target_id_pk" PRIMARY KEY("question_id","kind","target_id")
);
--> statement-breakpoint
CREATE TABLE "questions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"question" text DEFAULT '' NOT NULL,
	"question_type" text DEFAULT 'MCQ' NOT NULL,
	"code" text,
	"question_image_path" text,
	"points" integer DEFAULT 10 NOT NULL,
	"subject_id" uuid,
	"topic_id" uuid,
	"explanation" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"status" text DEFAULT 'PREVIEW' NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "test_activity" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"test_link_id" uuid NOT NULL,
	"type" text NOT NULL,
	"time_stamp" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "test_answers" (
	"test_link_id" uuid NOT NULL,
	"question_id" uuid NOT NULL,
	"answer_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"answer_text" text,
	"points" numeric(6, 2),
	"answered_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "test_answers_test_link_id_question_id_pk" PRIMARY KEY("test_link_id","question_id")
);
--> statement-breakpoint
CREATE TABLE "test_link_questions" (
	"test_link_id" uuid NOT NULL,
	"question_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"roadmap_id" uuid,
	"option_order" jsonb DEFAULT '[]'::jsonb NOT NULL,
	CONSTRAINT "test_link_questions_test_link_id_question_id_pk" PRIMARY KEY("test_link_id","question_id")
);
--> statement-breakpoint
CREATE TABLE "test_links" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"link_id" text NOT NULL,
	"type" text NOT NULL,
	"user_id" uuid,
	"subject_id" uuid,
	"roadmap_id" uuid,
	"assigned_roadmap_id" uuid,
	"section_id" uuid,
	"resource_id" uuid,
	"tenant_assessment_id" uuid,
	"looking_for_job" text,
	"assigned_roadmap_name" text,
	"assigned_section_name" text,
	"assigned_resource_name" text,
	"assigned_subject_name" text,
	"status" text DEFAULT 'TAKE_TEST' NOT NULL,
	"is_completed" boolean DEFAULT false NOT NULL,
	"score" numeric(8, 2),
	"percentage" numeric(6, 2),
	"question_count" integer DEFAULT 0 NOT NULL,
	"time_limit_minutes" integer DEFAULT 30 NOT NULL,
	"start_time" timestamp with time zone,
	"duration_hours" integer,
	"expires_at" timestamp with time zone,
	"started_at" timestamp with time zone,
	"deadline_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"completed_in" integer,
	"certificate_generated" boolean DEFAULT false NOT NULL,
	"certificate_path" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "assigned_roadmaps" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid,
	"roadmap_id" uuid NOT NULL,
	"status" text DEFAULT 'ONGOING' NOT NULL,
	"source" text DEFAULT 'SELF' NOT NULL,
	"assigned_by" uuid,
	"final_assesment_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"claimed_at" timestamp with time zone,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "assigned_sections" (
	"assigned_roadmap_id" uuid NOT NULL,
	"section_id" uuid NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "assigned_sections_assigned_roadmap_id_section_id_pk" PRIMARY KEY("assigned_roadmap_id","section_id")
);
--> statement-breakpoint
CREATE TABLE "authors" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"profile_path" text,
	"designation" text,
	"short_description" text,
	"long_description" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "resources" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"actual_title" text NOT NULL,
	"user_title" text,
	"type" text NOT NULL,
	"url" text NOT NULL,
	"short_id" text NOT NULL,
	"start_seconds" integer,
	"end_seconds" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "roadmap_authors" (
	"roadmap_id" uuid NOT NULL,
	"author_id" uuid NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "roadmap_authors_roadmap_id_author_id_pk" PRIMARY KEY("roadmap_id","author_id")
);
--> statement-breakpoint
CREATE TABLE "roadmap_prerequisites" (
	"roadmap_id" uuid NOT NULL,
	"prerequisite_id" uuid NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "roadmap_prerequisites_roadmap_id_prerequisite_id_pk" PRIMARY KEY("roadmap_id","prerequisite_id")
);
--> statement-breakpoint
CREATE TABLE "roadmaps" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"description" text NOT NULL,
	"language_id" uuid NOT NULL,
	"subject_id" uuid NOT NULL,
	"topic_id" uuid,
	"img_path" text,
	"is_published" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "section_resources" (
	"section_id" uuid NOT NULL,
	"resource_id" uuid NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "section_resources_section_id_resource_id_pk" PRIMARY KEY("section_id","resource_id")
);
--> statement-breakpoint
CREATE TABLE "sections" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"roadmap_id" uuid NOT NULL,
	"name" text NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "task_submissions" (
	"assigned_roadmap_id" uuid NOT NULL,
	"task_id" uuid NOT NULL,
	"url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "task_submissions_assigned_roadmap_id_task_id_pk" PRIMARY KEY("assigned_roadmap_id","task_id")
);
--> statement-breakpoint
CREATE TABLE "tasks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"roadmap_id" uuid NOT NULL,
	"actual_title" text NOT NULL,
	"user_title" text,
	"url" text NOT NULL,
	"type" text DEFAULT 'READ' NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "question_feedback" ADD CONSTRAINT "question_feedback_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_feedback" ADD CONSTRAINT "question_feedback_test_link_id_test_links_id_fk" FOREIGN KEY ("test_link_id") REFERENCES "public"."test_links"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_feedback" ADD CONSTRAINT "question_feedback_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_options" ADD CONSTRAINT "question_options_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_targets" ADD CONSTRAINT "question_targets_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_subject_id_subjects_id_fk" FOREIGN KEY ("subject_id") REFERENCES "public"."subjects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_topic_id_topics_id_fk" FOREIGN KEY ("topic_id") REFERENCES "public"."topics"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_activity" ADD CONSTRAINT "test_activity_test_link_id_test_links_id_fk" FOREIGN KEY ("test_link_id") REFERENCES "public"."test_links"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_answers" ADD CONSTRAINT "test_answers_test_link_id_test_links_id_fk" FOREIGN KEY ("test_link_id") REFERENCES "public"."test_links"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_answers" ADD CONSTRAINT "test_answers_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_link_questions" ADD CONSTRAINT "test_link_questions_test_link_id_test_links_id_fk" FOREIGN KEY ("test_link_id") REFERENCES "public"."test_links"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_link_questions" ADD CONSTRAINT "test_link_questions_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_links" ADD CONSTRAINT "test_links_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_links" ADD CONSTRAINT "test_links_subject_id_subjects_id_fk" FOREIGN KEY ("subject_id") REFERENCES "public"."subjects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_links" ADD CONSTRAINT "test_links_roadmap_id_roadmaps_id_fk" FOREIGN KEY ("roadmap_id") REFERENCES "public"."roadmaps"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_links" ADD CONSTRAINT "test_links_assigned_roadmap_id_assigned_roadmaps_id_fk" FOREIGN KEY ("assigned_roadmap_id") REFERENCES "public"."assigned_roadmaps"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_links" ADD CONSTRAINT "test_links_section_id_sections_id_fk" FOREIGN KEY ("section_id") REFERENCES "public"."sections"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_links" ADD CONSTRAINT "test_links_resource_id_resources_id_fk" FOREIGN KEY ("resource_id") REFERENCES "public"."resources"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assigned_roadmaps" ADD CONSTRAINT "assigned_roadmaps_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assigned_roadmaps" ADD CONSTRAINT "assigned_roadmaps_roadmap_id_roadmaps_id_fk" FOREIGN KEY ("roadmap_id") REFERENCES "public"."roadmaps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assigned_roadmaps" ADD CONSTRAINT "assigned_roadmaps_assigned_by_users_id_fk" FOREIGN KEY ("assigned_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assigned_sections" ADD CONSTRAINT "assigned_sections_assigned_roadmap_id_assigned_roadmaps_id_fk" FOREIGN KEY ("assigned_roadmap_id") REFERENCES "public"."assigned_roadmaps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assigned_sections" ADD CONSTRAINT "assigned_sections_section_id_sections_id_fk" FOREIGN KEY ("section_id") REFERENCES "public"."sections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "roadmap_authors" ADD CONSTRAINT "roadmap_authors_roadmap_id_roadmaps_id_fk" FOREIGN KEY ("roadmap_id") REFERENCES "public"."roadmaps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "roadmap_authors" ADD CONSTRAINT "roadmap_authors_author_id_authors_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."authors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "roadmap_prerequisites" ADD CONSTRAINT "roadmap_prerequisites_roadmap_id_roadmaps_id_fk" FOREIGN KEY ("roadmap_id") REFERENCES "public"."roadmaps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "roadmap_prerequisites" ADD CONSTRAINT "roadmap_prerequisites_prerequisite_id_roadmaps_id_fk" FOREIGN KEY ("prerequisite_id") REFERENCES "public"."roadmaps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "roadmaps" ADD CONSTRAINT "roadmaps_language_id_languages_id_fk" FOREIGN KEY ("language_id") REFERENCES "public"."languages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "roadmaps" ADD CONSTRAINT "roadmaps_subject_id_subjects_id_fk" FOREIGN KEY ("subject_id") REFERENCES "public"."subjects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "roadmaps" ADD CONSTRAINT "roadmaps_topic_id_topics_id_fk" FOREIGN KEY ("topic_id") REFERENCES "public"."topics"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "section_resources" ADD CONSTRAINT "section_resources_section_id_sections_id_fk" FOREIGN KEY ("section_id") REFERENCES "public"."sections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "section_resources" ADD CONSTRAINT "section_resources_resource_id_resources_id_fk" FOREIGN KEY ("resource_id") REFERENCES "public"."resources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sections" ADD CONSTRAINT "sections_roadmap_id_roadmaps_id_fk" FOREIGN KEY ("roadmap_id") REFERENCES "public"."roadmaps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_submissions" ADD CONSTRAINT "task_submissions_assigned_roadmap_id_assigned_roadmaps_id_fk" FOREIGN KEY ("assigned_roadmap_id") REFERENCES "public"."assigned_roadmaps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_submissions" ADD CONSTRAINT "task_submissions_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_roadmap_id_roadmaps_id_fk" FOREIGN KEY ("roadmap_id") REFERENCES "public"."roadmaps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "question_feedback_question_idx" ON "question_feedback" USING btree ("question_id");--> statement-breakpoint
CREATE INDEX "question_options_question_idx" ON "question_options" USING btree ("question_id","position");--> statement-breakpoint
CREATE INDEX "question_targets_target_idx" ON "question_targets" USING btree ("kind","target_id");--> statement-breakpoint
CREATE INDEX "questions_subject_idx" ON "questions" USING btree ("subject_id","status");--> statement-breakpoint
CREATE INDEX "questions_creator_idx" ON "questions" USING btree ("created_by");--> statement-breakpoint
CREATE INDEX "test_activity_link_idx" ON "test_activity" USING btree ("test_link_id");--> statement-breakpoint
CREATE UNIQUE INDEX "test_links_link_id_key" ON "test_links" USING btree ("link_id");--> statement-breakpoint
CREATE INDEX "test_links_user_idx" ON "test_links" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "test_links_assigned_idx" ON "test_links" USING btree ("assigned_roadmap_id");--> statement-breakpoint
CREATE INDEX "assigned_roadmaps_user_idx" ON "assigned_roadmaps" USING btree ("user_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "assigned_roadmaps_user_roadmap_key" ON "assigned_roadmaps" USING btree ("user_id","roadmap_id") WHERE "assigned_roadmaps"."user_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "resources_short_id_key" ON "resources" USING btree ("short_id");--> statement-breakpoint
CREATE INDEX "resources_url_idx" ON "resources" USING btree ("url");--> statement-breakpoint
CREATE UNIQUE INDEX "roadmaps_name_key" ON "roadmaps" USING btree ("name");--> statement-breakpoint
CREATE INDEX "roadmaps_filter_idx" ON "roadmaps" USING btree ("language_id","subject_id","topic_id");--> statement-breakpoint
CREATE INDEX "section_resources_resource_idx" ON "section_resources" USING btree ("resource_id");--> statement-breakpoint
CREATE INDEX "sections_roadmap_idx" ON "sections" USING btree ("roadmap_id","position");--> statement-breakpoint
CREATE INDEX "tasks_roadmap_idx" ON "tasks" USING btree ("roadmap_id","position");