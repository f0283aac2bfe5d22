/**
 * Certificates that expire over HTTP (shared/contract/analysis.ts; decision 037): an assessment's validity
 * period, read and set by its tenant (another tenant's is 404), and a certificate's renewal test for its
 * learner. When the app is ready, the platform's period for subject tests is recorded if it changed.
 */
import { renewalsRouter } from '@shared/contract/analysis';
import { awardKindOf } from '@shared/rules/test-status';
import type { FastifyInstance } from 'fastify';
import { findLink } from '../assessments/engine/link-life';
import { ownedAssessment } from '../authoring/access';
import { earnedAward } from '../awards/info';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { badRequest, conflict, forbidden, notFound } from '../http/errors';
import { ok, serve } from '../http/routes';
import { periodRows, renewFromPage, setPeriod, syncSubjectPeriod } from './renewals';
import { renewalTestSupport } from './test-support';

const keyOf = (assessmentId: string) => `CUSTOM-TEST:${assessmentId}`;

const validityOf = (rows: { months: number | null; from: Date }[]) => ({
  months: rows.length ? rows[rows.length - 1]!.months : null,
  periods: rows.map((r) => ({ months: r.months, from: r.from.toISOString() })),
});

export function renewalRoutes(app: FastifyInstance, deps: { db: Db; config: Config }) {
  const { db, config } = deps;

  app.addHook('onReady', async () => {
    await syncSubjectPeriod(db, config.subjectTestValidityMonths);
  });
  if (config.env === 'test') renewalTestSupport(app, { db });

  serve(app, renewalsRouter, {
    async assessmentValidity({ params, caller }) {
      const a = await ownedAssessment(db, params.assessmentId, caller);
      return ok({ data: validityOf(await periodRows(db, keyOf(a.id))) });
    },

    async setAssessmentValidity({ params, body, caller }) {
      const a = await ownedAssessment(db, params.assessmentId, caller);
      return ok({ data: validityOf(await setPeriod(db, keyOf(a.id), body.months, caller.id)) });
    },

    async renewAward({ params, caller }) {
      const award = await findLink(db, params.id);
      if (!award || !earnedAward(award) || !awardKindOf(award.type))
        throw notFound('There is no award with this id.');
      if (award.userId !== caller.id)
        throw forbidden('Only the learner who earned this certificate can renew it.');
      if (award.type === 'SUBJECT') {
        throw badRequest(
          'A subject certificate is renewed by taking the subject test again (POST /testlink/create).',
          'id',
        );
      }
      if (award.type !== 'CUSTOM-TEST') throw badRequest('This award does not expire.', 'id');
      const renewal = await renewFromPage(db, award, new Date());
      if (!renewal.due) {
        throw conflict(
          renewal.renewed
            ? 'This certificate was renewed already.'
            : 'This certificate is not due for renewal: it can be renewed from 30 days before it expires.',
          { errorCode: renewal.renewed ? 'ALREADY_RENEWED' : 'NOT_DUE' },
        );
      }
      if (!renewal.linkId) {
        throw conflict('The assessment can no longer be taken: ask your mentor for a renewal test.', {
          errorCode: 'NO_RENEWAL_TEST',
        });
      }
      return ok({ data: { testLinkId: renewal.linkId } });
    },
  });
}
