/**
 * The right and wrong answers of the demo question bank (server/demo/subjects/), for specs
 * that take tests through the API or the test page. A question is found by its text, then its code and its
 * options (several code questions share their text, 'What does this print?').
 */
import type { Locator, Page } from '@playwright/test';
import { DEMO_QUESTIONS } from '../../server/demo/subjects';
import type { DemoQuestion } from '../../server/demo/types';
import type { Client } from '../../shared/client/client';
import { evaluateTest, verifyTestLink } from '../../shared/contract/assessments';
import { attemptHeaders, newAttemptToken } from '../../shared/rules/attempt-token';
import type { Answer, TakerQuestion } from '../../shared/schemas/assessment';

export type { DemoQuestion };
export type AnswerMode = 'right' | 'wrong';

/** What the test page or the API shows of a question (the taker's view). */
export interface ShownQuestion {
  question: string;
  questionType?: string;
  code?: string | null;
  /** The values offered (choice questions); none for fill-in-blank. */
  options?: readonly { value: string }[];
}

/** The typed answer to a fill-in-blank question that no demo question accepts. */
export const WRONG_TEXT = 'certainly not this';

const typeOf = (d: DemoQuestion) => d.type ?? 'MCQ';

/** The demo question shown, or null when the bank does not have it (a mentor's own question). */
export function demoQuestion(shown: ShownQuestion): DemoQuestion | null {
  let found = DEMO_QUESTIONS.filter((d) => d.q === shown.question);
  if (shown.questionType) found = found.filter((d) => typeOf(d) === shown.questionType);
  // the page may lay the code out with other white space
  const plain = (code: string | null | undefined) => code?.replace(/\s+/g, ' ').trim() || null;
  if (shown.code !== undefined) found = found.filter((d) => plain(d.code) === plain(shown.code));
  if (shown.options?.length) {
    const offered = [...new Set(shown.options.map((o) => o.value))].sort();
    found = found.filter(
      (d) => JSON.stringify([...(d.right ?? []), ...(d.wrong ?? [])].sort()) === JSON.stringify(offered),
    );
  }
  if (found.length > 1)
    throw new Error(`the demo bank has ${found.length} questions like "${shown.question}"`);
  return found[0] ?? null;
}

/** The values a learner picks (choice questions: every right one, or one wrong one) or types (fill-in-blank). */
export function answerValues(known: DemoQuestion, mode: AnswerMode): string[] {
  if (typeOf(known) === 'FILL_IN_BLANK') return [mode === 'right' ? known.accept![0]! : WRONG_TEXT];
  return mode === 'right' ? known.right! : known.wrong!.slice(0, 1);
}

type Asked = Pick<TakerQuestion, '_id' | 'question' | 'questionType' | 'code' | 'options'>;

/** The API's answer to a question, right or wrong; null when the bank does not know the question. */
export function answerTo(q: Asked, mode: AnswerMode): Answer | null {
  const known = demoQuestion(q);
  if (!known) return null;
  const values = answerValues(known, mode);
  if (q.questionType === 'FILL_IN_BLANK') return { questionId: q._id, answer: values[0]! };
  const ids = q.options.filter((o) => values.includes(o.value)).map((o) => o._id);
  if (ids.length !== values.length) throw new Error(`the options of "${q.question}" are not the bank's`);
  return { questionId: q._id, answerId: q.questionType.startsWith('MSQ') ? ids : ids[0]! };
}

/** The answers to the questions the bank knows. */
export const answersTo = (questions: readonly Asked[], mode: AnswerMode): Answer[] =>
  questions.map((q) => answerTo(q, mode)).filter((a) => a !== null);

/**
 * Starts a test link and submits right or wrong answers to every question the bank knows (but the last
 * `leaveOut` questions, left unanswered); the questions, the answers and the evaluation.
 */
export async function takeTest(
  api: Client,
  linkId: string,
  mode: AnswerMode,
  opts: { leaveOut?: number } = {},
) {
  // the attempt's token, as the test page makes it at Start (decision 031)
  const headers = attemptHeaders(newAttemptToken());
  const questions = (await api.call(verifyTestLink, { params: { id: linkId }, headers })).data.questions
    .questions;
  const answers = answersTo(questions.slice(0, questions.length - (opts.leaveOut ?? 0)), mode);
  const result = (await api.call(evaluateTest, { body: { linkId, answers }, headers })).data;
  return { questions, answers, result };
}

/** The demo question shown now by the test page or a <wm-test-taker> (`root`), by its text and code. */
export async function currentQuestion(root: Page | Locator): Promise<DemoQuestion> {
  const text = (await root.locator('.wm-question-text').textContent())?.trim() ?? '';
  const code = root.locator('pre.wm-code');
  const q = demoQuestion({ question: text, code: (await code.count()) ? await code.textContent() : null });
  if (!q) throw new Error(`not a demo question: ${text}`);
  return q;
}

/** Answers the question shown in `root`, right or wrong, the way a learner would. */
export async function answerShown(root: Page | Locator, mode: AnswerMode = 'right') {
  const q = await currentQuestion(root);
  const type = q.type ?? 'MCQ';
  const values = answerValues(q, mode);
  if (type === 'FILL_IN_BLANK') {
    await root.getByRole('textbox', { name: 'Your answer' }).fill(values[0]!);
    return q;
  }
  const multi = type === 'MSQ' || type === 'MSQ_IMAGE';
  const role = multi ? 'checkbox' : 'radio';
  for (const value of values) {
    const control = type.endsWith('_IMAGE')
      ? root.locator(`label.wm-option:has(img[src="${value}"])`).getByRole(role)
      : root.getByRole(role, { name: value, exact: true });
    await control.check();
  }
  return q;
}
