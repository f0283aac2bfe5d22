/**
 * The catalogue and learning-flow calls of shared/contract/catalogue.ts: the catalogue (signed in and
 * public), roadmap pages, selection before and after sign-in, assignment (at most two ongoing), a learner's
 * roadmaps and tasks, resource short links and the contact form. The prerequisite assessment's calls are
 * served with the other assessments (server/assessments/routes.ts).
 */
import { catalogueRouter, roadmapList, roadmapListNoAuth } from '@shared/contract/catalogue';
import { contactMessages } from '@shared/schemas/contact';
import type { FastifyInstance } from 'fastify';
import type { MailService } from '../adapters/mail';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { notFound } from '../http/errors';
import { API_PREFIX, created, ok, serve } from '../http/routes';
import { sendContactMessage } from './contact';
import {
  assignToLearner,
  CATALOGUE_MESSAGES,
  claim,
  learnerRoadmap,
  learnerRoadmaps,
  type RoadmapTests,
  submitTask as submit,
  summaryOf,
} from './learning';
import { cacheListRoutes, ListCache } from './list-cache';
import { listRoadmaps, loadRoadmap, resourceByShortId } from './queries';
import { assignedPreview, assignmentOf, prerequisiteStep, selectRoadmap } from './selection';

export interface CatalogueDeps {
  db: Db;
  /**
   * Where the public catalogue is read (the read replica while it is in use, decision 035): the lists, the
   * public roadmap pages and the prerequisite step, which may be as old as the list's cache anyway.
   */
  reads: () => Db;
  config: Config;
  mail: MailService;
  /** A learner's test links on their roadmaps: the assessments' (server/assessments/roadmap-tests.ts). */
  roadmapTests: RoadmapTests;
  /** The server's clock (tests move it). */
  now?: () => Date;
  /** How long a serialized catalogue list is kept (list-cache.ts): 30 s, none under NODE_ENV=test. */
  listCacheMs?: number;
}

/** The public list may be this old in browsers and proxies, and in the server's kept copy. */
export const LIST_MAX_AGE_S = 30;

export function catalogueRoutes(app: FastifyInstance, deps: CatalogueDeps) {
  const { db, config, mail } = deps;
  const clock = deps.now ?? (() => new Date());
  const listCache = new ListCache(
    deps.listCacheMs ?? (config.env === 'test' ? 0 : LIST_MAX_AGE_S * 1000),
    () => clock().getTime(),
  );
  cacheListRoutes(app, listCache, [
    {
      url: API_PREFIX + roadmapListNoAuth.path,
      cacheControl: `public, max-age=${LIST_MAX_AGE_S}`,
      authenticate: false,
    },
    { url: API_PREFIX + roadmapList.path, cacheControl: 'private, no-cache', authenticate: true },
  ]);

  const roadmapOr404 = async (id: string, from = db) => {
    const roadmap = await loadRoadmap(from, id);
    if (!roadmap) throw notFound(CATALOGUE_MESSAGES.roadmapNotFound);
    return roadmap;
  };

  serve(app, catalogueRouter, {
    roadmapList: async ({ query }) => ok({ data: await listRoadmaps(deps.reads(), query) }),
    async roadmapListNoAuth({ query, reply }) {
      reply.header('cache-control', `public, max-age=${LIST_MAX_AGE_S}`);
      return ok({ data: await listRoadmaps(deps.reads(), query) });
    },
    async roadmapNoAuth({ params, reply }) {
      const roadmap = await roadmapOr404(params.roadmapId, deps.reads());
      reply.header('cache-control', 'public, max-age=30');
      return ok({ data: roadmap });
    },
    roadmapView: async ({ params }) => ok({ data: await roadmapOr404(params.id) }),
    checkRoadmapAssigned: async ({ params, caller }) =>
      ok({ data: await assignmentOf(db, caller.id, params.id) }),
    async assignRoadmap({ body, caller }) {
      const { row, created: isNew } = await assignToLearner(db, {
        userId: caller.id,
        roadmapId: body.roadmapId,
        source: 'SELF',
      });
      return created({
        data: { assignedRoadmapId: row.id },
        message: isNew ? 'The roadmap is assigned to you.' : 'This roadmap is already assigned to you.',
      });
    },
    myRoadmaps: async ({ caller }) => ok({ data: await learnerRoadmaps(db, caller.id) }),
    async assignedRoadmap({ params, caller }) {
      const roadmap = await learnerRoadmap(db, caller.id, params.id, deps.roadmapTests);
      if (!roadmap) throw notFound(CATALOGUE_MESSAGES.assignedNotFound);
      return ok({ data: roadmap });
    },
    assignedRoadmapNoAuth: async ({ params, caller }) =>
      ok({ data: await assignedPreview(db, deps.roadmapTests, params.assignedRoadmapId, caller, clock()) }),
    prerequisiteSelectedRoadmap: async ({ params }) =>
      ok({ data: await prerequisiteStep(deps.reads(), params.id) }),
    createRoadmap: async ({ params, caller }) =>
      created({ data: await selectRoadmap(db, params.id, caller) }),
    async assignUserToRoadmap({ params, caller }) {
      const row = await claim(db, caller.id, params.id, deps.roadmapTests);
      return created({ data: await summaryOf(db, row) });
    },
    async submitTask({ params, body, caller }) {
      await submit(db, caller.id, params.id, params.taskId, body.url);
      return ok({ data: { ok: true }, message: 'Task submitted.' });
    },
    async resourceByShortId({ params }) {
      const resource = await resourceByShortId(db, params.shortId);
      if (!resource) throw notFound(CATALOGUE_MESSAGES.resourceNotFound);
      return ok({ data: resource });
    },
    async contactUs({ body }) {
      await sendContactMessage(mail, config.supportEmail, body, (err) =>
        app.log.error({ err }, 'contact message could not be queued'),
      );
      return ok({
        data: { ok: true },
        message: `${contactMessages.thanksTitle} ${contactMessages.thanksBody}`,
      });
    },
  });
}
