/**
 * A tenant's own assessments (mentor §5), the builder's service: the list, creating one, its questions
 * (added from the bank, removed, grouped into pools) and sharing it with the tenant's learners — a test link
 * per learner with its questions frozen at share time, and an e-mail each. The calls are served by
 * assessments.ts.
 */

import type { assignAssessmentUsers } from '@shared/contract/authoring';
import type { CallBody } from '@shared/contract/define';
import type { Question } from '@shared/schemas/assessment';
import { editorMessages, MIN_QUESTIONS_TO_SHARE } from '@shared/schemas/authoring';
import type { AuditAction } from '@shared/schemas/integrations';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { MailService } from '../adapters/mail';
import { poolsOfQuestions } from '../assessments/pools';
import { testLinks } from '../assessments/tables';
import type { Db } from '../db/client';
import { inTx } from '../db/helpers';
import { tenantUsers, users } from '../db/schema';
import { badRequest, conflict } from '../http/errors';
import type { Caller } from '../http/routes';
import { recordAudit } from '../integrations/core/audit';
import { mailTime, translatorFor } from '../lib/i18n';
import { loadQuestions, type QuestionCounts } from '../questions/load';
import { questions } from '../questions/tables';
import {
  appendToAssessment,
  createCustomLinks,
  ownedAssessment,
  publishedQuestionIds,
  readableQuestion,
} from './access';
import { tenantAssessmentQuestions, tenantAssessments } from './tables';

/** What the builder works with. */
export interface Builder {
  db: Db;
  mail: MailService;
  /** The portal's address, for the links an e-mail carries. */
  publicUrl: string;
  /** How often the bank's questions were drawn, and their feedback: the assessments'. */
  questionCounts: QuestionCounts;
}

type Share = CallBody<typeof assignAssessmentUsers>;

/** The tenant's assessments, newest first, with their published questions counted. */
export async function assessmentsOf(db: Db, caller: Caller) {
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
  return rows.map((r) => ({
    _id: r.a.id,
    name: r.a.name,
    tenantId: { _id: caller.id, name: tenantName },
    createdAt: r.a.createdAt.toISOString(),
    questionCount: Number(r.n),
  }));
}

/** An assessment's change in the tenant's activity log (decision 039), in the change's transaction. */
const assessmentChanged = (
  tx: Db,
  caller: Caller,
  a: { id: string; name: string },
  action: Extract<AuditAction, `assessment.${string}`>,
  details: Record<string, unknown> = {},
) =>
  recordAudit(tx, caller.actor, {
    tenantId: caller.id,
    action,
    target: { kind: 'assessment', id: a.id },
    summary: {
      'assessment.created': `Assessment “${a.name}” created`,
      'assessment.shared': `Assessment “${a.name}” shared with ${details.learners} ${details.learners === 1 ? 'learner' : 'learners'}`,
      'assessment.question_added': `A question added to the assessment “${a.name}”`,
      'assessment.question_removed': `A question removed from the assessment “${a.name}”`,
    }[action]!,
    // the name the portal says the entry with, in the reader's language
    details: { name: a.name, ...details },
  });

/** A new assessment of the tenant's, in the activity log; its id. */
export async function createAssessment(db: Db, caller: Caller, name: string): Promise<string> {
  return inTx(db, async (tx) => {
    const [made] = await tx
      .insert(tenantAssessments)
      .values({ tenantId: caller.id, name })
      .returning({ id: tenantAssessments.id, name: tenantAssessments.name });
    await assessmentChanged(tx, caller, made!, 'assessment.created');
    return made!.id;
  });
}

/** One of the tenant's assessments with its questions as the builder shows them. */
export async function assessmentOf(b: Builder, id: string, caller: Caller) {
  const a = await ownedAssessment(b.db, id, caller);
  const ids = await publishedQuestionIds(b.db, a.id);
  return {
    _id: a.id,
    name: a.name,
    tenantId: { _id: caller.id, name: caller.user.name ?? caller.user.email },
    createdAt: a.createdAt.toISOString(),
    questions: await loadQuestions(b.db, ids, b.questionCounts),
  };
}

/** The pools the assessment's questions belong to, measured against what a test draws (decision 010). */
export async function poolsOfAssessment(db: Db, id: string, caller: Caller) {
  const a = await ownedAssessment(db, id, caller);
  return poolsOfQuestions(db, await publishedQuestionIds(db, a.id));
}

/** Adds a published question of the bank after the assessment's last. */
export async function addQuestion(b: Builder, assessmentId: string, questionId: string, caller: Caller) {
  const a = await ownedAssessment(b.db, assessmentId, caller);
  const q = await readableQuestion(b.db, questionId, caller, b.questionCounts);
  if (q.status !== 'PUBLISH') throw badRequest(editorMessages.saveBeforeAdding, 'questionId');
  await inTx(b.db, async (tx) => {
    if (await appendToAssessment(tx, a.id, questionId))
      await assessmentChanged(tx, caller, a, 'assessment.question_added', { questionId });
  });
}

