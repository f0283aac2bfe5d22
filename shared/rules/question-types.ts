/**
 * Waymark's six question types in one table (mentor §3): how each is named on screen, what kind of answer
 * it takes (one option, several options, or typed text) and what its options are (text or images). The
 * question-file readers choose a type from these two facts, and the writers read them back.
 */
import type { QuestionType } from '../schemas/assessment';

export type AnswerKind = 'single' | 'multiple' | 'text';
export type OptionKind = 'text' | 'image';

export interface QuestionTypeInfo {
  label: string;
  answer: AnswerKind;
  option: OptionKind;
  /** Whether the type is about a piece of code (the question carries one). */
  code: boolean;
}

export const QUESTION_TYPE_TABLE: Record<QuestionType, QuestionTypeInfo> = {
  MCQ: { label: 'Single choice', answer: 'single', option: 'text', code: false },
  MSQ: { label: 'Multiple choice', answer: 'multiple', option: 'text', code: false },
  CODE_MCQ: { label: 'Code, single choice', answer: 'single', option: 'text', code: true },
  MCQ_IMAGE: { label: 'Image, single choice', answer: 'single', option: 'image', code: false },
  MSQ_IMAGE: { label: 'Image, multiple choice', answer: 'multiple', option: 'image', code: false },
  FILL_IN_BLANK: { label: 'Fill in the blank', answer: 'text', option: 'text', code: false },
};

/**
 * The type of a question from what a file says of it: its kind of answer, its kind of options, and whether
 * it carries code. A single-answer question with text options and code is CODE_MCQ.
 */
export function questionTypeFor(answer: AnswerKind, option: OptionKind, hasCode: boolean): QuestionType {
  if (answer === 'text') return 'FILL_IN_BLANK';
  if (option === 'image') return answer === 'single' ? 'MCQ_IMAGE' : 'MSQ_IMAGE';
  if (answer === 'multiple') return 'MSQ';
  return hasCode ? 'CODE_MCQ' : 'MCQ';
}

/** Whether a file must say the type outright because questionTypeFor would not find it again. */
export const typeNeedsHint = (type: QuestionType, hasCode: boolean) => {
  const info = QUESTION_TYPE_TABLE[type];
  return questionTypeFor(info.answer, info.option, hasCode) !== type;
};
