/**
 * What the tests know of the bank's questions: how often each was drawn into a test, and the feedback test
 * takers left on it. The bank's loader (server/questions/load.ts) shows these counts to authors.
 */
import { count, inArray } from 'drizzle-orm';
import type { QuestionCounts } from '../questions/load';
import { questionFeedback, testLinkQuestions } from './tables';

export const questionCounts: QuestionCounts = async (db, ids) => {
  const [feedback, uses] = await Promise.all([
    db
      .select({ questionId: questionFeedback.questionId, n: count() })
      .from(questionFeedback)
      .where(inArray(questionFeedback.questionId, ids))
      .groupBy(questionFeedback.questionId),
    db
      .select({ questionId: testLinkQuestions.questionId, n: count() })
      .from(testLinkQuestions)
      .where(inArray(testLinkQuestions.questionId, ids))
      .groupBy(testLinkQuestions.questionId),
  ]);
  return {
    uses: new Map(uses.map((u) => [u.questionId, Number(u.n)])),
    feedback: new Map(feedback.map((f) => [f.questionId, Number(f.n)])),
  };
};
