/**
 * Folding a batch of heartbeats into the learner's time. One transaction per batch, serialised per learner
 * (an advisory lock, so two browsers of one learner cannot both count the same stretch, and a deletion on
 * the "What was tracked" page cannot interleave):
 *   1. store the new heartbeats (a heartbeat already stored — a resent batch — is skipped by the unique key;
 *      one inside a stretch the learner erased is refused) and, in the same statement, read the learner's
 *      stored heartbeats, spans and erasures around them;
 *   2. compute the credited time around the new heartbeats again (shared/rules/heartbeats), replace what the
 *      stored spans held there with it (shared/rules/spans: `respan`), and apply the difference to the spans
 *      and to the per-day and per-resource rollups, all bulk writes (unnest arrays) in one statement.
 * Between BEGIN and COMMIT that is three statements: the lock, the insert-and-read, the writes.
 * The reports then read only the rollups, which stay the sums of the spans.
 * The raw tables are partitioned by time (decision 035): every read and delete here also bounds the
 * partition key by constants (the batch's earliest and latest range), so PostgreSQL plans only the
 * partitions those can be in — one or two — however many days are kept.
 */
import type { HeartbeatReceipt } from '@shared/contract/activity';
import {
  affectedWindows,
  attribute,
  type Beat,
  clip,
  isEngaged,
  MAX_CLOCK_AHEAD_MS,
  MAX_HEARTBEAT_AGE_MS,
  readRanges,
  trackingKey,
} from '@shared/rules/heartbeats';
import { isoDayOf } from '@shared/rules/learning-days';
import { type Erasure, respan, type StoredSpan } from '@shared/rules/spans';
import type { Heartbeat } from '@shared/schemas/activity';
import { and, param, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { resources } from '../catalogue/tables';
import type { Db } from '../db/client';
import { preparedPer, rowsOf } from '../db/helpers';

type Incoming = z.infer<typeof Heartbeat>;

/**
 * The learner's assigned resources among `ids`, with their addresses: a prepared statement (planned once
 * per connection — its planning cost as much as running it, on every batch).
 */
const assignedStatement = preparedPer((db) =>
  db
    .select({ id: resources.id, url: resources.url })
    .from(resources)
    .where(
      and(
        sql`${resources.id} = any(${sql.placeholder('ids')}::uuid[])`,
        sql`exists (
          select 1 from section_resources sr
          join assigned_sections s on s.section_id = sr.section_id
          join assigned_roadmaps ar on ar.id = s.assigned_roadmap_id
          where sr.resource_id = ${resources.id} and ar.user_id = ${sql.placeholder('userId')}::uuid
        )`,
      ),
    )
    .prepare('activity_assigned_among'),
);

async function assignedAmong(db: Db, userId: string, ids: string[]): Promise<Map<string, string>> {
  const rows = await assignedStatement(db).execute({ ids, userId });
  return new Map(rows.map((r) => [r.id, r.url]));
}

/**
 * A batch's heartbeats sorted out before any read: a repeated id counted as a duplicate, one too old or too
 * far in the future ignored with its reason, the rest candidates.
 */
function screenHeartbeats(incoming: readonly Incoming[], now: number) {
  const ignored: HeartbeatReceipt['ignored'] = [];
  const seen = new Set<string>();
  const candidates: Incoming[] = [];
  let duplicates = 0;
  for (const h of incoming) {
    if (seen.has(h.id)) {
      duplicates++;
      continue;
    }
    seen.add(h.id);
    if (h.time < now - MAX_HEARTBEAT_AGE_MS) ignored.push({ id: h.id, reason: 'TOO_OLD' });
    else if (h.time > now + MAX_CLOCK_AHEAD_MS) ignored.push({ id: h.id, reason: 'IN_FUTURE' });
    else candidates.push(h);
  }
  return { ignored, candidates, duplicates };
}

/** A row of the ingestion's one statement: a new or erased heartbeat's id, or a stored beat, span or erasure. */
interface AroundRow {
  k: 'fresh' | 'erased' | 'beat' | 'span' | 'erasure';
  id: string;
  resource_id: string | null;
  a: string | number | null;
  b: string | number | null;
  tab: boolean | null;
  aud: boolean | null;
}

/** The stored heartbeats, spans and erasures around the new heartbeats, from the statement's rows. */
function storedAround(rows: readonly AroundRow[]) {
  const existing: Beat[] = rows
    .filter((r) => r.k === 'beat')
    .map((r) => ({
      id: r.id,
      resourceId: r.resource_id!,
      time: Number(r.a),
      tabActive: r.tab!,
      audible: r.aud!,
    }));
  const stored: StoredSpan[] = rows
    .filter((r) => r.k === 'span')
    .map((r) => ({
      id: r.id,
      resourceId: r.resource_id!,
      start: Number(r.a),
      end: Number(r.b),
      tabActive: r.tab!,
    }));
  const erasures: Erasure[] = rows
    .filter((r) => r.k === 'erasure')
    .map((r) => ({ resourceId: r.resource_id, start: Number(r.a), end: Number(r.b) }));
  return { existing, stored, erasures };
}

/** Each resource's change of tracked time (the spans' delta) and its latest engaged new heartbeat. */
function resourceTotalsChange(delta: readonly { resourceId: string; ms: number }[], fresh: readonly Beat[]) {
  const perResource = new Map<string, { ms: number; lastAt: number }>();
  for (const d of delta) {
    const e = perResource.get(d.resourceId) ?? { ms: 0, lastAt: 0 };
    e.ms += d.ms;
    perResource.set(d.resourceId, e);
  }
  for (const b of fresh) {
    if (!isEngaged(b)) continue;
    const e = perResource.get(b.resourceId) ?? { ms: 0, lastAt: 0 };
    e.lastAt = Math.max(e.lastAt, b.time);
    perResource.set(b.resourceId, e);
  }
  return perResource;
}

/**
 * The candidates sent from a page of a resource assigned to the learner (its tracked address); the others
 * are added to `ignored` as NOT_ASSIGNED or URL_MISMATCH.
 */
async function onAssignedPages(
  db: Db,
  userId: string,
  candidates: readonly Incoming[],
  ignored: HeartbeatReceipt['ignored'],
): Promise<Incoming[]> {
  const assigned = candidates.length
    ? await assignedAmong(db, userId, [...new Set(candidates.map((h) => h.resourceId))])
    : new Map<string, string>();
  const keys = new Map([...assigned].map(([id, url]) => [id, trackingKey(url)]));
  const valid: Incoming[] = [];
  for (const h of candidates) {
    const key = keys.get(h.resourceId);
    if (key === undefined) ignored.push({ id: h.id, reason: 'NOT_ASSIGNED' });
    else if (key === null || trackingKey(h.url) !== key) ignored.push({ id: h.id, reason: 'URL_MISMATCH' });
    else valid.push(h);
  }
  return valid;
}

export async function ingestHeartbeats(
  db: Db,
  userId: string,
  incoming: readonly Incoming[],
  now = Date.now(),
): Promise<HeartbeatReceipt> {
  const { ignored, candidates, duplicates } = screenHeartbeats(incoming, now);
  const valid = await onAssignedPages(db, userId, candidates, ignored);
  if (valid.length === 0) return { accepted: 0, duplicates, ignored };

  // the windows of every valid heartbeat cover those of the new ones (a superset of rows is harmless)
  const validWindows = affectedWindows(valid.map((h) => h.time));
  const ranges = readRanges(validWindows);
  // the partition keys' bounds, as constants the planner prunes partitions with
  const lo = ranges[0]![0];
  const hi = ranges[ranges.length - 1]![1];
  const earliest = Math.min(...valid.map((h) => h.time));
  // a span lies within one UTC day and may end at its midnight: the day before lo's can still reach lo
  const days = sql`${isoDayOf(lo - 1)}::date and ${isoDayOf(hi)}::date`;
  const result = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${userId}))`);
    // one round trip: store the new heartbeats (not those in a stretch the learner erased), and read the
    // stored heartbeats, spans and erasures around them. The selects do not see what the insert adds (one
    // snapshot), which is exactly "existing".
    const rows = rowsOf<AroundRow>(
      await tx.execute(sql`
        with u as (
          select c, r, a, t, s,
                 exists (select 1 from activity_erasures e
                         where e.user_id = ${userId} and (e.resource_id is null or e.resource_id = u0.r)
                           and u0.a >= e.start_at and u0.a < e.end_at and e.end_at > ${earliest}) as erased
          from unnest(${param(valid.map((h) => h.id))}::text[], ${param(valid.map((h) => h.resourceId))}::uuid[],
                      ${param(valid.map((h) => h.time))}::int8[], ${param(valid.map((h) => h.tabActive))}::bool[],
                      ${param(valid.map((h) => h.audible))}::bool[]) as u0(c, r, a, t, s)
        ), ins as (
          insert into activity_heartbeats (user_id, client_id, resource_id, at, tab_active, audible)
          select ${userId}, c, r, a, t, s from u where not erased
          on conflict do nothing
          returning client_id
        ), w as (
          select * from unnest(${param(ranges.map((r) => r[0]))}::int8[], ${param(ranges.map((r) => r[1]))}::int8[])
            as w(lo, hi)
        )
        select 'fresh' as k, client_id as id, null::uuid as resource_id, null::int8 as a, null::int8 as b,
               null::bool as tab, null::bool as aud
        from ins
        union all
        select 'erased', c, null::uuid, null::int8, null::int8, null::bool, null::bool from u where erased
        union all
        select 'beat', h.client_id, h.resource_id, h.at, null, h.tab_active, h.audible
        from activity_heartbeats h join w on h.at between w.lo and w.hi
        where h.user_id = ${userId} and h.at between ${lo} and ${hi}
        union all
        select distinct 'span'::text, sp.id::text, sp.resource_id, sp.start_at, sp.end_at, sp.tab_active, null::bool
        from activity_spans sp join w on sp.start_at <= w.hi and sp.end_at >= w.lo
        where sp.user_id = ${userId} and sp.times_known and sp.day between ${days}
        union all
        select distinct 'erasure'::text, e.id::text, e.resource_id, e.start_at, e.end_at, null::bool, null::bool
        from activity_erasures e join w on e.start_at < w.hi and e.end_at > w.lo
        where e.user_id = ${userId} and e.end_at > ${lo}`),
    );
    const freshIds = new Set(rows.filter((r) => r.k === 'fresh').map((r) => r.id));
    const erased = rows.filter((r) => r.k === 'erased').map((r) => r.id);
    if (freshIds.size === 0) return { accepted: 0, erased };
    const fresh: Beat[] = valid
      .filter((h) => freshIds.has(h.id))
      .map(({ id, resourceId, time, tabActive, audible }) => ({ id, resourceId, time, tabActive, audible }));
    const { existing, stored, erasures } = storedAround(rows);

    // the credit around the new heartbeats, computed again, replaces what the spans held there
    const windows = affectedWindows(fresh.map((b) => b.time));
    const after = clip(attribute([...existing, ...fresh]), windows);
    const change = respan(stored, windows, after, erasures);

    const perResource = resourceTotalsChange(change.delta, fresh);
    if (change.remove.length || change.add.length || perResource.size) {
      const entries = [...perResource];
      const delta = change.delta;
      const add = change.add;
      // the spans and both rollups in one statement
      await tx.execute(sql`
        with gone as (
          delete from activity_spans
          where user_id = ${userId} and day between ${days} and id = any(${param(change.remove)}::uuid[])
          returning 1
        ), added as (
          insert into activity_spans (user_id, resource_id, day, start_at, end_at, tab_active)
          select ${userId}, r, day, a, b, t
          from unnest(${param(add.map((x) => x.resourceId))}::uuid[], ${param(add.map((x) => isoDayOf(x.start)))}::date[],
                      ${param(add.map((x) => x.start))}::int8[], ${param(add.map((x) => x.end))}::int8[],
                      ${param(add.map((x) => x.tabActive))}::bool[]) as u(r, day, a, b, t)
          returning 1
        ), daily as (
          insert into activity_daily as d (user_id, day, resource_id, ms)
          select ${userId}, day, r, ms
          from unnest(${param(delta.map((d) => d.day))}::date[],
                      ${param(delta.map((d) => d.resourceId))}::uuid[],
                      ${param(delta.map((d) => d.ms))}::int8[]) as u(day, r, ms)
          on conflict (user_id, day, resource_id) do update set ms = d.ms + excluded.ms
          returning 1
        ), totals as (
          insert into activity_resource_totals as t (user_id, resource_id, ms, last_at)
          select ${userId}, r, ms, last_at
          from unnest(${param(entries.map(([r]) => r))}::uuid[], ${param(entries.map(([, e]) => e.ms))}::int8[],
                      ${param(entries.map(([, e]) => e.lastAt))}::int8[]) as u(r, ms, last_at)
          on conflict (user_id, resource_id)
          do update set ms = t.ms + excluded.ms, last_at = greatest(t.last_at, excluded.last_at)
          returning 1
        )
        select (select count(*) from gone) + (select count(*) from added) + (select count(*) from daily)
             + (select count(*) from totals) as n`);
    }
    return { accepted: fresh.length, erased };
  });
  for (const id of result.erased) ignored.push({ id, reason: 'ERASED' });
  const accepted = result.accepted;
  return { accepted, duplicates: duplicates + (valid.length - accepted - result.erased.length), ignored };
}
