/**
 * What was tracked, for the learner who was tracked: the spans by day, deleting a span or a day, and the
 * export of everything. A deletion runs under the learner's ingestion lock and, in one transaction, removes
 * the spans, takes their time off the daily and per-resource rollups (so the dashboard and a mentor's
 * analytics change at once), deletes the raw heartbeats behind them, and records the erased stretch so no
 * heartbeat arriving later (an offline queue) fills it again — while one still can: a stretch older than
 * the oldest heartbeat accepted, or later than the newest, needs no record (and its time partition may be
 * gone, or not made yet). The spans and heartbeats are partitioned by time (decision 035): a span is found
 * by its id in whichever month it is, the heartbeats by their time.
 *
 * These read the primary (`db`), never the read replica: the learner sees at once what they deleted.
 */
import type { TrackedDay, TrackedSpan } from '@shared/contract/activity';
import { CSV_BOM, csvLine } from '@shared/rules/csv';
import { DAY_MS, MAX_CLOCK_AHEAD_MS, MAX_HEARTBEAT_AGE_MS } from '@shared/rules/heartbeats';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { inTx, rowsOf } from '../db/helpers';
import { paged } from '../http/download';
import { notFound } from '../http/errors';

interface SpanRow {
  id: string;
  resource_id: string;
  title: string | null;
  url: string | null;
  day: string;
  start_at: string | number;
  end_at: string | number;
  tab_active: boolean;
  times_known: boolean;
}

const iso = (ms: number) => new Date(ms).toISOString();
const seconds = (ms: number) => Math.round(ms / 1000);

function toSpan(r: SpanRow): TrackedSpan {
  const start = Number(r.start_at);
  const end = Number(r.end_at);
  return {
    _id: r.id,
    resource: { _id: r.resource_id, title: r.title ?? 'Resource', url: r.url ?? '' },
    start: iso(start),
    end: iso(end),
    seconds: seconds(end - start),
    tabActive: r.tab_active,
    timesKnown: r.times_known,
  };
}

const spanColumns = sql`
  s.id, s.resource_id, coalesce(r.user_title, r.actual_title) as title, r.url,
  to_char(s.day, 'YYYY-MM-DD') as day, s.start_at, s.end_at, s.tab_active, s.times_known`;

/** One page of days with their spans, newest day first. */
export async function trackedDays(db: Db, userId: string, page: { skip: number; limit: number }) {
  const offset = (page.skip - 1) * page.limit;
  const days = rowsOf<{
    day: string;
    ms: string | number;
    total_days: string | number;
    total_ms: string | number;
  }>(
    await db.execute(sql`
      with d as (
        select day, sum(end_at - start_at) as ms from activity_spans where user_id = ${userId} group by day
      )
      select to_char(d.day, 'YYYY-MM-DD') as day, d.ms,
             (select count(*) from d) as total_days, (select coalesce(sum(ms), 0) from d) as total_ms
      from d order by d.day desc limit ${page.limit} offset ${offset}`),
  );
  const totals = rowsOf<{ total_days: string | number; total_ms: string | number }>(
    days.length
      ? [days[0]]
      : await db.execute(sql`
          select count(distinct day) as total_days, coalesce(sum(end_at - start_at), 0) as total_ms
          from activity_spans where user_id = ${userId}`),
  )[0];
  const spans = days.length
    ? rowsOf<SpanRow>(
        await db.execute(sql`
          select ${spanColumns} from activity_spans s join resources r on r.id = s.resource_id
          where s.user_id = ${userId} and s.day in (${sql.join(
            days.map((d) => sql`${d.day}::date`),
            sql`, `,
          )})
          order by s.start_at, s.id`),
      )
    : [];
  const byDay = new Map<string, TrackedSpan[]>();
  for (const r of spans) {
    const list = byDay.get(r.day) ?? [];
    list.push(toSpan(r));
    byDay.set(r.day, list);
  }
  const out: TrackedDay[] = days.map((d) => ({
    date: Date.parse(`${d.day}T00:00:00Z`) / 1000,
    day: d.day,
    seconds: seconds(Number(d.ms)),
    spans: byDay.get(d.day) ?? [],
  }));
  return {
    totalDays: Number(totals?.total_days ?? 0),
    totalSeconds: seconds(Number(totals?.total_ms ?? 0)),
    days: out,
  };
}