/** Takes a question out of an assessment (the question itself stays in the bank), in the activity log. */
export async function removeQuestion(db: Db, assessmentId: string, questionId: string, caller: Caller) {
  const a = await ownedAssessment(db, assessmentId, caller);
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

// ---------------------------------------------------------------- sharing

/** The learners a share names, each the tenant's and enabled (400 naming `userIds` otherwise). */
async function seatsOf(db: Db, tenantId: string, userIds: string[]) {
  const seats = await db
    .select({ id: users.id, email: users.email, name: users.name, language: users.language })
    .from(tenantUsers)
    .innerJoin(users, eq(users.id, tenantUsers.learnerId))
    .where(
      and(
        eq(tenantUsers.tenantId, tenantId),
        eq(tenantUsers.isDisabled, false),
        inArray(tenantUsers.learnerId, userIds),
      ),
    );
  if (seats.length !== userIds.length)
    throw badRequest('Some of these people are not your learners', 'userIds');
  return seats;
}

/** 409 ALREADY_SHARED when any of these learners has a test of the assessment: a second share is asked for. */
async function refuseSharedAgain(
  db: Db,
  assessmentId: string,
  seats: { id: string; email: string }[],
  userIds: string[],
) {
  const had = await db
    .select({ userId: testLinks.userId, createdAt: sql<Date>`min(${testLinks.createdAt})` })
    .from(testLinks)
    .where(and(eq(testLinks.tenantAssessmentId, assessmentId), inArray(testLinks.userId, userIds)))
    .groupBy(testLinks.userId);
  if (!had.length) return;
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

/**
 * Every learner's link and its frozen questions in two statements (made at share time, so that a start on
 * the day is one cheap update: issue 15).
 */
async function makeLinks(
  db: Db,
  caller: Caller,
  assessment: { id: string; name: string },
  seats: { id: string; email: string; name: string | null; language: string }[],
  usable: Question[],
  share: Share,
) {
  const start = new Date(share.startTime);
  return db.transaction(async (tx) => {
    const links = await createCustomLinks(tx, {
      assessment,
      questions: usable.map((q) => ({ id: q._id, optionIds: q.options.map((o) => o._id) })),
      learnerIds: seats.map((s) => s.id),
      start,
      durationHours: share.duration,
      timeLimitMinutes: share.duration * 60,
    });
    const linkOf = new Map(links.map((l) => [l.userId, l.linkId]));
    const planned = seats.map((learner) => ({ learner, linkId: linkOf.get(learner.id)! }));
    await assessmentChanged(tx, caller, assessment, 'assessment.shared', {
      learners: planned.length,
      emails: planned.map((p) => p.learner.email),
      startTime: start.toISOString(),
      durationHours: share.duration,
      force: Boolean(share.force),
    });
    return planned.map(({ learner, linkId }) => ({
      linkId,
      email: learner.email,
      name: learner.name,
      language: learner.language,
    }));
  });
}

/**
 * Shares an assessment with some of the tenant's learners: a test link each, opening at the share's start
 * for its duration, and an e-mail each. A learner who has a test of it already is refused unless `force`.
 */
export async function shareAssessment(b: Builder, id: string, share: Share, caller: Caller) {
  const { db } = b;
  const a = await ownedAssessment(db, id, caller);
  const usable = await loadQuestions(db, await publishedQuestionIds(db, a.id), b.questionCounts);
  if (usable.length < MIN_QUESTIONS_TO_SHARE)
    throw badRequest(editorMessages.minQuestionsToShare, 'questions');
  if (share.startTime < Date.now() - 60_000)
    throw badRequest('The start time cannot be in the past', 'startTime');
  const userIds = [...new Set(share.userIds)];
  const seats = await seatsOf(db, caller.id, userIds);
  // a second share gives a second test and e-mail: only when asked for
  if (!share.force) await refuseSharedAgain(db, a.id, seats, userIds);
  const created = await makeLinks(db, caller, a, seats, usable, share);
  for (const c of created) {
    // in the learner's own language (decision 040)
    const { t, locale } = translatorFor(c.language);
    await b.mail
      .send({
        to: c.email,
        kind: 'custom-test',
        subject: t('mail.customTest.subject', { name: a.name }),
        text: t('mail.customTest.text', {
          learner: c.name ?? '',
          mentor: caller.user.name ?? t('mail.yourMentor'),
          name: a.name,
          when: mailTime(new Date(share.startTime), locale),
          hours: share.duration,
          url: `${b.publicUrl}/test/${c.linkId}`,
        }),
      })
      .catch(() => undefined);
  }
  return { created: created.length, linkIds: created.map((c) => c.linkId) };
}

/**
 * A learner's own test of a tenant's assessment, opened from outside (an LTI link, decision 044): their open
 * CUSTOM-TEST link of it when one is still takeable, else a new one from now for `durationHours`. Null when
 * the assessment is not the tenant's or has too few questions to be taken.
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
  const [a] = await db
    .select()
    .from(tenantAssessments)
    .where(eq(tenantAssessments.id, assessmentId))
    .limit(1);
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
  const [made] = await inTx(db, (tx) =>
    createCustomLinks(tx, {
      assessment: a,
      questions: usable.map((q) => ({ id: q._id, optionIds: q.options.map((o) => o._id) })),
      learnerIds: [learnerId],
      start: now,
      durationHours,
      timeLimitMinutes: durationHours * 60,
    }),
  );
  const [row] = await db.select().from(testLinks).where(eq(testLinks.linkId, made!.linkId)).limit(1);
  return row!;
}
