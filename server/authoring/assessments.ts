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
import { inTx } from '../db/helpers';
import { tenantUsers, users } from '../db/schema';
import { badRequest, conflict } from '../http/errors';
import { type Caller, ok, serve } from '../http/routes';
import { recordAudit } from '../integrations/core/audit';
import { loadQuestions, type QuestionCounts } from '../questions/load';
import { questions } from '../questions/tables';
import { appendToAssessment, ownedAssessment, readableQuestion } from './access';
import { tenantAssessmentQuestions, tenantAssessments } from './tables';

/**
 * The questions of an assessment: published ones only, in order. The builder, the list's count, sharing and
 * the pools all read this, so the share dialog and the server count the same questions (decision 010).
 */
export async function publishedQuestionIds(db: Db, assessmentId: string) {
  const rows = await db
    .select({ id: tenantAssessmentQuestions.questionId })
    .from(tenantAssessmentQuestions)
    .innerJoin(questions, eq(questions.id, tenantAssessmentQuestions.questionId))
    .where(and(eq(tenantAssessmentQuestions.assessmentId, assessmentId), eq(questions.status, 'PUBLISH')))
    .orderBy(asc(tenantAssessmentQuestions.position), asc(tenantAssessmentQuestions.addedAt));
  return rows.map((r) => r.id);
}

/**
 * A CUSTOM-TEST link per learner with the assessment's questions frozen in it (options shuffled), open from
 * `start` for `durationHours`: two statements for any number of learners.
 */
export async function insertCustomLinks<L extends { id: string }>(
  tx: Db,
  a: { id: string; name: string },
  learners: readonly L[],
  usable: readonly { _id: string; options: { _id: string }[] }[],
  start: Date,
  durationHours: number,
): Promise<{ learner: L; linkId: string }[]> {
  const end = new Date(start.getTime() + durationHours * 3600_000);
  const planned = learners.map((learner) => ({ learner, linkId: newLinkId() }));
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
        timeLimitMinutes: durationHours * 60,
        startTime: start,
        durationHours,
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
  return planned;
}

/**
 * A learner's own test of a tenant's assessment, opened from outside (an LTI link): their open CUSTOM-TEST
 * link of it when one is still takeable, else a new one from now for `durationHours`. Null when the
 * assessment is not the tenant's or has too few questions to be taken.
 */
export async function customTestFor(
  db: Db,
  questionCounts: QuestionCounts,
  tenantId: string,
  assessmentId: string,
  learnerId: string,
  now: Date,
  durationHours: number,
) {
  const [a] = await db.select().from(tenantAssessments).where(eq(tenantAssessments.id, assessmentId)).limit(1);
  if (!a || a.tenantId !== tenantId) return null;
  const [open] = await db
    .select()
    .from(testLinks)
    .where(
      and(
        eq(testLinks.tenantAssessmentId, a.id),
        eq(testLinks.userId, learnerId),
        eq(testLinks.isCompleted, false),
        eq(testLinks.status, 'TAKE_TEST'),
        sql`${testLinks.expiresAt} > ${now}`,
      ),
    )
    .orderBy(desc(testLinks.createdAt))
    .limit(1);
  if (open) return open;
  const usable = await loadQuestions(db, await publishedQuestionIds(db, a.id), questionCounts);
  if (usable.length < MIN_QUESTIONS_TO_SHARE) return null;
  const [made] = await inTx(db, (tx) => insertCustomLinks(tx, a, [{ id: learnerId }], usable, now, durationHours));
  const [row] = await db.select().from(testLinks).where(eq(testLinks.linkId, made!.linkId)).limit(1);
  return row!;
}

export function tenantAssessmentRoutes(
  app: FastifyInstance,
  deps: { db: Db; config: Config; mail: MailService; questionCounts: QuestionCounts },
) {
  const { db, config, mail, questionCounts } = deps;

  const assessmentQuestionIds = (assessmentId: string) => publishedQuestionIds(db, assessmentId);

  /** Takes a question out of an assessment (the question itself stays in the bank), in the activity log. */
  async function removeFromAssessment(a: { id: string; name: string }, questionId: string, caller: Caller) {
    await inTx(db, async (tx) => {
      const gone = await tx
        .delete(tenantAssessmentQuestions)
        .where(
          and(
            eq(tenantAssessmentQuestions.assessmentId, a.id),
            eq(tenantAssessmentQuestions.questionId, questionId),
          ),
        )
        .returning({ id: tenantAssessmentQuestions.questionId });
      if (gone.length) await assessmentChanged(tx, caller, a, 'assessment.question_removed', { questionId });
    });
  }

  /** An assessment's change in the tenant's activity log (decision 039). */
  const assessmentChanged = (
    tx: Db,
    caller: Caller,
    a: { id: string; name: string },
    action: string,
    details: Record<string, unknown> = {},
  ) =>
    recordAudit(tx, caller.actor, {
      tenantId: caller.id,
      action,
      target: { kind: 'assessment', id: a.id },
      summary: {
        'assessment.created': `Assessment “${a.name}” created`,
        'assessment.shared': `Assessment “${a.name}” shared with ${details.learners} learner(s)`,
        'assessment.question_added': `A question added to the assessment “${a.name}”`,
        'assessment.question_removed': `A question removed from the assessment “${a.name}”`,
      }[action]!,
      details,
    });

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
      const row = await inTx(db, async (tx) => {
        const [made] = await tx
          .insert(tenantAssessments)
          .values({ tenantId: caller.id, name: body.name })
          .returning({ id: tenantAssessments.id, name: tenantAssessments.name });
        await assessmentChanged(tx, caller, made!, 'assessment.created');
        return made!;
      });
      return ok({ data: { _id: row.id } });
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
      // every learner's link and its frozen questions in two statements (made at share time, so that a
      // start on the day is one cheap update: issue 15)
      const created = await db.transaction(async (tx) => {
        const planned = await insertCustomLinks(tx, a, seats, usable, start, body.duration);
        await assessmentChanged(tx, caller, a, 'assessment.shared', {
          learners: planned.length,
          emails: planned.map((p) => p.learner.email),
          startTime: start.toISOString(),
          durationHours: body.duration,
          force: Boolean(body.force),
        });
        return planned.map(({ learner, linkId }) => ({ linkId, email: learner.email, name: learner.name }));
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
      const q = await readableQuestion(db, params.questionId, caller, questionCounts);
      if (q.status !== 'PUBLISH') throw badRequest(editorMessages.saveBeforeAdding, 'questionId');
      await inTx(db, async (tx) => {
        if (await appendToAssessment(tx, a.id, params.questionId))
          await assessmentChanged(tx, caller, a, 'assessment.question_added', {
            questionId: params.questionId,
          });
      });
      return ok({ data: { ok: true } });
    },

    async removeAssessmentQuestion({ params, caller }) {
      const a = await ownedAssessment(db, params.assessmentId, caller);
      await removeFromAssessment(a, params.questionId, caller);
      return ok({ data: { ok: true } });
    },

    // the same removal, addressed by the question (PUT /tenant/question/{id} with the assessment in the body)
    async tenantQuestionRemove({ params, body, caller }) {
      const a = await ownedAssessment(db, body.assessmentId, caller);
      await removeFromAssessment(a, params.id, caller);
      return ok({ data: { ok: true } });
    },
  });
}
