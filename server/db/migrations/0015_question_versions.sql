-- Issue 15: a question's version grows whenever the question or any of its options changes, so a server
-- process may keep what a test shows and scores of a question (server/assessments/engine/question-cache.ts)
-- and every statement that uses it checks the version it holds. Triggers, not the application, keep it: no
-- write path (the editor, an import, a migration, a person at psql) can change a question and forget it.
ALTER TABLE "questions" ADD COLUMN "version" bigint DEFAULT 1 NOT NULL;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION waymark_question_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- an update that did not set the version itself (the options' trigger does) moves it on
  IF NEW.version IS NOT DISTINCT FROM OLD.version THEN
    NEW.version := OLD.version + 1;
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER questions_version BEFORE UPDATE ON questions
  FOR EACH ROW EXECUTE FUNCTION waymark_question_changed();
--> statement-breakpoint
-- once per statement on the options: an import writing many options moves each question on once
CREATE OR REPLACE FUNCTION waymark_question_options_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE questions q SET version = q.version + 1 WHERE q.id IN (SELECT n.question_id FROM new_options n);
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE questions q SET version = q.version + 1 WHERE q.id IN (SELECT o.question_id FROM old_options o);
  ELSE
    UPDATE questions q SET version = q.version + 1 WHERE q.id IN (
      SELECT n.question_id FROM new_options n UNION SELECT o.question_id FROM old_options o);
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER question_options_inserted AFTER INSERT ON question_options
  REFERENCING NEW TABLE AS new_options
  FOR EACH STATEMENT EXECUTE FUNCTION waymark_question_options_changed();
--> statement-breakpoint
CREATE TRIGGER question_options_updated AFTER UPDATE ON question_options
  REFERENCING OLD TABLE AS old_options NEW TABLE AS new_options
  FOR EACH STATEMENT EXECUTE FUNCTION waymark_question_options_changed();
--> statement-breakpoint
CREATE TRIGGER question_options_deleted AFTER DELETE ON question_options
  REFERENCING OLD TABLE AS old_options
  FOR EACH STATEMENT EXECUTE FUNCTION waymark_question_options_changed();
