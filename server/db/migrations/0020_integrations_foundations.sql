CREATE TABLE "api_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"created_by" uuid,
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"secret_hash" text NOT NULL,
	"scopes" text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "audit_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"occurred_at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_kind" text NOT NULL,
	"actor_id" text,
	"actor_label" text NOT NULL,
	"action" text NOT NULL,
	"target_kind" text NOT NULL,
	"target_id" text,
	"summary" text NOT NULL,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"ip" text,
	"user_agent" text
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"type" text NOT NULL,
	"version" integer NOT NULL,
	"occurred_at" timestamp with time zone DEFAULT now() NOT NULL,
	"subject_user_id" uuid,
	"payload" jsonb NOT NULL,
	"dedupe_key" text
);
--> statement-breakpoint
CREATE TABLE "external_identities" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"issuer" text NOT NULL,
	"subject" text NOT NULL,
	"user_id" uuid NOT NULL,
	"source" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "server_processes" ADD COLUMN "sealing" text;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_tenant_id_users_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_subject_user_id_users_id_fk" FOREIGN KEY ("subject_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "external_identities" ADD CONSTRAINT "external_identities_tenant_id_users_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "external_identities" ADD CONSTRAINT "external_identities_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_prefix_key" ON "api_keys" USING btree ("prefix");--> statement-breakpoint
CREATE INDEX "api_keys_tenant_idx" ON "api_keys" USING btree ("tenant_id");--> statement-breakpoint
CREATE INDEX "audit_events_tenant_time_idx" ON "audit_events" USING btree ("tenant_id","occurred_at" desc,"id" desc);--> statement-breakpoint
CREATE INDEX "audit_events_time_idx" ON "audit_events" USING btree ("occurred_at");--> statement-breakpoint
CREATE INDEX "events_tenant_time_idx" ON "events" USING btree ("tenant_id","occurred_at");--> statement-breakpoint
CREATE UNIQUE INDEX "events_dedupe_key" ON "events" USING btree ("tenant_id","type","dedupe_key") WHERE "events"."dedupe_key" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "external_identities_key" ON "external_identities" USING btree ("tenant_id","issuer","subject");--> statement-breakpoint
CREATE INDEX "external_identities_user_idx" ON "external_identities" USING btree ("user_id");--> statement-breakpoint
-- Decision 039: the audit log is append-only. Nothing the product runs may change or delete an entry; the
-- retention job alone deletes, in a transaction that says so (waymark.audit_retention), and only entries
-- older than a year, whatever AUDIT_RETENTION_DAYS says.
CREATE OR REPLACE FUNCTION waymark_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND current_setting('waymark.audit_retention', true) = 'on'
      AND OLD.occurred_at < now() - interval '365 days' THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'audit_events is append-only: an entry cannot be changed or deleted'
    USING ERRCODE = 'insufficient_privilege';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER audit_events_append_only BEFORE UPDATE OR DELETE ON audit_events
  FOR EACH ROW EXECUTE FUNCTION waymark_audit_append_only();
--> statement-breakpoint
CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON audit_events
  FOR EACH STATEMENT EXECUTE FUNCTION waymark_audit_append_only();
