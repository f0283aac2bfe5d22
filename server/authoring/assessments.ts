/**
 * A tenant's own assessments (mentor §5): the list, creating one, its questions (added from the bank,
 * removed, grouped into pools) and sharing it with the tenant's learners — a test link per learner with its
 * questions frozen at share time, and an e-mail each.
 */

import { tenantAssessmentsRouter } from '@shared/contract/authoring';
import { editorMessages, MIN_QUESTIONS_TO_SHARE } from '@shared/schemas/authoring';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { MailService } from '../adapters/mail';
import { newLinkId, shuffle } from '../assessments/engine/drawing';
import { poolsOfQuestions } from '../assessments/pools';
import { testLinkQuestions, testLinks } from '../assessments/tables';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { tenantUsers, users } from '../db/schema';
import { badRequest, conflict } from '../http/errors';
import { ok, serve } from '../http/routes';
import { mailTime, translatorFor } from '../lib/i18n';
import { loadQuestions, type QuestionCounts } from '../questions/load';
import { questions } from '../questions/tables';
import { appendToAssessment, ownedAssessment, readableQuestion } from './access';
import { tenantAssessmentQuestions, tenantAssessments } from './tables';

export function tenantAssessmentRoutes(
  app: FastifyInstance,
  deps: { db: Db; config: Config; mail: MailService; questionCounts: QuestionCounts },
) {
  const { db, config, mail, questionCounts } = deps;

  /**
   * The questions of an assessment: published ones only, in order. The builder, the list's count, sharing and
   * the pools all read this, so the share dialog and the server count the same questions (decision 010).
   */
  async function assessmentQuestionIds(assessmentId: string) {
    const rows = await db
      .select({ id: tenantAssessmentQuestions.questionId })
      .from(tenantAssessmentQuestions)
      .innerJoin(questions, eq(questions.id, tenantAssessmentQuestions.questionId))
      .where(and(eq(tenantAssessmentQuestions.assessmentId, assessmentId), eq(questions.status, 'PUBLISH')))
      .orderBy(asc(tenantAssessmentQuestions.position), asc(tenantAssessmentQuestions.addedAt));
    return rows.map((r) => r.id);
  }

  /** Takes a question out of an assessment (the question itself stays in the bank). */
  async function removeFromAssessment(assessmentId: string, questionId: string) {
    await db
      .delete(tenantAssessmentQuestions)
      .where(
        and(
          eq(tenantAssessmentQuestions.assessmentId, assessmentId),
          eq(tenantAssessmentQuestions.questionId, questionId),
        ),
      );
  }

  serve(app, tenantAssessmentsRouter, {
    async assessmentList({ caller }) {
      const rows = await db
        .select({
          a: tenantAssessments,
          // published questions only, as the builder shows and sharing counts
          n: sql<number>`count(${questions.id})::int`,
        })
        .from(tenantAssessments)
        .leftJoin(tenantAssessmentQuestions, eq(tenantAssessmentQuestions.assessmentId, tenantAssessments.id))
        .leftJoin(
          questions,
          and(eq(questions.id, tenantAssessmentQuestions.questionId), eq(questions.status, 'PUBLISH')),
        )
        .where(eq(tenantAssessments.tenantId, caller.id))
        .groupBy(tenantAssessments.id)
        .orderBy(desc(tenantAssessments.createdAt));
      const tenantName = caller.user.name ?? caller.user.email;
      return ok({
        data: rows.map((r) => ({
          _id: r.a.id,
          name: r.a.name,
          tenantId: { _id: caller.id, name: tenantName },
          createdAt: r.a.createdAt.toISOString(),
          questionCount: Number(r.n),
        })),
      });
    },

    async createAssessment({ body, caller }) {
      const [row] = await db
        .insert(tenantAssessments)
        .values({ tenantId: caller.id, name: body.name })
        .returning({ id: tenantAssessments.id });
      return ok({ data: { _id: row!.id } });
    },

    async getAssessment({ params, caller }) {
      const a = await ownedAssessment(db, params.assessmentId, caller);
      const ids = await assessmentQuestionIds(a.id);
      return ok({
        data: {
          _id: a.id,
          name: a.name,
          tenantId: { _id: caller.id, name: caller.user.name ?? caller.user.email },
          createdAt: a.createdAt.toISOString(),
          questions: await loadQuestions(db, ids, questionCounts),
        },
      });
    },

    async assessmentQuestionPools({ params, caller }) {
      const a = await ownedAssessment(db, params.assessmentId, caller);
      return ok({ data: await poolsOfQuestions(db, await assessmentQuestionIds(a.id)) });
    },

    async assignAssessmentUsers({ params, body, caller }) {
      const a = await ownedAssessment(db, params.id, caller);
      const usable = await loadQuestions(db, await assessmentQuestionIds(a.id), questionCounts);
      if (usable.length < MIN_QUESTIONS_TO_SHARE)
        throw badRequest(editorMessages.minQuestionsToShare, 'questions');
      if (body.startTime < Date.now() - 60_000)
        throw badRequest('The start time cannot be in the past', 'startTime');
      const userIds = [...new Set(body.userIds)];
      const seats = await db
        .select({ id: users.id, email: users.email, name: users.name, language: users.language })
        .from(tenantUsers)
        .innerJoin(users, eq(users.id, tenantUsers.learnerId))
        .where(
          and(
            eq(tenantUsers.tenantId, caller.id),
            eq(tenantUsers.isDisabled, false),
            inArray(tenantUsers.learnerId, userIds),
          ),
        );
      if (seats.length !== userIds.length)
        throw badRequest('Some of these people are not your learners', 'userIds');
      if (!body.force) {
        // a second share gives a second test and e-mail: only when asked for
        const had = await db
          .select({ userId: testLinks.userId, createdAt: sql<Date>`min(${testLinks.createdAt})` })
          .from(testLinks)
          .where(and(eq(testLinks.tenantAssessmentId, a.id), inArray(testLinks.userId, userIds)))
          .groupBy(testLinks.userId);
        if (had.length) {
          const emailOf = new Map(seats.map((s) => [s.id, s.email]));
          const alreadyShared = had
            .map((h) => ({
              _id: h.userId ?? '',
              email: emailOf.get(h.userId ?? '') ?? '',
              sharedAt: new Date(h.createdAt).toISOString(),
            }))
            .sort((x, y) => x.email.localeCompare(y.email));
          const names = alreadyShared.map((l) => l.email);
          throw conflict(
            `${had.length === 1 ? '1 learner already has' : `${had.length} learners already have`} a test of this assessment: ${names.slice(0, 5).join(', ')}${names.length > 5 ? ', …' : ''}. Share again with force to give them another.`,
            { errorCode: 'ALREADY_SHARED', field: 'userIds', alreadyShared },
          );
        }
      }
      const start = new Date(body.startTime);
      const end = new Date(body.startTime + body.duration * 3600_000);
      // every learner's link and its frozen questions in two statements (made at share time, so that a
      // start on the day is one cheap update: issue 15)
      const created = await db.transaction(async (tx) => {
        const planned = seats.map((learner) => ({ learner, linkId: newLinkId() }));
        const links = await tx
          .insert(testLinks)
          .values(
            planned.map(({ learner, linkId }) => ({
              linkId,
              type: 'CUSTOM-TEST' as const,
              userId: learner.id,
              tenantAssessmentId: a.id,
              assignedSubjectName: a.name,
              questionCount: usable.length,
              timeLimitMinutes: body.duration * 60,
              startTime: start,
              durationHours: body.duration,
              expiresAt: end,
            })),
          )
          .returning({ id: testLinks.id, linkId: testLinks.linkId });
        await tx.insert(testLinkQuestions).values(
          links.flatMap((link) =>
            usable.map((q, position) => ({
              testLinkId: link.id,
              questionId: q._id,
              position,
              optionOrder: shuffle(q.options.map((o) => o._id)),
            })),
          ),
        );
        return planned.map(({ learner, linkId }) => ({
          linkId,
          email: learner.email,
          name: learner.name,
          language: learner.language,
        }));
      });
      for (const c of created) {
        // in the learner's own language (decision 040)
        const { t, locale } = translatorFor(c.language);
        await mail
          .send({
            to: c.email,
            kind: 'custom-test',
            subject: t('mail.customTest.subject', { name: a.name }),
            text: t('mail.customTest.text', {
              learner: c.name ?? '',
              mentor: caller.user.name ?? t('mail.yourMentor'),
              name: a.name,
              when: mailTime(start, locale),
              hours: body.duration,
              url: `${config.publicUrl}/test/${c.linkId}`,
            }),
          })
          .catch(() => undefined);
      }
      return ok({ data: { created: created.length, linkIds: created.map((c) => c.linkId) } });
    },

    async addAssessmentQuestion({ params, caller }) {
      const a = await ownedAssessment(db, params.assessmentId, caller);
      const q = await readableQuestion(db, params.questionId, caller, questionCounts);
      if (q.status !== 'PUBLISH') throw badRequest(editorMessages.saveBeforeAdding, 'questionId');
      await appendToAssessment(db, a.id, params.questionId);
      return ok({ data: { ok: true } });
    },

    async removeAssessmentQuestion({ params, caller }) {
      const a = await ownedAssessment(db, params.assessmentId, caller);
      await removeFromAssessment(a.id, params.questionId);
      return ok({ data: { ok: true } });
    },

    // the same removal, addressed by the question (PUT /tenant/question/{id} with the assessment in the body)
    async tenantQuestionRemove({ params, body, caller }) {
      const a = await ownedAssessment(db, body.assessmentId, caller);
      await removeFromAssessment(a.id, params.id);
      return ok({ data: { ok: true } });
    },
  });
}
