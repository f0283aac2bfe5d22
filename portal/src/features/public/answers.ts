/**
 * Answer rules of the prerequisite assessment (mentor §4): single-choice types replace the answer,
 * multi-select types toggle an option in the list, fill-in-blank stores the typed value; a question
 * without a type is an MCQ.
 */
import type { QuestionType } from '@shared/schemas/assessment';

export interface GivenAnswer {
  answerId?: string | string[];
  answer?: string;
}
export type AnswerSheet = Record<string, GivenAnswer>;

export type AnswerKind = 'single' | 'multi' | 'text';

const MULTI_SELECT: readonly QuestionType[] = ['MSQ', 'MSQ_IMAGE'];
const IMAGE_OPTIONS: readonly QuestionType[] = ['MCQ_IMAGE', 'MSQ_IMAGE'];

export function answerKind(type: QuestionType | null | undefined): AnswerKind {
  const t = type ?? 'MCQ';
  if (t === 'FILL_IN_BLANK') return 'text';
  return MULTI_SELECT.includes(t) ? 'multi' : 'single';
}

export const hasImageOptions = (type: QuestionType | null | undefined) =>
  IMAGE_OPTIONS.includes(type ?? 'MCQ');

/** The sheet after answering `value` (an option id, or the typed text) to a question. */
export function answer(
  sheet: AnswerSheet,
  question: { _id: string; questionType?: QuestionType | null },
  value: string,
): AnswerSheet {
  const kind = answerKind(question.questionType);
  if (kind === 'text') return { ...sheet, [question._id]: { answer: value } };
  if (kind === 'single') return { ...sheet, [question._id]: { answerId: value } };
  const current = sheet[question._id]?.answerId;
  const list = Array.isArray(current) ? current : current ? [current] : [];
  const next = list.includes(value) ? list.filter((id) => id !== value) : [...list, value];
  return { ...sheet, [question._id]: { answerId: next } };
}

export function isAnswered(given: GivenAnswer | undefined): boolean {
  if (!given) return false;
  if (Array.isArray(given.answerId)) return given.answerId.length > 0;
  if (given.answerId) return true;
  return typeof given.answer === 'string' && given.answer.trim().length > 0;
}

export function answeredCount(sheet: AnswerSheet, questions: readonly { _id: string }[]): number {
  return questions.filter((q) => isAnswered(sheet[q._id])).length;
}

export const UNANSWERED_WARNING =
  "It seems that you didn't answer for all the questions. Do you want to submit?";

/** The answers as the evaluation call takes them: answered questions only, each with its roadmap. */
export function submission(
  sheet: AnswerSheet,
  questions: readonly { _id: string; roadmapId: string | null; questionType?: QuestionType | null }[],
  fallbackRoadmapId: string,
) {
  return questions
    .filter((q) => isAnswered(sheet[q._id]))
    .map((q) => {
      const given = sheet[q._id]!;
      const roadmapId = q.roadmapId ?? fallbackRoadmapId;
      return answerKind(q.questionType) === 'text'
        ? { questionId: q._id, answer: given.answer!.trim(), roadmapId }
        : { questionId: q._id, answerId: given.answerId!, roadmapId };
    });
}
