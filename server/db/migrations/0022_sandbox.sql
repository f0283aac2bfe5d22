-- Decision 041: a tenant's sandbox. Its demo learners are accounts of their own marked with the tenant
-- (users.sandbox_of: no seat, no sign-in, never billed, deleted with the tenant); its test links are marked
-- (test_links.sandbox: they never expire, their attempts reset on demand, no cool-down, no credential).
-- Adding a column with a constant default rewrites no row (PostgreSQL 11 and later).
CREATE TABLE "sandboxes" (
	"tenant_id" uuid PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"reset_at" timestamp with time zone,
	"resets" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "sandbox_of" uuid;--> statement-breakpoint
ALTER TABLE "test_links" ADD COLUMN "sandbox" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "sandboxes" ADD CONSTRAINT "sandboxes_tenant_id_users_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_sandbox_of_users_id_fk" FOREIGN KEY ("sandbox_of") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "users_sandbox_idx" ON "users" USING btree ("sandbox_of") WHERE "users"."sandbox_of" is not null;
