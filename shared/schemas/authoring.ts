/** The question editor's rules and messages (mentor §2.8, §5). */
import { z } from 'zod';
import { IMAGE_MIME_TYPES, type ImageMimeType } from '../formats/image';
import {
  DEFAULT_QUESTION_TYPE,
  hasImageOptions,
  isSingleAnswer,
  isTextAnswer,
} from '../rules/question-types';
import { ExplanationItem, QuestionType } from './assessment';
import { Id, unixMillisInput } from './common';
import { entities } from './entities';

export const editorMessages = {
  required: 'Required',
  oneCorrect: 'At least one answer should be correct',
  onlyOneCorrect: 'Only one answer can be correct for this type of question',
  allImages: 'All image fields must be inserted.',
  answerEmpty: 'Answer should not be empty',
  answerNumber: 'The answer must be a number',
  answerKinds: 'Accepted answers must all be numbers or all be text',
  minOptions: 'A question needs at least two options',
  imageDimension: 'Image dimension should be 1200*400 pixels.',
  assessmentName: 'Assessment name cannot be empty.',
  minQuestionsToShare: 'Please add at least 10 questions to the assessment before sharing it.',
  saveBeforeAdding: 'Save this question first: an assessment holds saved (published) questions only.',
  invalidShare: 'Please provide valid input',
  questionTooLong: 'must be at most 5000 characters',
  optionTooLong: 'must be at most 2000 characters',
  tooManyOptions: 'At most 10 options',
  explanationTooLong: 'must be at most 5000 characters',
  codeTooLong: 'must be at most 20000 characters',
  tagTooLong: 'Each tag must be at most 40 characters',
  tooManyTags: 'At most 20 tags',
} as const;

export const DEFAULT_OPTION_COUNT = 4;
export const MIN_OPTIONS = 2;
export const CORRECT_POINTS = 10;
export const FILL_IN_BLANK_POINTS = 10;
export const MIN_QUESTIONS_TO_SHARE = 10;
/** The image types a question may carry: the ones Waymark stores (jpeg, png, webp), named in one place. */
export const IMAGE_TYPES_ALLOWED: readonly ImageMimeType[] = Object.values(IMAGE_MIME_TYPES);
export const DROPZONE_WIDTH = 1200;
export const DROPZONE_HEIGHT = 400;

export const EditorOption = z.object({
  _id: Id.optional(),
  value: z.string().max(2000, editorMessages.optionTooLong).trim(),
  isCorrect: z.boolean().default(false),
  points: z.number().min(0).max(100).default(0),
});
entities.add(EditorOption, { id: 'EditorOption' });

const QuestionFields = z.object({
  question: z.string().trim().min(1, editorMessages.required).max(5000, editorMessages.questionTooLong),
  questionType: QuestionType.default(DEFAULT_QUESTION_TYPE),
  code: z.string().max(20000, editorMessages.codeTooLong).nullable().optional(),
  questionImagePath: z.string().max(500).nullable().optional(),
  points: z.number().int().min(1).max(100).default(FILL_IN_BLANK_POINTS),
  subject: Id.nullable().optional(),
  topic: Id.nullable().optional(),
  /** The language it is written in (a test draws one language); kept as it is when left out. */
  language: Id.nullable().optional(),
  options: z.array(EditorOption).max(10, editorMessages.tooManyOptions),
  explanation: z
    .array(ExplanationItem.extend({ value: z.string().max(5000, editorMessages.explanationTooLong) }))
    .max(5),
  tags: z
    .array(z.string().trim().min(1).max(40, editorMessages.tagTooLong))
    .max(20, editorMessages.tooManyTags),
});

/**
 * The editor's rules (mentor §5). An imported question keeps what its file holds, and may come without an
 * explanation or tags (decision 032): the editor asks for them when the question is next edited.
 */
