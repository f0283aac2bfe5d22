/**
 * Learning time: the extension's calls (tracked resources, heartbeat batches, today's time), the learner's
 * dashboard reports (read from the rollups) and the uninstall feedback.
 */
import {
  createFeedback,
  deleteTrackedDay,
  deleteTrackedSpan,
  exportActivity,
  getCurrentResource,
  learningDays as learningDaysCall,
  sendHeartbeats,
  timeSpentByTopic,
  timeSpentByUserDaywise,
  timeSpentOnResourceByUser,
  todaySummary,
  trackedDays as trackedDaysCall,
  trackedResources,
} from '@shared/contract/activity';
import { CSV_CONTENT_TYPE, downloadName } from '@shared/rules/csv';
import { attribute, type Beat, clip, PULSE_WINDOW_MS } from '@shared/rules/heartbeats';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { rowsOf } from '../db/helpers';
import { fileResponse } from '../http/download';
import { badRequest } from '../http/errors';
import { created, ok, serve } from '../http/routes';
import { ingestHeartbeats } from './ingest';
import { currentResources, learningDays, timeByDay, timeByResource, timeByTopic } from './reports';
import { uninstallFeedback } from './tables';
import { deleteDay, deleteSpan, exportCsv, exportJson, trackedDays } from './tracked';

const DAY = 86_400;

const seconds = (ms: number | string) => Math.round(Number(ms) / 1000);

export function activityRoutes(
  app: FastifyInstance,
  { db, config }: { db: Db; config: Pick<Config, 'retakeCooldownMs'> },
) {
  serve(
    app,
    {
      trackedResources,
      sendHeartbeats,
      todaySummary,
      timeSpentByUserDaywise,
      getCurrentResource,
      timeSpentOnResourceByUser,
      learningDays: learningDaysCall,
      timeSpentByTopic,
      trackedDays: trackedDaysCall,
      deleteTrackedSpan,
      deleteTrackedDay,
      exportActivity,
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
        return ok({ data: await timeByDay(db, caller.id, query) });
      },

      async getCurrentResource({ caller }) {
        return ok({ data: await currentResources(db, caller.id, config.retakeCooldownMs) });
      },

      async timeSpentOnResourceByUser({ query, caller }) {
        return ok({ data: await timeByResource(db, caller.id, query) });
      },

      async learningDays({ caller }) {
        return ok({ data: await learningDays(db, caller.id) });
      },

      async timeSpentByTopic({ query, caller }) {
        return ok({ data: await timeByTopic(db, caller.id, query) });
      },

      async trackedDays({ query, caller }) {
        return ok({ data: await trackedDays(db, caller.id, query) });
      },

      async deleteTrackedSpan({ params, caller }) {
        return ok({ data: await deleteSpan(db, caller.id, params.id) });
      },

      async deleteTrackedDay({ params, caller }) {
        return ok({ data: await deleteDay(db, caller.id, params.day) });
      },

      async exportActivity({ query, caller, reply }) {
        const user = { id: caller.id, name: caller.user.name, email: caller.user.email };
        return query.format === 'csv'
          ? fileResponse(reply, {
              filename: downloadName('activity', 'csv'),
              contentType: CSV_CONTENT_TYPE,
              chunks: exportCsv(db, caller.id),
            })
          : fileResponse(reply, {
              filename: downloadName('activity', 'json'),
              contentType: 'application/json; charset=utf-8',
              chunks: exportJson(db, user),
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
}
