/**
 * The questions-and-answers review of an evaluated test: the questions in the order the learner saw them,
 * with their correct answers, and the answers given. The learner's GET /testlink/{id}/view and a mentor's
 * view of one of their learners both read it; before evaluation there is nothing to review.
 */
import type { questionFeedback as questionFeedbackCall } from '@shared/contract/assessments';
import type { CallBody } from '@shared/contract/define';
import type { Question, TestView } from '@shared/schemas/assessment';
import { and, asc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../db/client';
import { badRequest, conflict, notFound } from '../http/errors';
import { loadQuestions } from '../questions/load';
import { linkHooks } from './completion';
import { savedAnswers } from './engine/answers';
import { inFrozenOrder } from './engine/drawing';
import { findLink, settle } from './engine/link-life';
import { notYours } from './engine/rules';
import { integrityOfLinks, summaryOf, timelineOf } from './integrity';
import { subjectById, toApiLink } from './queries';
import { questionCounts } from './question-use';
import { testLinkQuestions as frozen, type LinkRow, questionFeedback } from './tables';

/** A link of the learner's by its public id (404 when there is none, 403 when it is another person's). */
async function ownLink(db: Db, linkId: string, userId: string): Promise<LinkRow> {
  const link = await findLink(db, linkId);
  if (!link) throw notFound('errors.testLinkNotFound');
  if (link.userId !== userId) throw notYours();
  return link;
}

/** The learner's review of one of their tests (GET /testlink/{id}/view). */
export async function ownReview(db: Db, linkId: string, userId: string, now: Date, cooldownMs: number) {
  return testReview(db, await ownLink(db, linkId, userId), now, cooldownMs);
}

/** A learner's feedback on a question of one of their evaluated tests, for the question's author. */
export async function giveFeedback(db: Db, userId: string, body: CallBody<typeof questionFeedbackCall>) {
  const link = await ownLink(db, body.testLinkId, userId);
  if (!link.isCompleted) {
    throw conflict('Feedback can be given once the test is evaluated.', { errorCode: 'TEST_NOT_EVALUATED' });
  }
  const [inLink] = await db
    .select({ id: frozen.questionId })
    .from(frozen)
    .where(and(eq(frozen.testLinkId, link.id), eq(frozen.questionId, body.questionId)))
    .limit(1);
  if (!inLink) throw badRequest('questionId: is not a question of this test', 'questionId');
  await db.insert(questionFeedback).values({
    questionId: body.questionId,
    testLinkId: link.id,
    userId,
    feedback: body.feedback,
  });
}

export async function testReview(
  db: Db,
  found: LinkRow,
  now: Date,
  /** RETAKE_COOLDOWN_HOURS, to date the retake of a failed test. */
  cooldownMs: number,
): Promise<z.infer<typeof TestView>> {
  const link = await settle(db, found, now, linkHooks);
  if (!link.isCompleted) {
    throw conflict('The answers can be viewed once the test is evaluated.', {
      errorCode: 'TEST_NOT_EVALUATED',
    });
  }
  const order = await db
    .select({ questionId: frozen.questionId, optionOrder: frozen.optionOrder })
    .from(frozen)
    .where(eq(frozen.testLinkId, link.id))
    .orderBy(asc(frozen.position));
  const optionOrder = new Map(order.map((o) => [o.questionId, o.optionOrder]));
  const questions: Question[] = (
    await loadQuestions(
      db,
      order.map((o) => o.questionId),
      questionCounts,
    )
  ).map((q) => ({
    ...q,
    options: inFrozenOrder(
      q.options.map((o) => ({ ...o, id: o._id })),
      optionOrder.get(q._id) ?? [],
    ).map(({ id: _id, ...o }) => o),
  }));
  const subject = link.subjectId ? await subjectById(db, link.subjectId) : null;
  const record = (await integrityOfLinks(db, [link], now)).get(link.id);
  return {
    ...toApiLink(link, subject?.name ?? null, summaryOf(record), cooldownMs),
    questions,
    answers: await savedAnswers(db, link.id),
    timeline: timelineOf(record),
  };
}
