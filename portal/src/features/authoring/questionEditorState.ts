/**
 * The question editor's state (mentor §2.8): the form's values as react-hook-form holds them (the options
 * as a field array), how a loaded question becomes them and how they become the saved question
 * (QuestionInput, the contract's schema), and the error map. Errors are keyed as the schema and the
 * server's 400 `fields` name them ('question', 'options.2.value', 'correctAnswer', …) — one map for both,
 * which is why they are kept beside the form rather than in react-hook-form's nested errors.
 */
import type { formWordsIn } from '@shared/i18n/form-words';
import type { MessageKey } from '@shared/i18n/keys';
import { isTextAnswer } from '@shared/rules/question-types';
import type { Question, QuestionType } from '@shared/schemas/assessment';
import { CORRECT_POINTS, FILL_IN_BLANK_POINTS, QuestionInput } from '@shared/schemas/authoring';
import { useI18n } from '@widgets/core/i18n';
import { useCallback, useState } from 'react';
import { editorText } from './editorText';

export interface OptionValues {
  _id?: string;
  value: string;
  isCorrect: boolean;
}

export interface EditorValues {
  question: string;
  questionType: QuestionType;
  code: string | null;
  questionImagePath: string | null;
  points: number;
  subject: string;
  topic: string;
  language: string;
  options: OptionValues[];
  explanation: string;
  tags: string;
}

export function fromQuestion(q: Question): EditorValues {
  return {
    question: q.question,
    questionType: q.questionType,
    code: q.code,
    questionImagePath: q.questionImagePath,
    points: isTextAnswer(q.questionType) ? q.points : FILL_IN_BLANK_POINTS,
    subject: q.subject ?? '',
    topic: q.topic ?? '',
    language: q.language,
    options: q.options.map((o) => ({ _id: o._id, value: o.value, isCorrect: o.isCorrect })),
    explanation: q.explanation[0]?.value ?? '',
    tags: q.tags.join(', '),
  };
}

/** What a type switch leaves as it was: everything typed that is not about the options. */
export const KEPT_ON_TYPE_SWITCH = [
  'question',
  'subject',
  'topic',
  'language',
  'explanation',
  'tags',
  'code',
] as const;

export function toInput(s: EditorValues): QuestionInput {
  return {
    question: s.question,
    questionType: s.questionType,
    code: s.code,
    questionImagePath: s.questionImagePath,
    points: s.points,
    subject: s.subject || null,
    topic: s.topic || null,
    language: s.language || null,
    options: s.options.map((o) => ({
      _id: o._id,
      value: o.value,
      isCorrect: isTextAnswer(s.questionType) ? true : o.isCorrect,
      points: o.isCorrect ? CORRECT_POINTS : 0,
    })),
    explanation: [{ type: 'TEXT' as const, value: s.explanation }],
    tags: s.tags
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean),
  };
}

type FormWords = ReturnType<typeof formWordsIn>;

/**
 * The schema's complaints about the values, first message per key; null when they may be saved. `words`
 * (`useFormWords()`, decision 052) says zod's own complaints — a bound the schema gives no words of its
 * own — in the reader's language.
 */
export function problemsOf(values: EditorValues, words: FormWords): Record<string, string> | null {
  const parsed = QuestionInput.safeParse(toInput(values), words);
  if (parsed.success) return null;
  const found: Record<string, string> = {};
  for (const issue of parsed.error.issues) found[issue.path.map(String).join('.')] ??= issue.message;
  return found;
}

/** The error keys a change of this form field answers: an option's change answers the correct-answer ones. */
export function errorKeysOf(field: string): string[] {
  const top = field.split('.')[0]!;
  if (top === 'options') return ['options', 'correctAnswer', 'imageAnswer', 'textCorrectAnswer'];
  if (top === 'explanation') return ['explanation.0.value'];
  return [top];
}

/** The editor's field errors; a field's error goes away once the field changes. */
export function useFieldErrors() {
  const i18n = useI18n();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const clearFor = useCallback((field: string) => {
    const touched = errorKeysOf(field);
    const hit = (e: string) => touched.some((t) => e === t || e.startsWith(`${t}.`));
    setErrors((now) =>
      Object.keys(now).some(hit) ? Object.fromEntries(Object.entries(now).filter(([e]) => !hit(e))) : now,
    );
  }, []);
  const setError = useCallback(
    (key: string, message: string) => setErrors((now) => ({ ...now, [key]: message })),
    [],
  );
  // an error is a message key (the editor's own checks), an editor rule's English text (its checks and the
  // server's), or the server's words: each is said in the reader's language where the catalogue has it
  const err = (key: string) => {
    const message = errors[key];
    return message === undefined ? undefined : editorText(i18n, i18n.t(message as MessageKey));
  };
  return { errors, setErrors, setError, clearFor, err };
}
export type FieldErrors = ReturnType<typeof useFieldErrors>;
