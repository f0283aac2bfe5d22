/**
 * Waymark's six question types in one table (mentor §3, §2.8): how each is named on screen, what kind of
 * answer it takes (one option, several options, or typed text), what its options are (text or images),
 * whether it is about a piece of code, and which types the editor switches it to without losing its
 * options. Everything that asks "what is this type like?" — the schemas, scoring, the editor, the test
 * page, the answers view, the question-file readers and writers, the server — reads this table instead
 * of comparing type names.
 */
import type { MessageKey } from '../i18n/keys';

/** The types, in the order the editor's type rail and the file formats list them. */
export const QUESTION_TYPES = ['MCQ', 'MSQ', 'CODE_MCQ', 'MCQ_IMAGE', 'MSQ_IMAGE', 'FILL_IN_BLANK'] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];
/** A question saved without a type is an MCQ. */
export const DEFAULT_QUESTION_TYPE: QuestionType = 'MCQ';

export type AnswerKind = 'single' | 'multiple' | 'text';
export type OptionKind = 'text' | 'image';

export interface QuestionTypeInfo {
  /** How the type is named on screen (a message key). */
  label: MessageKey;
  answer: AnswerKind;
  option: OptionKind;
  /** Whether the type is about a piece of code (the question carries one). */
  code: boolean;
  /**
   * The types the editor switches this one to keeping its options (their texts or images; the correct
   * marks and points reset). Any other switch loses every option detail and must be confirmed.
   */
  keepsOptionsWith: readonly QuestionType[];
}

export const QUESTION_TYPE_TABLE: Record<QuestionType, QuestionTypeInfo> = {
  MCQ: {
    label: 'questionType.mcq',
    answer: 'single',
    option: 'text',
    code: false,
    keepsOptionsWith: ['MSQ'],
  },
  MSQ: {
    label: 'questionType.msq',
    answer: 'multiple',
    option: 'text',
    code: false,
    keepsOptionsWith: ['MCQ'],
  },
  CODE_MCQ: {
    label: 'questionType.codeMcq',
    answer: 'single',
    option: 'text',
    code: true,
    keepsOptionsWith: [],
  },
  MCQ_IMAGE: {
    label: 'questionType.mcqImage',
    answer: 'single',
    option: 'image',
    code: false,
    keepsOptionsWith: ['MSQ_IMAGE'],
  },
  MSQ_IMAGE: {
    label: 'questionType.msqImage',
    answer: 'multiple',
    option: 'image',
    code: false,
    keepsOptionsWith: ['MCQ_IMAGE'],
  },
  FILL_IN_BLANK: {
    label: 'questionType.fillInBlank',
    answer: 'text',
    option: 'text',
    code: false,
    keepsOptionsWith: [],
  },
};

/** What a question's stored or received type may be: a question with no type is an MCQ. */
export type MaybeQuestionType = QuestionType | null | undefined | '';

/** The type a question counts as: its own, or MCQ when it has none. */
export const effectiveType = (type: MaybeQuestionType): QuestionType => type || DEFAULT_QUESTION_TYPE;

/** The row of the table for a question's type (MCQ's when it has none). */
export const typeInfo = (type: MaybeQuestionType): QuestionTypeInfo =>
  QUESTION_TYPE_TABLE[effectiveType(type)];

/** How the type is named on screen. */
export const typeLabel = (type: MaybeQuestionType) => typeInfo(type).label;
/** What kind of answer the type takes. */
export const answerKindOf = (type: MaybeQuestionType): AnswerKind => typeInfo(type).answer;
/** One option is correct and one is chosen (MCQ, CODE_MCQ, MCQ_IMAGE). */
export const isSingleAnswer = (type: MaybeQuestionType) => answerKindOf(type) === 'single';
/** Several options may be correct and chosen (MSQ, MSQ_IMAGE). */
export const isMultiAnswer = (type: MaybeQuestionType) => answerKindOf(type) === 'multiple';
/** The answer is typed and compared with the accepted values (FILL_IN_BLANK). */
export const isTextAnswer = (type: MaybeQuestionType) => answerKindOf(type) === 'text';
/** The options are images, each option's value the image's path (MCQ_IMAGE, MSQ_IMAGE). */
export const hasImageOptions = (type: MaybeQuestionType) => typeInfo(type).option === 'image';

/** The types whose row satisfies a condition, in table order. */
export const typesWhere = (test: (info: QuestionTypeInfo) => boolean): readonly QuestionType[] =>
  QUESTION_TYPES.filter((t) => test(QUESTION_TYPE_TABLE[t]));

/** Whether the editor's switch from one type to another keeps the options (see keepsOptionsWith). */
export function typeSwitchKeepsOptions(from: MaybeQuestionType, to: MaybeQuestionType): boolean {
  const a = effectiveType(from);
  const b = effectiveType(to);
  return a === b || QUESTION_TYPE_TABLE[a].keepsOptionsWith.includes(b);
}

/**
 * The type of a question from what a file says of it: its kind of answer, its kind of options, and whether
 * it carries code. A single-answer question with text options and code is CODE_MCQ.
 */
export function questionTypeFor(answer: AnswerKind, option: OptionKind, hasCode: boolean): QuestionType {
  const fits = typesWhere((t) => t.answer === answer && (answer === 'text' || t.option === option));
  const code = (t: QuestionType) => QUESTION_TYPE_TABLE[t].code;
  return fits.find((t) => code(t) === hasCode) ?? fits.find((t) => !code(t)) ?? DEFAULT_QUESTION_TYPE;
}

/** Whether a file must say the type outright because questionTypeFor would not find it again. */
export const typeNeedsHint = (type: QuestionType, hasCode: boolean) => {
  const info = QUESTION_TYPE_TABLE[type];
  return questionTypeFor(info.answer, info.option, hasCode) !== type;
};
