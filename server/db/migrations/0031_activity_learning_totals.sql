CREATE TABLE "activity_learning_totals" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"ms" bigint DEFAULT 0 NOT NULL,
	"days" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "activity_user_days" (
	"user_id" uuid NOT NULL,
	"day" date NOT NULL,
	"ms" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "activity_user_days_pkey" PRIMARY KEY("user_id","day")
);
--> statement-breakpoint
ALTER TABLE "activity_learning_totals" ADD CONSTRAINT "activity_learning_totals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_user_days" ADD CONSTRAINT "activity_user_days_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- A change of activity_daily (decision 049) applied to the per-day and overall sums: the changes summed per
-- learner and day, the day's row updated (its lock held), and the learner's total moved by the time and by
-- the days that went from none to some or back — from the day's value after the change, so two writers of
-- one learner cannot miscount. A learner being deleted (the rows go with the account) is skipped.
-- (PL/pgSQL rather than SQL: its statement's plan is kept for the session instead of made on every call)
CREATE FUNCTION waymark_learning_apply(u uuid[], d date[], m bigint[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF u IS NULL THEN
    RETURN; -- a statement that changed no row (an upsert fires both its insert and update triggers)
  END IF;
  WITH delta AS (
    SELECT x.user_id, x.day, sum(x.ms)::bigint AS ms
    FROM unnest(u, d, m) AS x(user_id, day, ms)
    WHERE EXISTS (SELECT 1 FROM users WHERE users.id = x.user_id)
    GROUP BY x.user_id, x.day
    HAVING sum(x.ms) <> 0
    ORDER BY x.user_id, x.day
  ), after AS (
    INSERT INTO activity_user_days AS a (user_id, day, ms)
    SELECT user_id, day, ms FROM delta
    ON CONFLICT (user_id, day) DO UPDATE SET ms = a.ms + excluded.ms
    RETURNING a.user_id, a.day, a.ms
  )
  INSERT INTO activity_learning_totals AS t (user_id, ms, days)
  SELECT after.user_id, sum(delta.ms),
         sum((after.ms > 0)::int - (after.ms - delta.ms > 0)::int)
  FROM after JOIN delta ON delta.user_id = after.user_id AND delta.day = after.day
  GROUP BY after.user_id
  ORDER BY after.user_id
  ON CONFLICT (user_id) DO UPDATE SET ms = t.ms + excluded.ms, days = t.days + excluded.days;
END $$;
--> statement-breakpoint
CREATE FUNCTION waymark_activity_daily_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM waymark_learning_apply(array_agg(user_id), array_agg(day), array_agg(ms)) FROM new_rows;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION waymark_activity_daily_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM waymark_learning_apply(array_agg(user_id), array_agg(day), array_agg(ms))
  FROM (SELECT user_id, day, ms FROM new_rows UNION ALL SELECT user_id, day, -ms FROM old_rows) c;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION waymark_activity_daily_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM waymark_learning_apply(array_agg(user_id), array_agg(day), array_agg(-ms)) FROM old_rows;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- what the table holds now, then every change after it (one transaction: no change falls between)
LOCK TABLE activity_daily IN SHARE ROW EXCLUSIVE MODE;
--> statement-breakpoint
INSERT INTO activity_user_days (user_id, day, ms)
SELECT user_id, day, sum(ms) FROM activity_daily GROUP BY user_id, day;
--> statement-breakpoint
INSERT INTO activity_learning_totals (user_id, ms, days)
SELECT user_id, sum(ms), count(*) FILTER (WHERE ms > 0) FROM activity_user_days GROUP BY user_id;
--> statement-breakpoint
CREATE TRIGGER activity_daily_inserted AFTER INSERT ON activity_daily
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION waymark_activity_daily_inserted();
--> statement-breakpoint
CREATE TRIGGER activity_daily_updated AFTER UPDATE ON activity_daily
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION waymark_activity_daily_updated();
--> statement-breakpoint
CREATE TRIGGER activity_daily_deleted AFTER DELETE ON activity_daily
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION waymark_activity_daily_deleted();
