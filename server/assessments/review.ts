/**
 * The questions-and-answers review of an evaluated test: the questions in the order the learner saw them,
 * with their correct answers, and the answers given. The learner's GET /testlink/{id}/view and a mentor's
 * view of one of their learners both read it; before evaluation there is nothing to review.
 */
import type { Question, TestView } from '@shared/schemas/assessment';
import { asc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../db/client';
import { conflict } from '../http/errors';
import { loadQuestions } from '../questions/load';
import { linkHooks } from './completion';
import { savedAnswers } from './engine/answers';
import { inFrozenOrder } from './engine/drawing';
import { settle } from './engine/link-life';
import { integrityOfLinks, summaryOf, timelineOf } from './integrity';
import { subjectById, toApiLink } from './queries';
import { questionCounts } from './question-use';
import { testLinkQuestions as frozen, type LinkRow } from './tables';

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
