/**
 * Answer rules of the test taker and of the prerequisite assessment (mentor §4): single-choice types
 * (MCQ, CODE_MCQ, MCQ_IMAGE) replace the answer, multi-select types (MSQ, MSQ_IMAGE) toggle an option in
 * the list, fill-in-blank stores the typed value; a question with no type is an MCQ. What each type takes
 * is read from the question-type table (shared/rules/question-types.ts), as the server scores with it.
 */

import type { MessageKey } from '@shared/i18n/keys';
import { answerKindOf, type MaybeQuestionType } from '@shared/rules/question-types';

/** What the learner gave to one question: an option id, a list of ids, or the typed text. */
export interface GivenAnswer {
  answerId?: string | string[];
  answer?: string;
}
export type AnswerSheet = Record<string, GivenAnswer>;

type TypeOf = MaybeQuestionType;

/** The option ids chosen, whatever the shape of the answer. */
export function chosenIds(given: GivenAnswer | undefined): string[] {
  const ids = given?.answerId;
  if (Array.isArray(ids)) return ids;
  return ids ? [ids] : [];
}

/**
 * The sheet after answering `value` (an option id, or the typed text): a single-choice answer is
 * replaced, a multi-select option toggled, a typed value stored as typed.
 */
export function answer(
  sheet: AnswerSheet,
  question: { _id: string; questionType?: TypeOf },
  value: string,
): AnswerSheet {
  const kind = answerKindOf(question.questionType);
  if (kind === 'text') return { ...sheet, [question._id]: { answer: value } };
  if (kind === 'single') return { ...sheet, [question._id]: { answerId: value } };
  const list = chosenIds(sheet[question._id]);
  const next = list.includes(value) ? list.filter((id) => id !== value) : [...list, value];
  return { ...sheet, [question._id]: { answerId: next } };
}

export function isAnswered(given: GivenAnswer | undefined): boolean {
  if (!given) return false;
  if (chosenIds(given).length > 0) return true;
  return typeof given.answer === 'string' && given.answer.trim().length > 0;
}

export function answeredCount(sheet: AnswerSheet, questions: readonly { _id: string }[]): number {
  return questions.filter((q) => isAnswered(sheet[q._id])).length;
}

/** The Finish dialog's warning when some questions have no answer (a message key). */
export const UNANSWERED_WARNING = 'test.unanswered' satisfies MessageKey;

const PLAIN_NUMBER = /^-?(0|[1-9]\d*)(\.\d*[1-9])?$/;

/**
 * A typed value as it is sent: a number when the text is a number written plainly ('12', '-3.5'),
 * else the text, trimmed. Written plainly, so that what the learner sees after a reload is what they
 * typed ('007' and '1e3' stay text; the server compares numbers as numbers either way).
 */
export function typedValue(text: string): string | number {
  const t = text.trim();
  return PLAIN_NUMBER.test(t) ? Number(t) : t;
}

/** One answer as the API takes it; null when nothing was given to this question. */
export type AnswerPayload =
  | { questionId: string; answerId: string | string[] }
  | { questionId: string; answer: string | number };

export function toPayload(
  question: { _id: string; questionType?: TypeOf },
  given: GivenAnswer | undefined,
): AnswerPayload | null {
  if (!given) return null;
  const kind = answerKindOf(question.questionType);
  if (kind === 'text') {
    return typeof given.answer === 'string'
      ? { questionId: question._id, answer: typedValue(given.answer) }
      : null;
  }
  const ids = chosenIds(given);
  if (kind === 'multiple')
    return given.answerId === undefined ? null : { questionId: question._id, answerId: ids };
  return ids[0] ? { questionId: question._id, answerId: ids[0] } : null;
}

/** Every answer of the sheet as the API takes them, in question order (cleared ones included). */
export function payloads(
  sheet: AnswerSheet,
  questions: readonly { _id: string; questionType?: TypeOf }[],
): AnswerPayload[] {
  return questions.map((q) => toPayload(q, sheet[q._id])).filter((p): p is AnswerPayload => p !== null);
}

/** The sheet from the answers the server holds. */
export function sheetFrom(
  answers: readonly { questionId: string; answerId?: string | string[]; answer?: string | number }[],
): AnswerSheet {
  const sheet: AnswerSheet = {};
  for (const a of answers) {
    if (a.answer !== undefined && a.answer !== null) sheet[a.questionId] = { answer: String(a.answer) };
    else if (a.answerId !== undefined) sheet[a.questionId] = { answerId: a.answerId };
  }
  return sheet;
}