--> statement-breakpoint
-- Event payloads written by the database (shared/contract/events.ts describes them): times as JavaScript's
-- toISOString writes them; an event about a learner, one row per tenant holding the learner's seat (a seat
-- removed by a subscribed tenant counts until its access ends), none when no tenant does (emitForLearner).
CREATE OR REPLACE FUNCTION waymark_iso(t timestamptz) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT to_char(t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION waymark_emit_for_learner(p_user uuid, p_type text, p_version integer, p_payload jsonb)
RETURNS void LANGUAGE sql AS $$
  INSERT INTO events (tenant_id, type, version, subject_user_id, payload)
  SELECT s.tenant_id, p_type, p_version, p_user, p_payload FROM tenant_users s
  WHERE s.learner_id = p_user AND (s.access_until IS NULL OR s.access_until > now())
$$;
--> statement-breakpoint
-- assessment.evaluated (and award.issued when it earns one) in the statement that evaluates the link,
-- whichever statement that is: the evaluation in one statement, the long way, the sweep (decisions 025,
-- 026). One INSERT, planned once per connection: a row per event and tenant holding the learner's seat (a
-- seat removed by a subscribed tenant counts until its access ends), none when no tenant does.
CREATE OR REPLACE FUNCTION waymark_link_evaluated() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  passed boolean := NEW.status IN ('GENERATE_CERTIFICATE', 'VIEW_CERTIFICATE');
  award text := CASE NEW.type WHEN 'RESOURCE' THEN 'feather' WHEN 'SECTION' THEN 'badge'
    WHEN 'ROADMAP' THEN 'certificate' WHEN 'SUBJECT' THEN 'certificate' END;
  lvl text := CASE NEW.type WHEN 'RESOURCE' THEN 'resource' WHEN 'RESOURCE-FROM-WHATSAPP' THEN 'resource'
    WHEN 'SECTION' THEN 'section' WHEN 'ROADMAP' THEN 'roadmap' WHEN 'SUBJECT' THEN 'subject'
    WHEN 'CUSTOM-TEST' THEN 'custom' ELSE 'prerequisite' END;
BEGIN
  IF NEW.user_id IS NULL THEN
    RETURN NULL;
  END IF;
  INSERT INTO events (tenant_id, type, version, subject_user_id, payload)
  SELECT s.tenant_id, e.type, 1, NEW.user_id,
    e.payload || jsonb_build_object('learner', jsonb_build_object('id', u.id, 'email', u.email, 'name', u.name))
  FROM tenant_users s
    JOIN users u ON u.id = NEW.user_id
    CROSS JOIN (VALUES
      ('assessment.evaluated', jsonb_build_object(
        'linkId', NEW.link_id, 'testType', NEW.type, 'level', lvl,
        'score', coalesce(NEW.score, 0), 'percentage', coalesce(NEW.percentage, 0), 'passed', passed,
        'questionCount', NEW.question_count, 'attempt', NEW.attempt,
        'startedAt', waymark_iso(NEW.started_at), 'completedAt', waymark_iso(coalesce(NEW.completed_at, now())),
        'completedInSeconds', NEW.completed_in, 'assessmentId', NEW.tenant_assessment_id,
        'roadmapId', NEW.roadmap_id, 'assignedRoadmapId', NEW.assigned_roadmap_id)),
      ('award.issued', CASE WHEN passed AND award IS NOT NULL THEN jsonb_build_object(
        'awardId', NEW.link_id, 'kind', award, 'level', lvl, 'testType', NEW.type,
        'score', coalesce(NEW.score, 0), 'percentage', coalesce(NEW.percentage, 0),
        'earnedAt', waymark_iso(coalesce(NEW.completed_at, now())),
        'roadmapId', NEW.roadmap_id, 'assignedRoadmapId', NEW.assigned_roadmap_id) END)
    ) AS e(type, payload)
  WHERE s.learner_id = NEW.user_id AND (s.access_until IS NULL OR s.access_until > now())
    AND e.payload IS NOT NULL;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER test_links_evaluated AFTER UPDATE OF is_completed ON test_links
  FOR EACH ROW WHEN (NOT OLD.is_completed AND NEW.is_completed) EXECUTE FUNCTION waymark_link_evaluated();
--> statement-breakpoint
-- roadmap.assigned when a copy becomes a learner's (made for them, or claimed after a selection before
-- sign-in), roadmap.completed when its final test completes it — in the statement that does it.
CREATE OR REPLACE FUNCTION waymark_roadmap_events() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  assigned boolean := TG_OP = 'INSERT' OR OLD.user_id IS NULL;
  completed boolean := NEW.status = 'COMPLETED' AND (TG_OP = 'INSERT' OR OLD.status IS DISTINCT FROM 'COMPLETED');
