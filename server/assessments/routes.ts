/**
 * The test-link calls of shared/contract/assessments.ts and the prerequisite assessment's of
 * shared/contract/catalogue.ts, each a call to the assessments' services: creating and listing a learner's
 * links (links.ts), taking a test by its link id (taking.ts: the hot calls are `hot`, decision 025), the
 * answers view and question feedback (review.ts), the prerequisite assessment (initial.ts).
 */
import { assessmentsRouter } from '@shared/contract/assessments';
import { initialAssessmentRouter } from '@shared/contract/catalogue';
import type { FastifyInstance } from 'fastify';
import type { MailService } from '../adapters/mail';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { hot, ok, serve } from '../http/routes';
import {
  evaluateInitialAssessment,
  generateInitialAssessment as generateInitial,
  readInitialAssessment,
} from './initial';
import { createTestLink, learnerLinks, resourceTestLink } from './links';
import { giveFeedback, ownReview } from './review';
import {
  type AwardIssuer,
  answer,
  evaluate,
  readyPage,
  recordActivity,
  startTest,
  type Taking,
} from './taking';
import { testSupportRoutes } from './test-support';

export interface AssessmentDeps {
  db: Db;
  config: Config;
  mail: MailService;
  credentials: AwardIssuer;
  /** The server's clock (tests move it). */
  now?: () => Date;
}

export function assessmentRoutes(app: FastifyInstance, deps: AssessmentDeps) {
  const { db, config, mail } = deps;
  const clock = () => (deps.now ? deps.now() : new Date());
  const cooldownMs = config.retakeCooldownMs;
  const taking: Taking = { db, credentials: deps.credentials, cooldownMs, clock };

  // the prerequisite (initial) assessment of a roadmap (server/assessments/initial.ts)
  serve(app, initialAssessmentRouter, {
    async generateInitialAssessment({ params, caller }) {
      return ok({ data: { linkId: await generateInitial(db, params.id, caller) } });
    },
    async initialAssessment({ params, caller }) {
      return ok({ data: await readInitialAssessment(db, params.linkId, caller) });
    },
    async evaluateAndCreateRoadmap({ body, caller }) {
      return ok({ data: await evaluateInitialAssessment(db, body, caller, clock()) });
    },
  });

  serve(app, assessmentsRouter, {
    async createTestLink({ body, caller }) {
      const link = await createTestLink(db, caller.id, body, clock(), cooldownMs);
      return ok({ data: { testLinkId: link.linkId } });
    },
    async generateResourceTestLink({ params, query, caller }) {
      const by = query.send === 'email' ? { service: mail, publicUrl: config.publicUrl } : undefined;
      const { link, emailed } = await resourceTestLink(db, caller.user, params.id, clock(), cooldownMs, by);
      return ok({ data: { testLinkId: link.linkId, emailed } });
    },
    async testLinkList({ query, caller }) {
      return ok({ data: await learnerLinks(db, caller.id, query.assignedRoadmapId, clock(), cooldownMs) });
    },
    // the hot calls of a test in progress: the caller as the token claims it, read only when needed
    testLinkQuestions: hot(async ({ params, query, headers, claimed, caller }) =>
      ok({
        data: await readyPage(
          taking,
          params.id,
          headers['x-attempt-token'],
          { claimed, read: caller },
          query.closed,
        ),
      }),
    ),
    verifyTestLink: hot(async ({ params, headers, claimed, caller }) =>
      ok({ data: await startTest(taking, params.id, headers['x-attempt-token'], { claimed, read: caller }) }),
    ),
    saveAnswer: hot(async ({ params, headers, body, claimed, caller }) => {
      await answer(taking, params.id, headers['x-attempt-token'], body, { claimed, read: caller });
      return ok({ data: { ok: true } });
    }),
    async testActivity({ body, headers, caller }) {
      await recordActivity(taking, body, headers['x-attempt-token'], caller);
      return ok({ data: { ok: true } });
    },
    evaluateTest: hot(async ({ body, headers, claimed, caller }) =>
      ok({ data: await evaluate(taking, body, headers['x-attempt-token'], { claimed, read: caller }) }),
    ),
    async viewTestLink({ params, caller }) {
      return ok({ data: await ownReview(db, params.id, caller.id, clock(), cooldownMs) });
    },
    async questionFeedback({ body, caller }) {
      await giveFeedback(db, caller.id, body);
      return ok({ data: { ok: true }, message: 'Thank you for your feedback.' });
    },
  });

  // shortcuts for the end-to-end tests only (server/assessments/test-support.ts)
  if (config.env === 'test') testSupportRoutes(app, deps);
}
