/**
 * The catalogue and learning-flow calls of shared/contract/catalogue.ts: the catalogue (signed in and
 * public), roadmap pages, selection before and after sign-in, assignment (at most two ongoing), a learner's
 * roadmaps and tasks, resource short links and the contact form. The prerequisite assessment's calls are
 * served with the other assessments (server/assessments/routes.ts).
 */
import { catalogueRouter, roadmapList, roadmapListNoAuth } from '@shared/contract/catalogue';
import { and, asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { MailService } from '../adapters/mail';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { subjects } from '../db/schema';
import { badRequest, forbidden, HttpError, notFound } from '../http/errors';
import { API_PREFIX, created, ok, serve } from '../http/routes';
import { requestTranslator } from '../lib/i18n';
import {
  assessmentRequired,
  assignedSectionIds,
  assignToLearner,
  CATALOGUE_MESSAGES,
  claim,
  createUnclaimed,
  hasPrerequisites,
  learnerRoadmap,
  learnerRoadmaps,
  type RoadmapTests,
  requireRoadmap,
  submitTask as submit,
  summaryOf,
} from './learning';
import { cacheListRoutes, ListCache } from './list-cache';
import { listRoadmaps, loadRoadmap, prerequisitesOf, sectionsWithResources } from './queries';
import { assignedRoadmaps, resources, roadmaps } from './tables';

export interface CatalogueDeps {
  db: Db;
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

/** One line for a mail header: no line breaks, bounded. */
const headerLine = (s: string, max = 150) => s.replace(/[\r\n]+/g, ' ').slice(0, max);

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

  const roadmapOr404 = async (id: string) => {
    const roadmap = await loadRoadmap(db, id);
    if (!roadmap) throw notFound(CATALOGUE_MESSAGES.roadmapNotFound);
    return roadmap;
  };

  serve(app, catalogueRouter, {
    async roadmapList({ query }) {
      return ok({ data: await listRoadmaps(db, query) });
    },

    async roadmapListNoAuth({ query, reply }) {
      reply.header('cache-control', `public, max-age=${LIST_MAX_AGE_S}`);
      return ok({ data: await listRoadmaps(db, query) });
    },

    async roadmapNoAuth({ params, reply }) {
      const roadmap = await roadmapOr404(params.roadmapId);
      reply.header('cache-control', 'public, max-age=30');
      return ok({ data: roadmap });
    },

    async roadmapView({ params }) {
      return ok({ data: await roadmapOr404(params.id) });
    },

    async checkRoadmapAssigned({ params, caller }) {
      await requireRoadmap(db, params.id);
      const [row] = await db
        .select({ id: assignedRoadmaps.id })
        .from(assignedRoadmaps)
        .where(and(eq(assignedRoadmaps.userId, caller.id), eq(assignedRoadmaps.roadmapId, params.id)))
        .limit(1);
      return ok({ data: { assigned: Boolean(row), assignedRoadmapId: row?.id ?? null } });
    },

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

    async myRoadmaps({ caller }) {
      return ok({ data: await learnerRoadmaps(db, caller.id) });
    },

    async assignedRoadmap({ params, caller }) {
      const roadmap = await learnerRoadmap(db, caller.id, params.id, deps.roadmapTests);
      if (!roadmap) throw notFound(CATALOGUE_MESSAGES.assignedNotFound);
      return ok({ data: roadmap });
    },

    async assignedRoadmapNoAuth({ params, caller }) {
      const [row] = await db
        .select({
          id: assignedRoadmaps.id,
          roadmapId: assignedRoadmaps.roadmapId,
          userId: assignedRoadmaps.userId,
          name: roadmaps.name,
          subjectName: subjects.name,
        })
        .from(assignedRoadmaps)
        .innerJoin(roadmaps, eq(roadmaps.id, assignedRoadmaps.roadmapId))
        .innerJoin(subjects, eq(subjects.id, roadmaps.subjectId))
        .where(eq(assignedRoadmaps.id, params.assignedRoadmapId))
        .limit(1);
      // the page shows the server's message for a 400 (mentor §8)
      if (!row) throw badRequest(CATALOGUE_MESSAGES.previewNotFound, 'assignedRoadmapId');
      const sectionList = await sectionsWithResources(db, await assignedSectionIds(db, row));
      return ok({
        data: {
          _id: row.id,
          roadmapId: row.roadmapId,
          name: row.name,
          subject: { name: row.subjectName },
          sectionCount: sectionList.length,
          resourceCount: sectionList.reduce((n, s) => n + s.resources.length, 0),
          sections: sectionList.map((s) => ({
            name: s.name,
            resources: s.resources.map((r) => ({ actualTitle: r.actualTitle })),
          })),
          claimed: row.userId !== null,
          mine: caller !== null && row.userId === caller.id,
          // the assessment's result is the learner's: whoever holds the unclaimed link, then its learner
          prerequisiteResults:
            row.userId === null || row.userId === caller?.id
              ? await deps.roadmapTests.prerequisiteResults(db, row, clock())
              : null,
        },
      });
    },

    async prerequisiteSelectedRoadmap({ params }) {
      const header = await requireRoadmap(db, params.id);
      const prerequisites = await prerequisitesOf(db, [params.id]);
      return ok({
        data: {
          selectedRoadmap: {
            roadmapId: header.id,
            roadmapName: header.name,
            subject: { name: header.subjectName },
          },
          prerequisites: prerequisites.map((p) => ({ roadmapId: p.prerequisiteId, roadmapName: p.name })),
        },
      });
    },

    async createRoadmap({ params, caller }) {
      if (caller && caller.user.role !== 'USER') {
        throw forbidden('Only learners can select a roadmap for themselves.');
      }
      await requireRoadmap(db, params.id);
      if (await hasPrerequisites(db, params.id)) throw assessmentRequired('id');
      const row = caller
        ? (await assignToLearner(db, { userId: caller.id, roadmapId: params.id, source: 'SELF' })).row
        : await createUnclaimed(db, params.id);
      return created({ data: await summaryOf(db, row) });
    },

    async assignUserToRoadmap({ params, caller }) {
      const row = await claim(db, caller.id, params.id, deps.roadmapTests);
      return created({ data: await summaryOf(db, row) });
    },

    async submitTask({ params, body, caller }) {
      await submit(db, caller.id, params.id, params.taskId, body.url);
      return ok({ data: { ok: true }, message: 'Task submitted.' });
    },

    async resourceByShortId({ params }) {
      const [row] = await db
        .select({
          id: resources.id,
          url: resources.url,
          actualTitle: resources.actualTitle,
          type: resources.type,
        })
        .from(resources)
        .where(eq(resources.shortId, params.shortId))
        .orderBy(asc(resources.createdAt))
        .limit(1);
      if (!row) throw notFound(CATALOGUE_MESSAGES.resourceNotFound);
      return ok({ data: { _id: row.id, url: row.url, actualTitle: row.actualTitle, type: row.type } });
    },

    async contactUs({ body, request }) {
      const text = [
        `From: ${body.name} <${body.email}>`,
        `Subject: ${headerLine(body.subject, 200)}`,
        '',
        body.message,
        '',
        '— sent through the contact form of Waymark',
      ].join('\n');
      try {
        await mail.send({
          to: config.supportEmail,
          subject: headerLine(`Contact: ${body.subject}`),
          text,
          replyTo: body.email,
          kind: 'contact',
        });
      } catch (err) {
        app.log.error({ err }, 'contact message could not be queued');
        throw new HttpError(
          503,
          `Your message could not be sent right now. Please try again in a few minutes, or write to ${config.supportEmail}.`,
        );
      }
      return ok({
        data: { ok: true },
        message: requestTranslator(request).t('contact.thanks'),
      });
    },
  });
}
