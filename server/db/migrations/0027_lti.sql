CREATE TABLE "lti_context_members" (
	"context_row_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lti_context_members_context_row_id_user_id_pk" PRIMARY KEY("context_row_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "lti_contexts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"registration_id" uuid NOT NULL,
	"context_id" text NOT NULL,
	"title" text,
	"memberships_url" text,
	"line_items_url" text,
	"last_launch_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lti_grade_targets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"registration_id" uuid NOT NULL,
	"tenant_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"subject" text NOT NULL,
	"resource_link_id" text NOT NULL,
	"line_item_url" text NOT NULL,
	"kind" text NOT NULL,
	"test_key" text,
	"assigned_roadmap_id" uuid,
	"tenant_assessment_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lti_launches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"registration_id" uuid NOT NULL,
	"tenant_id" uuid NOT NULL,
	"deployment_id" text NOT NULL,
	"message_type" text NOT NULL,
	"role" text NOT NULL,
	"subject" text NOT NULL,
	"user_id" uuid,
	"context_id" text,
	"context_title" text,
	"resource_link_id" text,
	"target" text,
	"opens" jsonb,
	"deep_linking" jsonb,
	"storage_target" text,
	"state_hash" text,
	"code_hash" text NOT NULL,
	"code_used_at" timestamp with time zone,
	"session_hash" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "lti_launches_code_hash_unique" UNIQUE("code_hash"),
	CONSTRAINT "lti_launches_session_hash_unique" UNIQUE("session_hash")
);
--> statement-breakpoint
CREATE TABLE "lti_platform_tokens" (
	"registration_id" uuid NOT NULL,
	"scopes" text NOT NULL,
	"token" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lti_registration_invites" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"label" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"registration_id" uuid,
	CONSTRAINT "lti_registration_invites_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "lti_registrations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"label" text NOT NULL,
	"issuer" text NOT NULL,
	"client_id" text NOT NULL,
	"deployment_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"auth_login_url" text NOT NULL,
	"token_url" text NOT NULL,
	"jwks_url" text NOT NULL,
	"auth_server" text,
	"status" text DEFAULT 'ACTIVE' NOT NULL,
	"via" text NOT NULL,
	"emails_verified" boolean DEFAULT false NOT NULL,
	"attempt_policy" text DEFAULT 'LATEST' NOT NULL,
	"scopes" text[] DEFAULT '{}'::text[] NOT NULL,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"seat_notice_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "lti_score_deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"event_id" uuid NOT NULL,
	"target_id" uuid NOT NULL,
	"registration_id" uuid NOT NULL,
	"tenant_id" uuid NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"claimed_at" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"score_given" real,
	"score_maximum" real,
	"last_status" integer,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lti_states" (
	"state_hash" text PRIMARY KEY NOT NULL,
	"nonce" text NOT NULL,
	"registration_id" uuid NOT NULL,
	"target_link_uri" text NOT NULL,
	"storage_target" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "lti_tool_keys" (
	"kid" text PRIMARY KEY NOT NULL,
	"private_key" text NOT NULL,
	"public_jwk" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"retired_at" timestamp with time zone,
	"published_until" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "token_families" ADD COLUMN "lti_tenant_id" uuid;--> statement-breakpoint
ALTER TABLE "lti_context_members" ADD CONSTRAINT "lti_context_members_context_row_id_lti_contexts_id_fk" FOREIGN KEY ("context_row_id") REFERENCES "public"."lti_contexts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_context_members" ADD CONSTRAINT "lti_context_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_contexts" ADD CONSTRAINT "lti_contexts_registration_id_lti_registrations_id_fk" FOREIGN KEY ("registration_id") REFERENCES "public"."lti_registrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_grade_targets" ADD CONSTRAINT "lti_grade_targets_registration_id_lti_registrations_id_fk" FOREIGN KEY ("registration_id") REFERENCES "public"."lti_registrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_grade_targets" ADD CONSTRAINT "lti_grade_targets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_launches" ADD CONSTRAINT "lti_launches_registration_id_lti_registrations_id_fk" FOREIGN KEY ("registration_id") REFERENCES "public"."lti_registrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_launches" ADD CONSTRAINT "lti_launches_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_platform_tokens" ADD CONSTRAINT "lti_platform_tokens_registration_id_lti_registrations_id_fk" FOREIGN KEY ("registration_id") REFERENCES "public"."lti_registrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_registration_invites" ADD CONSTRAINT "lti_registration_invites_tenant_id_users_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_registration_invites" ADD CONSTRAINT "lti_registration_invites_registration_id_lti_registrations_id_fk" FOREIGN KEY ("registration_id") REFERENCES "public"."lti_registrations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_registrations" ADD CONSTRAINT "lti_registrations_tenant_id_users_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_score_deliveries" ADD CONSTRAINT "lti_score_deliveries_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_score_deliveries" ADD CONSTRAINT "lti_score_deliveries_target_id_lti_grade_targets_id_fk" FOREIGN KEY ("target_id") REFERENCES "public"."lti_grade_targets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_states" ADD CONSTRAINT "lti_states_registration_id_lti_registrations_id_fk" FOREIGN KEY ("registration_id") REFERENCES "public"."lti_registrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "lti_contexts_key" ON "lti_contexts" USING btree ("registration_id","context_id");--> statement-breakpoint
CREATE UNIQUE INDEX "lti_grade_targets_key" ON "lti_grade_targets" USING btree ("registration_id","resource_link_id","user_id");--> statement-breakpoint
CREATE INDEX "lti_grade_targets_user_idx" ON "lti_grade_targets" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "lti_launches_expiry_idx" ON "lti_launches" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "lti_platform_tokens_key" ON "lti_platform_tokens" USING btree ("registration_id","scopes");--> statement-breakpoint
CREATE UNIQUE INDEX "lti_registrations_client_key" ON "lti_registrations" USING btree ("issuer","client_id");--> statement-breakpoint
CREATE INDEX "lti_registrations_tenant_idx" ON "lti_registrations" USING btree ("tenant_id");--> statement-breakpoint
CREATE UNIQUE INDEX "lti_score_deliveries_key" ON "lti_score_deliveries" USING btree ("event_id","target_id");--> statement-breakpoint
CREATE INDEX "lti_score_deliveries_due_idx" ON "lti_score_deliveries" USING btree ("next_attempt_at") WHERE "lti_score_deliveries"."status" in ('PENDING', 'FAILED', 'SENDING');--> statement-breakpoint
CREATE INDEX "lti_score_deliveries_tenant_idx" ON "lti_score_deliveries" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE INDEX "lti_states_expiry_idx" ON "lti_states" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "lti_tool_keys_current" ON "lti_tool_keys" USING btree ((true)) WHERE "lti_tool_keys"."retired_at" is null;--> statement-breakpoint
-- A score post for every grade target an evaluated test or a completed roadmap concerns, written with the
-- event (in its statement's transaction): an LTI score is a delivery from the one events outbox, once per
-- (event, line item). A learner with no grade target costs one index probe.
CREATE FUNCTION waymark_lti_score_deliveries() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.subject_user_id IS NULL
     OR NOT EXISTS (SELECT 1 FROM lti_grade_targets g WHERE g.user_id = NEW.subject_user_id) THEN
    RETURN NULL;
  END IF;
  IF NEW.type = 'assessment.evaluated' THEN
    INSERT INTO lti_score_deliveries (event_id, target_id, registration_id, tenant_id)
    SELECT NEW.id, g.id, g.registration_id, g.tenant_id
    FROM lti_grade_targets g
    JOIN test_links l ON l.link_id = NEW.payload->>'linkId'
    WHERE g.user_id = NEW.subject_user_id AND g.tenant_id = NEW.tenant_id AND g.kind = 'TEST'
      AND ((g.test_key IS NOT NULL AND g.test_key = l.test_key)
        OR (g.tenant_assessment_id IS NOT NULL AND g.tenant_assessment_id = l.tenant_assessment_id))
    ON CONFLICT DO NOTHING;
  ELSIF NEW.type = 'roadmap.completed' THEN
    INSERT INTO lti_score_deliveries (event_id, target_id, registration_id, tenant_id)
    SELECT NEW.id, g.id, g.registration_id, g.tenant_id
    FROM lti_grade_targets g
    WHERE g.user_id = NEW.subject_user_id AND g.tenant_id = NEW.tenant_id AND g.kind = 'ROADMAP'
      AND g.assigned_roadmap_id = (NEW.payload->>'assignedRoadmapId')::uuid
    ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER events_lti_score_deliveries AFTER INSERT ON events FOR EACH ROW
  WHEN (NEW.type IN ('assessment.evaluated', 'roadmap.completed'))
  EXECUTE FUNCTION waymark_lti_score_deliveries();
