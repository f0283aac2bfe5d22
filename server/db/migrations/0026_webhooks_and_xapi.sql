CREATE TABLE "webhook_deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "webhook_deliveries_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"endpoint_id" uuid NOT NULL,
	"tenant_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"event_type" text NOT NULL,
	"payload" jsonb,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now(),
	"claim" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_attempt_at" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"response_status" integer,
	"response_ms" integer,
	"response_body" text,
	"last_error" text
);
--> statement-breakpoint
CREATE TABLE "webhook_endpoints" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"url" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"event_types" text[] NOT NULL,
	"ordered" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'ACTIVE' NOT NULL,
	"disabled_reason" text,
	"disabled_at" timestamp with time zone,
	"secret" text NOT NULL,
	"previous_secret" text,
	"previous_secret_until" timestamp with time zone,
	"secret_rotated_at" timestamp with time zone,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"failing_since" timestamp with time zone,
	"last_delivered_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "xapi_connections" (
	"tenant_id" uuid PRIMARY KEY NOT NULL,
	"endpoint" text NOT NULL,
	"username" text NOT NULL,
	"secret" text NOT NULL,
	"actor_format" text DEFAULT 'account' NOT NULL,
	"statements" text[] NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"pseudonym_key" text NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_sent_at" timestamp with time zone,
	"failing_since" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "xapi_statements" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "xapi_statements_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"tenant_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"event_type" text NOT NULL,
	"statements" jsonb,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now(),
	"claim" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_attempt_at" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"response_status" integer,
	"last_error" text
);
--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_webhook_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."webhook_endpoints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_tenant_id_users_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "xapi_connections" ADD CONSTRAINT "xapi_connections_tenant_id_users_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "xapi_connections" ADD CONSTRAINT "xapi_connections_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "xapi_statements" ADD CONSTRAINT "xapi_statements_tenant_id_xapi_connections_tenant_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."xapi_connections"("tenant_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_deliveries_event_key" ON "webhook_deliveries" USING btree ("endpoint_id","event_id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("endpoint_id","next_attempt_at") WHERE "webhook_deliveries"."status" in ('PENDING', 'SENDING');--> statement-breakpoint
CREATE INDEX "webhook_deliveries_open_idx" ON "webhook_deliveries" USING btree ("endpoint_id","seq") WHERE "webhook_deliveries"."status" in ('PENDING', 'SENDING');--> statement-breakpoint
CREATE INDEX "webhook_deliveries_endpoint_seq_idx" ON "webhook_deliveries" USING btree ("endpoint_id","seq");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_time_idx" ON "webhook_deliveries" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "webhook_endpoints_tenant_idx" ON "webhook_endpoints" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "xapi_statements_event_key" ON "xapi_statements" USING btree ("tenant_id","event_id");--> statement-breakpoint
CREATE INDEX "xapi_statements_due_idx" ON "xapi_statements" USING btree ("tenant_id","next_attempt_at") WHERE "xapi_statements"."status" in ('PENDING', 'SENDING');--> statement-breakpoint
CREATE INDEX "xapi_statements_tenant_seq_idx" ON "xapi_statements" USING btree ("tenant_id","seq");--> statement-breakpoint
CREATE INDEX "xapi_statements_time_idx" ON "xapi_statements" USING btree ("created_at");--> statement-breakpoint
-- Decision 042: an event's deliveries are made in the event's own transaction, by the statement that writes
-- it, whichever statement that is (emitEvent, emitForLearner, the evaluation's and the roadmaps' triggers, the
-- closing of a learning day): one webhook delivery per (event, endpoint of its tenant that asked for its
-- type), one row of the LRS queue per event of a kind the tenant's LRS takes — exactly once (the unique
-- keys), never for a change rolled back, never lost for one committed. An endpoint disabled when the event
-- happens gets it as FAILED, so that the tenant can redeliver the period once it works again. A tenant with
-- neither costs two index probes per statement.
CREATE OR REPLACE FUNCTION waymark_events_fan_out() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO webhook_deliveries (endpoint_id, tenant_id, event_id, event_type, status, next_attempt_at, last_error)
  SELECT w.id, e.tenant_id, e.id, e.type,
    CASE WHEN w.status = 'ACTIVE' THEN 'PENDING' ELSE 'FAILED' END,
    CASE WHEN w.status = 'ACTIVE' THEN now() END,
    CASE WHEN w.status = 'ACTIVE' THEN NULL ELSE 'The endpoint was disabled when the event happened.' END
  FROM new_events e
    JOIN webhook_endpoints w ON w.tenant_id = e.tenant_id AND e.type = ANY (w.event_types)
  ON CONFLICT (endpoint_id, event_id) DO NOTHING;
  -- the kinds of statement a tenant chooses (shared/schemas/xapi.ts XAPI_STATEMENT_KINDS), by event type
  INSERT INTO xapi_statements (tenant_id, event_id, event_type)
  SELECT e.tenant_id, e.id, e.type
  FROM new_events e
    JOIN xapi_connections c ON c.tenant_id = e.tenant_id AND c.enabled
  WHERE (CASE e.type WHEN 'learning.day.closed' THEN 'studied' WHEN 'assessment.evaluated' THEN 'assessments'
      WHEN 'award.issued' THEN 'awards' WHEN 'roadmap.completed' THEN 'roadmaps' END) = ANY (c.statements)
  ON CONFLICT (tenant_id, event_id) DO NOTHING;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER events_fan_out AFTER INSERT ON events REFERENCING NEW TABLE AS new_events
  FOR EACH STATEMENT EXECUTE FUNCTION waymark_events_fan_out();
