CREATE TABLE "question_import_sources" (
	"author_id" uuid NOT NULL,
	"source_key" text NOT NULL,
	"question_id" uuid NOT NULL,
	"fingerprint" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "question_import_sources_author_id_source_key_pk" PRIMARY KEY("author_id","source_key")
);
--> statement-breakpoint
ALTER TABLE "question_import_sources" ADD CONSTRAINT "question_import_sources_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_import_sources" ADD CONSTRAINT "question_import_sources_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "question_import_sources_question_idx" ON "question_import_sources" USING btree ("question_id");