ALTER TABLE "lti_score_deliveries" ADD COLUMN "claim_token" text;--> statement-breakpoint
ALTER TABLE "lti_score_deliveries" ADD COLUMN "payload" jsonb;--> statement-breakpoint
-- A roadmap's grade follows its progress: every evaluated test of the learner's copy posts it, and its
-- completion posts it complete (a final that passed is that completion: not posted twice).
CREATE OR REPLACE FUNCTION waymark_lti_score_deliveries() RETURNS trigger LANGUAGE plpgsql AS $$
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
    WHERE g.user_id = NEW.subject_user_id AND g.tenant_id = NEW.tenant_id
      AND ((g.kind = 'TEST'
            AND ((g.test_key IS NOT NULL AND g.test_key = l.test_key)
              OR (g.tenant_assessment_id IS NOT NULL AND g.tenant_assessment_id = l.tenant_assessment_id)))
        OR (g.kind = 'ROADMAP' AND g.assigned_roadmap_id = l.assigned_roadmap_id
            AND NOT (l.type = 'ROADMAP' AND coalesce((NEW.payload->>'passed')::boolean, false))))
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
-- Each score post waiting to be sent is a pg-boss job (queue `lti-score`, decision 046), written in the
-- transaction that made it wait: a new post (in the evaluation's own statement, through the trigger above),
-- a post the mentor sends again, a paused platform's post put back. The job row is pg-boss's (schema
-- pgboss), filled from its queue's settings as pg-boss's own send fills it, and the queue's workers are
-- woken by its notification; without the queue (not created yet) the sweep `lti-score-sweep` sends it.
CREATE FUNCTION waymark_lti_score_job() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  starts timestamptz := greatest(NEW.next_attempt_at, now());
BEGIN
  INSERT INTO pgboss.job (id, name, data, start_after, retry_limit, retry_delay, retry_backoff, retry_delay_max,
                          expire_seconds, deletion_seconds, keep_until, policy, dead_letter)
  SELECT gen_random_uuid(), q.name, jsonb_build_object('deliveryId', NEW.id), starts, q.retry_limit,
         q.retry_delay, q.retry_backoff, q.retry_delay_max, q.expire_seconds, q.deletion_seconds,
         starts + q.retention_seconds * interval '1 second', q.policy, q.dead_letter
  FROM pgboss.queue q WHERE q.name = 'lti-score';
  IF FOUND AND starts <= now() THEN
    PERFORM pg_notify('pgboss_' || left(encode(sha224('pgboss'::bytea), 'hex'), 24), 'lti-score');
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER lti_score_deliveries_job AFTER INSERT ON lti_score_deliveries FOR EACH ROW
  WHEN (NEW.status = 'PENDING')
  EXECUTE FUNCTION waymark_lti_score_job();
--> statement-breakpoint
CREATE TRIGGER lti_score_deliveries_job_again AFTER UPDATE OF status ON lti_score_deliveries FOR EACH ROW
  WHEN (NEW.status = 'PENDING' AND OLD.status IS DISTINCT FROM 'PENDING')
  EXECUTE FUNCTION waymark_lti_score_job();
