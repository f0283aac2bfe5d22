/**
 * From a file's questions as read to questions ready for the batch import, the same in the CLI and the
 * portal: every record checked with the editor's rules (./check.ts), every problem of the file in the order
 * of the file, the count said as "3 problems in 2 of 9 questions", and each question's source key and
 * fingerprint (./fingerprint.ts), by which the server knows it again.
 *
 * Hashing is the caller's (node's crypto in the CLI, WebCrypto in the browser), and so is finding an image
 * a file names by a path: the CLI reads it beside the file, the portal among the files the person chose.
 */
import { DEFAULT_QUESTION_TYPE, hasImageOptions } from '../rules/question-types';
import type { Subject } from '../schemas/lists';
import {
  type CheckOptions,
  checkRecord,
  type ImageLookup,
  type ImageSource,
  type PreparedQuestion,
} from './check';
import { addressIdentity, bytesIdentity, canonicalQuestion } from './fingerprint';
import { isEmbedded, type Place, type ReadResult, type RowError, type Unsupported } from './record';

export interface CheckedFile {
  questions: PreparedQuestion[];
  /** Problems with the file or its questions: nothing is written while there is one. */
  errors: RowError[];
  /** Questions Waymark cannot hold. */
  unsupported: Unsupported[];
}

/**
 * Images a file carries inside it (embedded:…), else what `beside` finds for a path (the CLI: beside the
 * file on disk; the portal: among the files chosen with it).
 */
export function fileImages(result: ReadResult, beside: ImageLookup): ImageLookup {
  return (ref) => {
    if (isEmbedded(ref)) {
      const bytes = result.files.get(ref.slice(ref.indexOf(':') + 1));
      return bytes ? { bytes } : { error: `the file names an image it does not carry (${ref})` };
    }
    if (ref.startsWith('@@PLUGINFILE@@')) return { error: `the image ${ref} is not in the file` };
    return beside(ref);
  };
}

/** Where a problem sits, as a key that sorts in the order of the file (packages by their part). */
const orderKey = (p: Place) => `${p.part ?? ''}\u0000${String(p.line).padStart(9, '0')}`;

/** Checks every question of a file; the questions are ready only when there are no errors at all. */
export function checkFile(
  result: ReadResult,
  subjects: readonly Subject[],
  options: Pick<CheckOptions, 'images' | 'defaults' | 'overrides'>,
): CheckedFile {
  const errors = [...result.errors];
  const questions: PreparedQuestion[] = [];
  if (!result.errors.length && result.total === 0)
    errors.push({ line: 1, field: 'file', message: 'has no questions' });
  for (const record of result.records) {
    const checked = checkRecord(record, {
      subjects,
      images: options.images,
      ...(options.defaults ? { defaults: options.defaults } : {}),
      ...(options.overrides ? { overrides: options.overrides } : {}),
    });
    if (checked.ok) questions.push(checked.question);
    else errors.push(...checked.errors);
  }
  // in the order of the file (a stable sort keeps the order of the problems of one line)
  errors.sort((a, b) => (orderKey(a) < orderKey(b) ? -1 : orderKey(a) > orderKey(b) ? 1 : 0));
  return { questions, errors, unsupported: [...result.unsupported] };
}

/** "3 problems in 2 of 9 questions". */
export function problemCount(problems: readonly Place[], total: number) {
  const questions = new Set(problems.map((p) => `${p.part ?? ''}:${p.line}:${p.item ?? ''}`)).size;
  const n = problems.length;
  return `${n} problem${n === 1 ? '' : 's'} in ${questions} of ${total} question${total === 1 ? '' : 's'}`;
}

/** SHA-256 in hexadecimal: node's crypto (synchronous) or WebCrypto (a promise). */
export type Sha256 = (data: Uint8Array | string) => string | Promise<string>;

async function imageIdentity(source: ImageSource | null | undefined, sha256: Sha256) {
  if (!source) return null;
  return source.kind === 'url' ? addressIdentity(source.url) : bytesIdentity(await sha256(source.load()));
}

/** The fingerprint of a checked question: the SHA-256 of its canonical form (./fingerprint.ts). */
export async function fingerprintOf(q: PreparedQuestion, sha256: Sha256): Promise<string> {
  const image = hasImageOptions(q.input.questionType);
  const options = [];
  for (const [i, o] of q.input.options.entries())
    options.push({
      value: image ? ((await imageIdentity(q.optionImages[i], sha256)) ?? o.value) : o.value,
      isCorrect: o.isCorrect ?? false,
    });
  return sha256(
    canonicalQuestion({
      question: q.input.question,
      questionType: q.input.questionType ?? DEFAULT_QUESTION_TYPE,
      code: q.input.code,
      points: q.input.points,
      subject: q.input.subject,
      topic: q.input.topic,
      options,
      explanation: q.input.explanation,
      tags: q.input.tags,
      image: await imageIdentity(q.image, sha256),
    }),
  );
}

/** Where a question came from: the file's own id, else its content (`content:` and its fingerprint). */
export const sourceKeyOf = (q: PreparedQuestion, fingerprint: string) =>
  q.sourceId ?? `content:${fingerprint}`;

/** What is sent for a question: the editor's payload with images that are addresses in place. */
export function importPayload(q: PreparedQuestion) {
  return {
    ...q.input,
    questionImagePath: q.image?.kind === 'url' ? q.image.url : null,
    options: q.input.options.map((o, i) => {
      const img = q.optionImages[i];
      return img?.kind === 'url' ? { ...o, value: img.url } : o;
    }),
  };
}
