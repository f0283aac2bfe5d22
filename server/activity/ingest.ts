/**
 * Folding a batch of heartbeats into the learner's time. One transaction per batch, serialised per learner
 * (an advisory lock, so two browsers of one learner cannot both count the same stretch):
 *   1. store the new heartbeats (a heartbeat already stored — a resent batch — is skipped by the unique key)
 *      and, in the same statement, read the learner's stored heartbeats around them (`windowDelta`'s windows);
 *   2. compute how the credited time changes there (shared/rules/heartbeats) and add that to the per-day
 *      and per-resource rollups, both bulk upserts (unnest arrays) in one statement.
 * Between BEGIN and COMMIT that is three statements: the lock, the insert-and-read, the upserts.
 * The reports then read only the rollups.
 */
import type { HeartbeatReceipt } from '@shared/contract/activity';
import {
  affectedWindows,
  type Beat,
  isEngaged,
  MAX_CLOCK_AHEAD_MS,
  MAX_HEARTBEAT_AGE_MS,
  readRanges,
  trackingKey,
  windowDelta,
} from '@shared/rules/heartbeats';
import type { Heartbeat } from '@shared/schemas/activity';
import { param, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../db/client';

type Incoming = z.infer<typeof Heartbeat>;

export const rowsOf = <T>(result: unknown): T[] =>
  ((result as { rows?: T[] }).rows ?? (result as T[])) as T[];

/** The learner's assigned resources among `ids`, with their addresses. */
async function assignedAmong(db: Db, userId: string, ids: string[]): Promise<Map<string, string>> {
  const rows = rowsOf<{ id: string; url: string }>(
    await db.execute(sql`
      select r.id, r.url from resources r
      where r.id = any(${param(ids)}::uuid[])
        and exists (
          select 1 from section_resources sr
          join assigned_sections s on s.section_id = sr.section_id
          join assigned_roadmaps ar on ar.id = s.assigned_roadmap_id
          where sr.resource_id = r.id and ar.user_id = ${userId}
        )`),
  );
  return new Map(rows.map((r) => [r.id, r.url]));
}

const dayString = (unixSeconds: number) => new Date(unixSeconds * 1000).toISOString().slice(0, 10);

export async function ingestHeartbeats(
  db: Db,
  userId: string,
  incoming: readonly Incoming[],
  now = Date.now(),
): Promise<HeartbeatReceipt> {
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
  if (valid.length === 0) return { accepted: 0, duplicates, ignored };

  // the windows of every valid heartbeat cover those of the new ones (a superset of rows is harmless)
  const ranges = readRanges(affectedWindows(valid.map((h) => h.time)));
  const accepted = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${userId}))`);
    // store the new ones and read the stored ones around them in one round trip: the select does not see
    // what the insert adds (one snapshot), which is exactly "existing"
    const rows = rowsOf<{
      fresh: boolean;
      client_id: string;
      resource_id: string | null;
      at: string | number | null;
      tab_active: boolean | null;
      audible: boolean | null;
    }>(
      await tx.execute(sql`
        with ins as (
          insert into activity_heartbeats (user_id, client_id, resource_id, at, tab_active, audible)
          select ${userId}, c, r, a, t, s
          from unnest(${param(valid.map((h) => h.id))}::text[], ${param(valid.map((h) => h.resourceId))}::uuid[],
                      ${param(valid.map((h) => h.time))}::int8[], ${param(valid.map((h) => h.tabActive))}::bool[],
                      ${param(valid.map((h) => h.audible))}::bool[]) as u(c, r, a, t, s)
          on conflict do nothing
          returning client_id
        )
        select true as fresh, client_id, null::uuid as resource_id, null::int8 as at,
               null::bool as tab_active, null::bool as audible
        from ins
        union all
        select false, h.client_id, h.resource_id, h.at, h.tab_active, h.audible
        from activity_heartbeats h
        join unnest(${param(ranges.map((r) => r[0]))}::int8[], ${param(ranges.map((r) => r[1]))}::int8[])
          as w(lo, hi) on h.at between w.lo and w.hi
        where h.user_id = ${userId}`),
    );
    const freshIds = new Set(rows.filter((r) => r.fresh).map((r) => r.client_id));
    if (freshIds.size === 0) return 0;
    const fresh: Beat[] = valid
      .filter((h) => freshIds.has(h.id))
      .map(({ id, resourceId, time, tabActive, audible }) => ({ id, resourceId, time, tabActive, audible }));
    const existing: Beat[] = rows
      .filter((r) => !r.fresh)
      .map((r) => ({
        id: r.client_id,
        resourceId: r.resource_id!,
        time: Number(r.at),
        tabActive: r.tab_active!,
        audible: r.audible!,
      }));

    const delta = windowDelta(existing, fresh);
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
    if (delta.length || perResource.size) {
      const entries = [...perResource];
      // both rollups in one statement
      await tx.execute(sql`
        with daily as (
          insert into activity_daily as d (user_id, day, resource_id, ms)
          select ${userId}, day, r, ms
          from unnest(${param(delta.map((d) => dayString(d.day)))}::date[],
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
        select (select count(*) from daily) + (select count(*) from totals) as n`);
    }
    return fresh.length;
  });
  return { accepted, duplicates: duplicates + (valid.length - accepted), ignored };
}
