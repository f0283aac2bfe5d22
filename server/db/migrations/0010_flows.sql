CREATE TABLE "identity_mail" (
	"oob_code" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"request_type" text NOT NULL,
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "assigned_roadmaps" ADD COLUMN "prerequisites" text;