/**
 * A tenant's own assessments (mentor §5): the list, creating one, its questions (added from the bank,
 * removed, grouped into pools) and sharing it with the tenant's learners — a test link per learner with its
 * questions frozen at share time, and an e-mail each.
 */
import {
  addAssessmentQuestion,
  assessmentList,
  assessmentQuestionPools,
  assignAssessmentUsers,
  createAssessment,
  getAssessment,
  removeAssessmentQuestion,
  tenantQuestionRemove,
} from '@shared/contract/authoring';
import { editorMessages, MIN_QUESTIONS_TO_SHARE } from '@shared/schemas/authoring';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { MailService } from '../adapters/mail';
import { poolsOfQuestions } from '../assessments/pools';
import { questionCounts } from '../assessments/question-use';
import { testLinks } from '../assessments/tables';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { tenantUsers, users } from '../db/schema';
import { badRequest, conflict } from '../http/errors';
import { ok, serve } from '../http/routes';
import { loadQuestions } from '../questions/load';
import { questions } from '../questions/tables';
import {
  appendToAssessment,
  createCustomLinks,
  ownedAssessment,
  publishedQuestionIds,
  readableQuestion,
} from './access';
import { tenantAssessmentQuestions, tenantAssessments } from './tables';

export function tenantAssessmentRoutes(
  app: FastifyInstance,
  deps: { db: Db; config: Config; mail: MailService },
) {
  const { db, config, mail } = deps;

  const assessmentQuestionIds = (assessmentId: string) => publishedQuestionIds(db, assessmentId);

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

  serve(
    app,
    {
      assessmentList,
      createAssessment,
      getAssessment,
      assessmentQuestionPools,
      assignAssessmentUsers,
      addAssessmentQuestion,
      removeAssessmentQuestion,
      tenantQuestionRemove,
    },
    {
      async assessmentList({ caller }) {
        const rows = await db
          .select({
            a: tenantAssessments,
            // published questions only, as the builder shows and sharing counts
            n: sql<number>`count(${questions.id})::int`,
          })
          .from(tenantAssessments)
          .leftJoin(
            tenantAssessmentQuestions,
            eq(tenantAssessmentQuestions.assessmentId, tenantAssessments.id),
          )
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
          .select({ id: users.id, email: users.email, name: users.name })
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
        const _end = new Date(body.startTime + body.duration * 3600_000);
        // every learner's link and its frozen questions in two statements (made at share time, so that a
        // start on the day is one cheap update: issue 15)
        const created = await db.transaction(async (tx) => {
          const links = await createCustomLinks(tx, {
            assessment: a,
            questions: usable.map((q) => ({ id: q._id, optionIds: q.options.map((o) => o._id) })),
            learnerIds: seats.map((s) => s.id),
            start,
            durationHours: body.duration,
            timeLimitMinutes: body.duration * 60,
          });
          const linkOf = new Map(links.map((l) => [l.userId, l.linkId]));
          return seats.map((learner) => ({
            linkId: linkOf.get(learner.id)!,
            email: learner.email,
            name: learner.name,
          }));
        });
        const when = start.toUTCString();
        for (const c of created) {
          const url = `${config.publicUrl}/test/${c.linkId}`;
          await mail
            .send({
              to: c.email,
              kind: 'custom-test',
              subject: `New assessment: ${a.name}`,
              text: `Hello ${c.name ?? ''},\n\n${caller.user.name ?? 'Your mentor'} has shared the assessment "${a.name}" with you.\nIt opens at ${when} for ${body.duration} hour(s).\n\nTake it here: ${url}\n\nWaymark`,
            })
            .catch(() => undefined);
        }
        return ok({ data: { created: created.length, linkIds: created.map((c) => c.linkId) } });
      },

      async addAssessmentQuestion({ params, caller }) {
        const a = await ownedAssessment(db, params.assessmentId, caller);
        const q = await readableQuestion(db, params.questionId, caller);
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
    },
  );
}
