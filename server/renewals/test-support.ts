/**
 * Shortcuts for the end-to-end tests of item analysis and expiring certificates (issue 30), registered only
 * when NODE_ENV=test (never in development or production; see renewalRoutes), as
 * server/assessments/test-support.ts is: a browser test cannot wait for a quarter hour to open a shared
 * assessment, nor for a year to pass.
 *
 *   PUT /api/test-support/assessment/{assessmentId}/open
 *     The assessment's tenant opens its shared tests now (their window starts a minute ago; tests started
 *     already are left alone).
 *   PUT /api/test-support/certificate/{linkId}/age?days=N
 *     The certificate's learner makes it N days older: the test's start and evaluation move back N days, and
 *     the assessment's validity periods at least as far, so the period it was earned under still applies.
 *     Its signed credential and its reminder are dropped, to be made again from the new dates.
 */
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { findLink } from '../assessments/engine/link-life';
import { testLinks } from '../assessments/tables';
import { ownedAssessment } from '../authoring/access';
import { awardExpiries, awardValidityPeriods } from '../awards/tables';
import { credentials } from '../credentials/tables';
import type { Db } from '../db/client';
import { inTx } from '../db/helpers';
import { badRequest, forbidden, notFound } from '../http/errors';
import { API_PREFIX } from '../http/routes';

export function renewalTestSupport(app: FastifyInstance, deps: { db: Db }) {
  const { db } = deps;
  app.put<{ Params: { assessmentId: string } }>(
    `${API_PREFIX}/test-support/assessment/:assessmentId/open`,
    async (request) => {
      const caller = await app.authenticate(request);
      const a = await ownedAssessment(db, request.params.assessmentId, caller);
      const opened = await db
        .update(testLinks)
        .set({ startTime: new Date(Date.now() - 60_000) })
        .where(and(eq(testLinks.tenantAssessmentId, a.id), isNull(testLinks.startedAt)))
        .returning({ id: testLinks.id });
      return { data: { opened: opened.length } };
    },
  );
  app.put<{ Params: { linkId: string }; Querystring: { days?: string } }>(
    `${API_PREFIX}/test-support/certificate/:linkId/age`,
    async (request) => {
      const caller = await app.authenticate(request);
      const days = Number(request.query.days);
      if (!Number.isInteger(days) || days < 1 || days > 3650) throw badRequest('days: 1 to 3650', 'days');
      const link = await findLink(db, request.params.linkId);
      if (!link?.isCompleted) throw notFound('There is no award with this id.');
      if (link.userId !== caller.id) throw forbidden('This award belongs to another person.');
      const back = sql`make_interval(days => ${days})`;
      await inTx(db, async (tx) => {
        await tx
          .update(testLinks)
          .set({
            createdAt: sql`${testLinks.createdAt} - ${back}`,
            startedAt: sql`${testLinks.startedAt} - ${back}`,
            completedAt: sql`${testLinks.completedAt} - ${back}`,
          })
          .where(eq(testLinks.id, link.id));
        if (link.testKey) {
          await tx
            .update(awardValidityPeriods)
            .set({ effectiveFrom: sql`${awardValidityPeriods.effectiveFrom} - ${back}` })
            .where(eq(awardValidityPeriods.testKey, link.testKey));
        }
        await tx.delete(credentials).where(eq(credentials.awardId, link.linkId));
        await tx.delete(awardExpiries).where(eq(awardExpiries.awardId, link.linkId));
      });
      return { data: { ok: true } };
    },
  );
}
