/**
 * Learning time: the extension's calls (tracked resources, heartbeat batches, today's time), the learner's
 * dashboard reports (read from the rollups) and the uninstall feedback.
 */
import {
  createFeedback,
  getCurrentResource,
  sendHeartbeats,
  timeSpentByUserDaywise,
  timeSpentOnResourceByUser,
  todaySummary,
  trackedResources,
} from '@shared/contract/activity';
import { daysOf } from '@shared/rules/date-ranges';
import { attribute, type Beat, clip, MAX_HEARTBEAT_AGE_MS, PULSE_WINDOW_MS } from '@shared/rules/heartbeats';
import type { DashboardCard } from '@shared/schemas/activity';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/client';
import { badRequest } from '../http/errors';
import { created, ok, serve } from '../http/routes';
import { ingestHeartbeats, rowsOf } from './ingest';
import { uninstallFeedback } from './tables';

/** How many dashboard cards at most. */
export const MAX_CARDS = 6;
const DAY = 86_400;

const isoDay = (unixSeconds: number) => new Date(unixSeconds * 1000).toISOString().slice(0, 10);
const seconds = (ms: number | string) => Math.round(Number(ms) / 1000);

export function activityRoutes(app: FastifyInstance, { db }: { db: Db }) {
  serve(
    app,
    {
      trackedResources,
      sendHeartbeats,
      todaySummary,
      timeSpentByUserDaywise,
      getCurrentResource,
      timeSpentOnResourceByUser,
      createFeedback,
    },
    {
      async trackedResources({ caller }) {
        const rows = rowsOf<{ id: string; url: string; title: string }>(
          await db.execute(sql`
            select distinct r.id, r.url, coalesce(r.user_title, r.actual_title) as title
            from assigned_roadmaps ar
            join assigned_sections s on s.assigned_roadmap_id = ar.id
            join section_resources sr on sr.section_id = s.section_id
            join resources r on r.id = sr.resource_id
            where ar.user_id = ${caller.id}
            order by title`),
        );
        return ok({
          data: {
            user: { _id: caller.id, name: caller.user.name, email: caller.user.email },
            resources: rows.map((r) => ({ resourceId: r.id, url: r.url, title: r.title })),
          },
        });
      },

      async sendHeartbeats({ body, caller }) {
        return ok({ data: await ingestHeartbeats(db, caller.id, body.heartbeats) });
      },

      async todaySummary({ query, caller }) {
        const now = Date.now();
        const startTime = query.startTime ?? Math.floor(now / 1000 / DAY) * DAY;
        if (startTime * 1000 > now || startTime * 1000 < now - 36 * 3600_000) {
          throw badRequest('startTime: must be within the last 36 hours', 'startTime');
        }
        const from = startTime * 1000;
        const rows = rowsOf<{
          client_id: string;
          resource_id: string;
          at: string | number;
          tab_active: boolean;
          audible: boolean;
        }>(
          await db.execute(sql`
            select client_id, resource_id, at, tab_active, audible from activity_heartbeats
            where user_id = ${caller.id} and at between ${from - PULSE_WINDOW_MS} and ${now + PULSE_WINDOW_MS}`),
        );
        const beats: Beat[] = rows.map((r) => ({
          id: r.client_id,
          resourceId: r.resource_id,
          time: Number(r.at),
          tabActive: r.tab_active,
          audible: r.audible,
        }));
        const perResource = new Map<string, number>();
        for (const s of clip(attribute(beats), [[from, now + PULSE_WINDOW_MS]])) {
          perResource.set(s.resourceId, (perResource.get(s.resourceId) ?? 0) + (s.end - s.start));
        }
        const ids = [...perResource.keys()];
        const titles = new Map<string, string>();
        if (ids.length) {
          const found = rowsOf<{ id: string; title: string }>(
            await db.execute(sql`
              select id, coalesce(user_title, actual_title) as title from resources
              where id in (${sql.join(
                ids.map((id) => sql`${id}`),
                sql`, `,
              )})`),
          );
          for (const r of found) titles.set(r.id, r.title);
        }
        const resources = ids
          .map((id) => ({
            resourceId: id,
            title: titles.get(id) ?? 'Resource',
            seconds: seconds(perResource.get(id)!),
          }))
          .filter((r) => r.seconds > 0)
          .sort((a, b) => b.seconds - a.seconds);
        return ok({
          data: {
            user: { _id: caller.id, name: caller.user.name, email: caller.user.email },
            startTime,
            totalSeconds: resources.reduce((sum, r) => sum + r.seconds, 0),
            resources,
          },
        });
      },

      async timeSpentByUserDaywise({ query, caller }) {
        const rows = rowsOf<{ day: string; ms: string | number }>(
          await db.execute(sql`
            select to_char(day, 'YYYY-MM-DD') as day, sum(ms) as ms from activity_daily
            where user_id = ${caller.id} and day between ${isoDay(query.startTime)} and ${isoDay(query.endTime)}
            group by day`),
        );
        const byDay = new Map(rows.map((r) => [r.day, seconds(r.ms)]));
        const data = daysOf(query).map((day) => ({ date: day, timespent: byDay.get(isoDay(day)) ?? 0 }));
        return ok({ data });
      },

      async getCurrentResource({ caller }) {
        const rows = rowsOf<{
          assigned_id: string;
          roadmap_name: string;
          section_id: string;
          resource_id: string;
          title: string;
          url: string;
          type: 'WATCH' | 'READ';
          ms: string | number | null;
          last_at: string | number | null;
        }>(
          await db.execute(sql`
            select ar.id as assigned_id, rm.name as roadmap_name, s.section_id, r.id as resource_id,
                   coalesce(r.user_title, r.actual_title) as title, r.url, r.type, t.ms, t.last_at
            from assigned_roadmaps ar
            join roadmaps rm on rm.id = ar.roadmap_id
            join assigned_sections s on s.assigned_roadmap_id = ar.id
            join section_resources sr on sr.section_id = s.section_id
            join resources r on r.id = sr.resource_id
            left join activity_resource_totals t on t.user_id = ar.user_id and t.resource_id = r.id
            where ar.user_id = ${caller.id} and ar.status = 'ONGOING'
            order by ar.created_at, s.position, sr.position`),
        );
        const card = (r: (typeof rows)[number]): DashboardCard => ({
          roadmapName: r.roadmap_name,
          resourceName: r.title,
          resourceUrl: r.url,
          resourceType: r.type,
          latestTimestamp: Math.floor(Number(r.last_at ?? 0) / 1000),
          totalTimeSpent: seconds(r.ms ?? 0),
          roadmapId: r.assigned_id,
          sectionId: r.section_id,
          resourceId: r.resource_id,
        });
        const studied = rows
          .filter((r) => Number(r.last_at ?? 0) > 0)
          .sort((a, b) => Number(b.last_at) - Number(a.last_at));
        const cards: DashboardCard[] = [];
        const seen = new Set<string>();
        for (const r of studied) {
          if (cards.length >= MAX_CARDS) break;
          if (seen.has(r.resource_id)) continue;
          seen.add(r.resource_id);
          cards.push(card(r));
        }
        // an ongoing roadmap not started yet shows its first resource: what to study next
        const started = new Set(cards.map((c) => c.roadmapId));
        for (const r of rows) {
          if (cards.length >= MAX_CARDS) break;
          if (started.has(r.assigned_id) || seen.has(r.resource_id)) continue;
          started.add(r.assigned_id);
          seen.add(r.resource_id);
          cards.push(card(r));
        }
        return ok({ data: cards });
      },

      async timeSpentOnResourceByUser({ query, caller }) {
        const offset = (query.skip - 1) * query.limit;
        const rows = rowsOf<{
          total: string | number;
          resource_id: string | null;
          ms: string | number | null;
          title: string | null;
        }>(
          await db.execute(sql`
            with agg as (
              select resource_id, sum(ms) as ms from activity_daily
              where user_id = ${caller.id} and day between ${isoDay(query.startTime)} and ${isoDay(query.endTime)}
              group by resource_id having sum(ms) > 0
            )
            select c.total, p.resource_id, p.ms, coalesce(r.user_title, r.actual_title) as title
            from (select count(*) as total from agg) c
            left join lateral (
              select resource_id, ms from agg order by ms desc, resource_id limit ${query.limit} offset ${offset}
            ) p on true
            left join resources r on r.id = p.resource_id
            order by p.ms desc nulls last, p.resource_id`),
        );
        return ok({
          data: {
            totalCount: Number(rows[0]?.total ?? 0),
            timeSpentOnResource: rows
              .filter((r) => r.resource_id)
              .map((r) => ({
                resource: { _id: r.resource_id!, userTitle: r.title ?? 'Resource' },
                timespent: seconds(r.ms ?? 0),
              })),
          },
        });
      },

      async createFeedback({ body, caller }) {
        await db.insert(uninstallFeedback).values({
          emailId: body.emailId,
          reasons: body.reason,
          other: body.reason.includes('other') ? (body.other ?? null) : null,
          message: body.message || null,
          userId: caller?.id ?? null,
        });
        return created({ data: { ok: true } });
      },
    },
  );

  // raw heartbeats are needed only to fold in late ones; the rollups keep the time
  let prune: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    prune = setInterval(() => {
      pruneHeartbeats(db).catch((err) => app.log.error({ err }, 'heartbeat pruning failed'));
    }, DAY * 1000);
    prune.unref();
  });
  app.addHook('onClose', async () => {
    if (prune) clearInterval(prune);
  });
}

/** Deletes raw heartbeats older than the oldest a batch may carry (plus a day). */
export async function pruneHeartbeats(db: Db, now = Date.now()): Promise<number> {
  const cutoff = now - MAX_HEARTBEAT_AGE_MS - DAY * 1000;
  const rows = rowsOf<{ n: string | number }>(
    await db.execute(sql`
      with gone as (
        delete from activity_heartbeats where ctid in (
          select ctid from activity_heartbeats where at < ${cutoff} limit 50000
        ) returning 1
      ) select count(*) as n from gone`),
  );
  return Number(rows[0]?.n ?? 0);
}
