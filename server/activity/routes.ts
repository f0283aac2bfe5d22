/**
 * Learning time's calls: the extension's (tracked resources, heartbeat batches, today's time: extension.ts,
 * ingest.ts), the learner's dashboard reports (reports.ts, read from the rollups), the learner's tracked
 * days (tracked.ts) and the uninstall feedback — each a call to those.
 */
import { activityRouter } from '@shared/contract/activity';
import { CSV_CONTENT_TYPE, downloadName } from '@shared/rules/csv';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { fileResponse } from '../http/download';
import { created, ok, serve } from '../http/routes';
import { recordUninstallFeedback, todaySummary, trackedResources } from './extension';
import { ingestHeartbeats } from './ingest';
import { currentResources, learningDays, timeByDay, timeByResource, timeByTopic } from './reports';
import { deleteDay, deleteSpan, exportCsv, exportJson, trackedDays } from './tracked';

export function activityRoutes(
  app: FastifyInstance,
  { db, config }: { db: Db; config: Pick<Config, 'retakeCooldownMs'> },
) {
  serve(app, activityRouter, {
    trackedResources: async ({ caller }) => ok({ data: await trackedResources(db, caller) }),
    sendHeartbeats: async ({ body, caller }) =>
      ok({ data: await ingestHeartbeats(db, caller.id, body.heartbeats) }),
    todaySummary: async ({ query, caller }) => ok({ data: await todaySummary(db, caller, query.startTime) }),
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
      await recordUninstallFeedback(db, body, caller?.id ?? null);
      return created({ data: { ok: true } });
    },
  });
}