BEGIN
  IF NEW.user_id IS NULL THEN
    RETURN NULL;
  END IF;
  INSERT INTO events (tenant_id, type, version, subject_user_id, payload)
  SELECT s.tenant_id, e.type, 1, NEW.user_id,
    e.payload || jsonb_build_object('learner', jsonb_build_object('id', u.id, 'email', u.email, 'name', u.name),
      'roadmap', jsonb_build_object('id', r.id, 'name', r.name))
  FROM tenant_users s
    JOIN users u ON u.id = NEW.user_id
    JOIN roadmaps r ON r.id = NEW.roadmap_id
    CROSS JOIN (VALUES
      ('roadmap.assigned', CASE WHEN assigned THEN jsonb_build_object(
        'assignedRoadmapId', NEW.id, 'source', NEW.source, 'prerequisites', NEW.prerequisites,
        'assignedAt', waymark_iso(coalesce(NEW.claimed_at, NEW.created_at))) END),
      ('roadmap.completed', CASE WHEN completed THEN jsonb_build_object(
        'assignedRoadmapId', NEW.id, 'finalLinkId', NEW.final_assesment_id,
        'completedAt', waymark_iso(coalesce(NEW.completed_at, now()))) END)
    ) AS e(type, payload)
  WHERE s.learner_id = NEW.user_id AND (s.access_until IS NULL OR s.access_until > now())
    AND e.payload IS NOT NULL;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER assigned_roadmaps_assigned AFTER INSERT ON assigned_roadmaps
  FOR EACH ROW WHEN (NEW.user_id IS NOT NULL) EXECUTE FUNCTION waymark_roadmap_events();
--> statement-breakpoint
CREATE TRIGGER assigned_roadmaps_changed AFTER UPDATE OF user_id, status ON assigned_roadmaps
  FOR EACH ROW WHEN ((OLD.user_id IS NULL AND NEW.user_id IS NOT NULL)
    OR (OLD.status <> 'COMPLETED' AND NEW.status = 'COMPLETED'))
  EXECUTE FUNCTION waymark_roadmap_events();
--> statement-breakpoint
-- An invitee who signs up takes the seat (migration 0006): now with its seat.added event and its audit
-- entry, the invitee being who did it, in the same statement.
CREATE OR REPLACE FUNCTION waymark_accept_invitation() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  seat uuid;
BEGIN
  IF NEW.invited_by_tenant_id IS NOT NULL AND NEW.role = 'USER' THEN
    UPDATE tenant_invitations
      SET status = 'ACCEPTED', learner_id = NEW.id, accepted_at = now()
      WHERE tenant_id = NEW.invited_by_tenant_id AND email = lower(NEW.email)
        AND status = 'PENDING' AND expires_at > now();
    IF FOUND THEN
      INSERT INTO tenant_users (tenant_id, learner_id) VALUES (NEW.invited_by_tenant_id, NEW.id)
        ON CONFLICT DO NOTHING RETURNING id INTO seat;
      IF seat IS NOT NULL THEN
        INSERT INTO events (tenant_id, type, version, subject_user_id, payload)
          VALUES (NEW.invited_by_tenant_id, 'seat.added', 1, NEW.id, jsonb_build_object(
            'seatId', seat, 'learner', jsonb_build_object('id', NEW.id, 'email', NEW.email, 'name', NEW.name),
            'via', 'INVITATION', 'addedAt', waymark_iso(now())));
        INSERT INTO audit_events (tenant_id, actor_kind, actor_id, actor_label, action, target_kind,
            target_id, summary, details)
          VALUES (NEW.invited_by_tenant_id, 'person', NEW.id::text, NEW.email, 'seat.added', 'user',
            NEW.id::text, NEW.email || ' accepted the invitation and took a seat',
            jsonb_build_object('email', NEW.email, 'via', 'INVITATION'));
      END IF;
    END IF;
  END IF;
  RETURN NEW;
END;
$$;