interface Removed {
  resource_id: string;
  day: string;
  ms: string | number;
}

/**
 * Takes removed spans' time off the rollups, deletes their heartbeats and records the erasure: the part of
 * a deletion after the spans themselves are gone (inside the caller's transaction and lock).
 */
async function forget(
  tx: Db,
  userId: string,
  removed: Removed[],
  erase: { resourceId: string | null; start: number; end: number } | null,
) {
  if (removed.length) {
    await tx.execute(sql`
      with r as (
        select * from unnest(${sql.param(removed.map((x) => x.day))}::date[],
                             ${sql.param(removed.map((x) => x.resource_id))}::uuid[],
                             ${sql.param(removed.map((x) => Number(x.ms)))}::int8[]) as r(day, resource_id, ms)
      ), daily as (
        update activity_daily d set ms = d.ms - r.ms
        from (select day, resource_id, sum(ms) as ms from r group by 1, 2) r
        where d.user_id = ${userId} and d.day = r.day and d.resource_id = r.resource_id
        returning 1
      ), totals as (
        update activity_resource_totals t set ms = t.ms - r.ms,
          last_at = coalesce((select max(s.end_at) from activity_spans s
                              where s.user_id = ${userId} and s.resource_id = t.resource_id and s.times_known), 0)
        from (select resource_id, sum(ms) as ms from r group by 1) r
        where t.user_id = ${userId} and t.resource_id = r.resource_id
        returning 1
      )
      select (select count(*) from daily) + (select count(*) from totals) as n`);
    await tx.execute(sql`delete from activity_daily where user_id = ${userId} and ms <= 0`);
  }
  if (erase) {
    const now = Date.now();
    const arriving =
      erase.end > now - MAX_HEARTBEAT_AGE_MS - DAY_MS && erase.start <= now + MAX_CLOCK_AHEAD_MS;
    await tx.execute(sql`
      delete from activity_heartbeats
      where user_id = ${userId} and at >= ${erase.start} and at < ${erase.end}
        ${erase.resourceId ? sql`and resource_id = ${erase.resourceId}` : sql``}`);
    if (arriving) {
      await tx.execute(sql`
        insert into activity_erasures (user_id, resource_id, start_at, end_at)
        values (${userId}, ${erase.resourceId}, ${erase.start}, ${erase.end})`);
    }
  }
}

async function daySeconds(tx: Db, userId: string, day: string) {
  const [row] = rowsOf<{ ms: string | number | null }>(
    await tx.execute(
      sql`select sum(end_at - start_at) as ms from activity_spans where user_id = ${userId} and day = ${day}::date`,
    ),
  );
  return seconds(Number(row?.ms ?? 0));
}

const lock = (tx: Db, userId: string) => tx.execute(sql`select pg_advisory_xact_lock(hashtext(${userId}))`);

export async function deleteSpan(db: Db, userId: string, spanId: string) {
  return inTx(db, async (tx) => {
    await lock(tx, userId);
    const [gone] = rowsOf<
      Removed & { start_at: string | number; end_at: string | number; times_known: boolean }
    >(
      await tx.execute(sql`
        delete from activity_spans where id = ${spanId} and user_id = ${userId}
        returning resource_id, to_char(day, 'YYYY-MM-DD') as day, end_at - start_at as ms, start_at, end_at,
                  times_known`),
    );
    if (!gone) throw notFound('This span is not one of yours, or it was deleted already.');
    // a span recorded before spans were kept has no time of day: its day's heartbeats of that resource go
    const start = gone.times_known ? Number(gone.start_at) : Date.parse(`${gone.day}T00:00:00Z`);
    const end = gone.times_known ? Number(gone.end_at) : start + DAY_MS;
    await forget(tx, userId, [gone], { resourceId: gone.resource_id, start, end });
    return {
      day: gone.day,
      seconds: seconds(Number(gone.ms)),
      daySeconds: await daySeconds(tx, userId, gone.day),
    };
  });
}

