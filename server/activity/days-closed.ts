/**
 * `learning.day.closed` (issue 29; shared/contract/events.ts): once a UTC day has ended, each learner's
 * tracked minutes of it, per assigned roadmap, go as one event to each tenant holding the learner's seat —
 * and to no one else (the privacy policy says so). A scheduled job closes the days (server/jobs/jobs.ts);
 * the days closed so far are one row of system_state, locked while a day is closed, so across processes and
 * retries each day is closed once (and each event is written once: `dedupe_key`).
 *
 * A day is closed CLOSE_AFTER_MS after it ends, from the daily rollups as they are then; heartbeats an
 * offline extension sends later still count in the reports, but the day is not sent again. Days missed while
 * no job ran are closed in order, at most MAX_DAYS_BACK of them.
 */

import { currentVersion } from '@shared/contract/events';
import { DAY_MS } from '@shared/rules/heartbeats';
import { isoDayOf } from '@shared/rules/learning-days';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { inTx, parsedJson, rowsOf } from '../db/helpers';

/** How long after its end a day is closed: heartbeats queued in the last minutes have arrived by then. */
export const CLOSE_AFTER_MS = 30 * 60_000;
/** Days missed while no job ran are still closed, this many at most. */
export const MAX_DAYS_BACK = 7;
const STATE_KEY = 'events.learning-days-closed';

/** The last day that may be closed at `now`. */
export const lastClosable = (now: Date) =>
  isoDayOf(Math.floor((now.getTime() - CLOSE_AFTER_MS) / DAY_MS) * DAY_MS - DAY_MS);

/** Closes every day not closed yet up to the last closable one; returns the days and events written. */
export async function closeLearningDays(db: Db, now: Date): Promise<{ days: number; events: number }> {
  const latest = lastClosable(now);
  return inTx(db, async (tx) => {
    // the first run starts with the last closable day
    const before = isoDayOf(Date.parse(latest) - DAY_MS);
    await tx.execute(sql`
      insert into system_state (key, value) values (${STATE_KEY}, ${JSON.stringify({ through: before })}::jsonb)
      on conflict (key) do nothing`);
    const [state] = rowsOf<{ value: { through: string } | string }>(
      await tx.execute(sql`select value from system_state where key = ${STATE_KEY} for update`),
    );
    const through = parsedJson(state!.value).through;
    const days: string[] = [];
    for (let t = Date.parse(through) + DAY_MS; t <= Date.parse(latest); t += DAY_MS) days.push(isoDayOf(t));
    let written = 0;
    for (const day of days.slice(-MAX_DAYS_BACK)) written += await closeDay(tx, day);
    if (days.length) {
      await tx.execute(sql`
        update system_state set value = ${JSON.stringify({ through: latest })}::jsonb, updated_at = now()
        where key = ${STATE_KEY}`);
    }
    return { days: Math.min(days.length, MAX_DAYS_BACK), events: written };
  });
}

/** One day's events: a learner with tracked time that day, for each tenant holding their seat. */
async function closeDay(tx: Db, day: string): Promise<number> {
  const [row] = rowsOf<{ n: string | number }>(
    await tx.execute(sql`
      with written as (
        insert into events (tenant_id, type, version, subject_user_id, payload, dedupe_key)
        select s.tenant_id, 'learning.day.closed', ${currentVersion('learning.day.closed')}::int, t.user_id,
          jsonb_build_object('day', ${day}::text,
            'learner', jsonb_build_object('id', u.id, 'email', u.email, 'name', u.name),
            'minutes', round(t.ms / 60000.0, 2), 'roadmaps', coalesce(r.roadmaps, '[]'::jsonb)),
          t.user_id::text || ':' || ${day}::text
        from (
          select user_id, sum(ms) as ms from activity_daily where day = ${day}::date
          group by user_id having sum(ms) > 0
        ) t
        join tenant_users s on s.learner_id = t.user_id and (s.access_until is null or s.access_until > now())
        join users u on u.id = t.user_id
        left join lateral (
          -- the time on each of the learner's roadmaps: its sections' resources (a resource in two roadmaps
          -- counts in both)
          select jsonb_agg(jsonb_build_object('assignedRoadmapId', x.id, 'roadmapId', x.roadmap_id,
              'name', x.name, 'minutes', round(x.ms / 60000.0, 2)) order by x.ms desc, x.id) as roadmaps
          from (
            select ar.id, ar.roadmap_id, rm.name, sum(d.ms) as ms
            from assigned_roadmaps ar
              join roadmaps rm on rm.id = ar.roadmap_id
              join activity_daily d on d.user_id = ar.user_id and d.day = ${day}::date and d.ms > 0
            where ar.user_id = t.user_id and exists (
              select 1 from assigned_sections a join section_resources sr on sr.section_id = a.section_id
              where a.assigned_roadmap_id = ar.id and sr.resource_id = d.resource_id)
            group by ar.id, ar.roadmap_id, rm.name
          ) x
        ) r on true
        on conflict (tenant_id, type, dedupe_key) where dedupe_key is not null do nothing
        returning 1
      ) select count(*) as n from written`),
  );
  return Number(row?.n ?? 0);
}
