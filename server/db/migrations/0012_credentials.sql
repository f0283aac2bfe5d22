CREATE SEQUENCE "public"."credential_status_seq" INCREMENT BY 1 MINVALUE 0 MAXVALUE 9223372036854775807 START WITH 0 CACHE 1;--> statement-breakpoint
CREATE TABLE "credential_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"public_key_multibase" text NOT NULL,
	"first_used_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "credential_revocations" (
	"award_id" text PRIMARY KEY NOT NULL,
	"status_list" integer NOT NULL,
	"status_index" integer NOT NULL,
	"reason" text NOT NULL,
	"revoked_as" text NOT NULL,
	"revoked_by" uuid,
	"revoked_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "credential_status_lists" (
	"list" integer PRIMARY KEY NOT NULL,
	"document" jsonb NOT NULL,
	"revoked_count" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "credentials" (
	"award_id" text PRIMARY KEY NOT NULL,
	"test_link_id" uuid NOT NULL,
	"status_list" integer NOT NULL,
	"status_index" integer NOT NULL,
	"document" jsonb NOT NULL,
	"key_id" text NOT NULL,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "credential_revocations" ADD CONSTRAINT "credential_revocations_revoked_by_users_id_fk" FOREIGN KEY ("revoked_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credentials" ADD CONSTRAINT "credentials_test_link_id_test_links_id_fk" FOREIGN KEY ("test_link_id") REFERENCES "public"."test_links"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "credential_keys_first_used_idx" ON "credential_keys" USING btree ("first_used_at");--> statement-breakpoint
CREATE INDEX "credential_revocations_list_idx" ON "credential_revocations" USING btree ("status_list");--> statement-breakpoint
CREATE UNIQUE INDEX "credentials_test_link_key" ON "credentials" USING btree ("test_link_id");--> statement-breakpoint
CREATE UNIQUE INDEX "credentials_status_key" ON "credentials" USING btree ("status_list","status_index");