export async function deleteDay(db: Db, userId: string, day: string) {
  return inTx(db, async (tx) => {
    await lock(tx, userId);
    const gone = rowsOf<Removed>(
      await tx.execute(sql`
        delete from activity_spans where user_id = ${userId} and day = ${day}::date
        returning resource_id, to_char(day, 'YYYY-MM-DD') as day, end_at - start_at as ms`),
    );
    const start = Date.parse(`${day}T00:00:00Z`);
    await forget(tx, userId, gone, { resourceId: null, start, end: start + DAY_MS });
    return { day, seconds: seconds(gone.reduce((sum, g) => sum + Number(g.ms), 0)), daySeconds: 0 };
  });
}

const EXPORT_PAGE = 2_000;

/** Every span of the learner, oldest first, a page at a time. */
function allSpans(db: Db, userId: string) {
  return paged<SpanRow, { start: number; id: string }>(
    EXPORT_PAGE,
    async (after) =>
      rowsOf<SpanRow>(
        await db.execute(sql`
          select ${spanColumns} from activity_spans s join resources r on r.id = s.resource_id
          where s.user_id = ${userId}
            ${after ? sql`and (s.start_at, s.id) > (${after.start}, ${after.id}::uuid)` : sql``}
          order by s.start_at, s.id
          limit ${EXPORT_PAGE}`),
      ),
    (r) => ({ start: Number(r.start_at), id: r.id }),
  );
}

export const EXPORT_COLUMNS = [
  'Day (UTC)',
  'Start (UTC)',
  'End (UTC)',
  'Seconds',
  'Resource',
  'Address',
  'Tab in front or media playing',
  'Time of day recorded',
] as const;

const how = (tabActive: boolean) => (tabActive ? 'tab in front' : 'media playing');

export async function* exportCsv(db: Db, userId: string): AsyncGenerator<string> {
  yield CSV_BOM + csvLine(EXPORT_COLUMNS);
  for await (const r of allSpans(db, userId)) {
    const s = toSpan(r);
    yield csvLine([
      r.day,
      s.start,
      s.end,
      s.seconds,
      s.resource.title,
      s.resource.url,
      how(s.tabActive),
      s.timesKnown ? 'yes' : 'no',
    ]);
  }
}

export async function* exportJson(
  db: Db,
  user: { id: string; name: string | null; email: string },
  now = new Date(),
): AsyncGenerator<string> {
  yield `{"exportedAt":${JSON.stringify(now.toISOString())},"user":${JSON.stringify({ _id: user.id, name: user.name, email: user.email })},`;
  yield `"about":${JSON.stringify('Every span of learning time Waymark recorded for you: the resource, when (UTC), how long, and whether its tab was in front or only played media. Days are UTC days.')},"spans":[`;
  let first = true;
  const daily = new Map<string, Map<string, { title: string; seconds: number }>>();
  for await (const r of allSpans(db, user.id)) {
    const s = toSpan(r);
    yield `${first ? '' : ','}${JSON.stringify({ day: r.day, ...s })}`;
    first = false;
    const day = daily.get(r.day) ?? new Map();
    const e = day.get(s.resource._id) ?? { title: s.resource.title, seconds: 0 };
    e.seconds += Number(r.end_at) - Number(r.start_at);
    day.set(s.resource._id, e);
    daily.set(r.day, day);
  }
  // a day's totals are small: one entry per day and resource
  const days = [...daily].map(([day, resources]) => ({
    day,
    seconds: seconds([...resources.values()].reduce((sum, e) => sum + e.seconds, 0)),
    resources: [...resources].map(([id, e]) => ({ _id: id, title: e.title, seconds: seconds(e.seconds) })),
  }));
  yield `],"days":${JSON.stringify(days)}}`;
}