const questionRules = (editor: boolean) => (q: z.output<typeof QuestionFields>, ctx: z.RefinementCtx) => {
  const add = (path: (string | number)[], message: string) => ctx.addIssue({ code: 'custom', path, message });
  if (!q.subject) add(['subject'], editorMessages.required);
  if (!q.topic) add(['topic'], editorMessages.required);
  if (editor && !q.explanation[0]?.value.trim()) add(['explanation', 0, 'value'], editorMessages.required);
  if (editor && q.tags.length === 0) add(['tags'], editorMessages.required);
  if (isTextAnswer(q.questionType)) {
    const answers = q.options.map((o) => o.value.trim()).filter(Boolean);
    if (answers.length === 0) add(['textCorrectAnswer'], editorMessages.answerEmpty);
    // a test compares numbers as numbers and text as text, so one question's answers are of one kind
    const numeric = answers.filter((v) => Number.isFinite(Number(v))).length;
    if (numeric > 0 && numeric < answers.length) add(['textCorrectAnswer'], editorMessages.answerKinds);
    return;
  }
  if (q.options.length < MIN_OPTIONS) add(['options'], editorMessages.minOptions);
  q.options.forEach((o, i) => {
    if (!o.value)
      add(
        ['options', i, 'value'],
        hasImageOptions(q.questionType) ? editorMessages.allImages : editorMessages.required,
      );
  });
  const correct = q.options.filter((o) => o.isCorrect).length;
  const key = hasImageOptions(q.questionType) ? 'imageAnswer' : 'correctAnswer';
  if (correct === 0) add([key], editorMessages.oneCorrect);
  if (correct > 1 && isSingleAnswer(q.questionType)) add([key], editorMessages.onlyOneCorrect);
};

/** PUT /admin/question/{id}: the whole question as the editor saves it. */
export const QuestionInput = QuestionFields.superRefine(questionRules(true));
/** A question of a batch import (POST /admin/question/import): the editor's rules but explanation and tags. */
export const ImportedQuestionInput = QuestionFields.superRefine(questionRules(false));
entities.add(QuestionInput, { id: 'QuestionInput' });
entities.add(ImportedQuestionInput, { id: 'ImportedQuestionInput' });
export type QuestionInput = z.input<typeof QuestionInput>;
export type ImportedQuestionInput = z.input<typeof ImportedQuestionInput>;

/** Points follow correctness: a correct option is worth 10, others 0. */
export function withOptionPoints<T extends { isCorrect: boolean; points?: number }>(options: T[]): T[] {
  return options.map((o) => ({ ...o, points: o.isCorrect ? CORRECT_POINTS : 0 }));
}

export const AssessmentNameInput = z.object({
  name: z
    .string({ error: editorMessages.assessmentName })
    .trim()
    .min(1, editorMessages.assessmentName)
    .max(120),
});
entities.add(AssessmentNameInput, { id: 'AssessmentNameInput' });

/** PUT /tenant/assessment/{id}/assign-users */
export const ShareAssessmentInput = z
  .object({
    userIds: z.array(Id, { error: editorMessages.invalidShare }).min(1, editorMessages.invalidShare).max(500),
    /** Unix milliseconds when the share was made (the client's clock, for the record). */
    createdAt: unixMillisInput(editorMessages.invalidShare).positive(editorMessages.invalidShare),
    /** Unix milliseconds; a 15-minute step, not before now. */
    startTime: unixMillisInput(editorMessages.invalidShare).positive(editorMessages.invalidShare),
    /** Hours, at least 1. */
    duration: z
      .number({ error: editorMessages.invalidShare })
      .int()
      .min(1, 'The duration must be at least 1 hour')
      .max(24 * 30),
    /**
     * Share even with learners who already have a test of this assessment (each gets another test and
     * e-mail). Without it such a share is refused with 409 ALREADY_SHARED naming them (`alreadyShared`).
     */
    force: z.boolean({ error: 'must be true or false' }).optional(),
  })
  .superRefine((v, ctx) => {
    if (v.startTime % (15 * 60_000) !== 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['startTime'],
        message: 'The start time must be on a 15-minute step',
      });
    }
  });
entities.add(ShareAssessmentInput, { id: 'ShareAssessmentInput' });
