/**
 * A tenant's assessments' calls (shared/contract/authoring.ts tenantAssessmentsRouter), each a call to the
 * builder's service (builder.ts).
 */
import { tenantAssessmentsRouter } from '@shared/contract/authoring';
import type { FastifyInstance } from 'fastify';
import type { MailService } from '../adapters/mail';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { ok, serve } from '../http/routes';
import type { QuestionCounts } from '../questions/load';
import {
  addQuestion,
  assessmentOf,
  assessmentsOf,
  type Builder,
  createAssessment,
  poolsOfAssessment,
  removeQuestion,
  shareAssessment,
} from './builder';

export function tenantAssessmentRoutes(
  app: FastifyInstance,
  deps: { db: Db; config: Config; mail: MailService; questionCounts: QuestionCounts },
) {
  const { db, config, mail, questionCounts } = deps;
  const builder: Builder = { db, mail, publicUrl: config.publicUrl, questionCounts };
  serve(app, tenantAssessmentsRouter, {
    assessmentList: async ({ caller }) => ok({ data: await assessmentsOf(db, caller) }),
    createAssessment: async ({ body, caller }) =>
      ok({ data: { _id: await createAssessment(db, caller, body.name) } }),
    getAssessment: async ({ params, caller }) =>
      ok({ data: await assessmentOf(builder, params.assessmentId, caller) }),
    assessmentQuestionPools: async ({ params, caller }) =>
      ok({ data: await poolsOfAssessment(db, params.assessmentId, caller) }),
    assignAssessmentUsers: async ({ params, body, caller }) =>
      ok({ data: await shareAssessment(builder, params.id, body, caller) }),
    async addAssessmentQuestion({ params, caller }) {
      await addQuestion(builder, params.assessmentId, params.questionId, caller);
      return ok({ data: { ok: true } });
    },
    async removeAssessmentQuestion({ params, caller }) {
      await removeQuestion(db, params.assessmentId, params.questionId, caller);
      return ok({ data: { ok: true } });
    },
    // the same removal, addressed by the question (PUT /tenant/question/{id} with the assessment in the body)
    async tenantQuestionRemove({ params, body, caller }) {
      await removeQuestion(db, body.assessmentId, params.id, caller);
      return ok({ data: { ok: true } });
    },
  });
}
