/**
 * The question editor's rules speak English on the server and in the CLI (shared/schemas/authoring.ts,
 * `editorMessages`); the editor says them in the reader's language. `editorText` says one of those
 * messages — from a form's check or from the server's refusal — through the catalogue, and any other
 * text as it is.
 */
import type { MessageKey } from '@shared/i18n/keys';
import type { Translator } from '@shared/i18n/translator';
import { editorMessages } from '@shared/schemas/authoring';

const KEYS: Record<keyof typeof editorMessages, MessageKey> = {
  required: 'editor.required',
  oneCorrect: 'editor.oneCorrect',
  onlyOneCorrect: 'editor.onlyOneCorrect',
  allImages: 'editor.allImages',
  answerEmpty: 'editor.answerEmpty',
  answerNumber: 'editor.answerNumber',
  answerKinds: 'editor.answerKinds',
  minOptions: 'editor.minOptions',
  imageDimension: 'editor.imageDimension',
  assessmentName: 'editor.assessmentName',
  minQuestionsToShare: 'editor.minQuestionsToShare',
  saveBeforeAdding: 'editor.saveBeforeAdding',
  invalidShare: 'editor.invalidShare',
  questionTooLong: 'editor.questionTooLong',
  optionTooLong: 'editor.optionTooLong',
  tooManyOptions: 'editor.tooManyOptions',
  explanationTooLong: 'editor.explanationTooLong',
  codeTooLong: 'editor.codeTooLong',
  tagTooLong: 'editor.tagTooLong',
  tooManyTags: 'editor.tooManyTags',
};

const BY_TEXT = new Map<string, MessageKey>(
  (Object.keys(KEYS) as (keyof typeof editorMessages)[]).map((k) => [editorMessages[k], KEYS[k]]),
);

/** An editor message in the reader's language (text that is no editor message, as it is). */
export function editorText({ t }: Pick<Translator, 't'>, text: string): string {
  const key = BY_TEXT.get(text);
  return key ? t(key) : text;
}

/** The key of an editor message, by its name. */
export const editorKey = (name: keyof typeof editorMessages): MessageKey => KEYS[name];
