/**
 * From a file's questions as read to questions ready for the batch import, the same in the CLI and the
 * portal: every record checked with the editor's rules (./check.ts), every problem of the file in the order
 * of the file, the count said as "3 problems in 2 of 9 questions" (or "the file could not be read: …"), the
 * questions no subject and topic were found for (said once, ./placement.ts), two questions of one file
 * with one id, and each question's source key and fingerprint (./fingerprint.ts), by which the server
 * knows it again.
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
import type { UnplacedQuestion } from './placement';
import { said } from './problems';
import {
  describePlace,
  describeRowError,
  isEmbedded,
  type Place,
  type ReadResult,
  type RowError,
  type Unsupported,
} from './record';

export interface CheckedFile {
  questions: PreparedQuestion[];
  /** Problems with the file or its questions: nothing is written while there is one. */
  errors: RowError[];
  /** Questions Waymark cannot hold. */
  unsupported: Unsupported[];
  /** Questions no subject and topic were found for: nothing is written while there is one. */
  unplaced: UnplacedQuestion[];
}

/**
 * What checking a file remembers from one window of it to the next (a GIFT file is checked 500 questions
 * at a time): the ids its questions had, to find two questions of one file with one id.
 */
export interface FileCheckState {
  ids: Map<string, { place: Place; signature: string }>;
}
export const newFileCheckState = (): FileCheckState => ({ ids: new Map() });

/** 53-bit string hash (cyrb53), twice seeded: a question's signature without keeping its text. */
function hash(text: string): string {
  const one = (seed: number) => {
    let h1 = 0xdeadbeef ^ seed;
    let h2 = 0x41c6ce57 ^ seed;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 2654435761);
      h2 = Math.imul(h2 ^ c, 1597334677);
    }
    h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
    h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
  };
  return `${one(1)}.${one(2)}`;
}

/**
 * A checked question's canonical form (./fingerprint.ts): its image, and its options' images where it has
 * image options, by the identities given.
 */
function canonicalOf(q: PreparedQuestion, image: string | null, optionImages: readonly (string | null)[]) {
  const images = hasImageOptions(q.input.questionType);
  return canonicalQuestion({
    question: q.input.question,
    questionType: q.input.questionType ?? DEFAULT_QUESTION_TYPE,
    code: q.input.code,
    points: q.input.points,
    subject: q.input.subject,
    topic: q.input.topic,
    options: q.input.options.map((o, i) => ({
      value: images ? (optionImages[i] ?? o.value) : o.value,
      isCorrect: o.isCorrect ?? false,
    })),
    explanation: q.input.explanation,
    tags: q.input.tags,
    image,
  });
}

/** What a question is, for comparing two of one file: its canonical form, images by how the file names them. */
const signatureOf = (q: PreparedQuestion) => {
  const ref = (src: ImageSource | null | undefined) =>
    !src ? null : src.kind === 'url' ? addressIdentity(src.url) : src.ref;
  return hash(
    canonicalOf(
      q,
      ref(q.image),
      q.input.options.map((_, i) => ref(q.optionImages[i])),
    ),
  );
};

/**
 * Images a file carries inside it (embedded:…), else what `beside` finds for a path (the CLI: beside the
 * file on disk; the portal: among the files chosen with it).
 */
export function fileImages(result: ReadResult, beside: ImageLookup): ImageLookup {
  return (ref) => {
    if (isEmbedded(ref)) {
      const bytes = result.files.get(ref.slice(ref.indexOf(':') + 1));
      return bytes ? { bytes } : { error: said('import.problem.imageNotCarried', { ref }) };
    }
    if (ref.startsWith('@@PLUGINFILE@@'))
      return { error: said('import.problem.imageNotInFile', { image: ref }) };
    return beside(ref);
  };
}

/** Where a problem sits, as a key that sorts in the order of the file (packages by their part). */
const orderKey = (p: Place) => `${p.part ?? ''}\u0000${String(p.line).padStart(9, '0')}`;

/**
 * Checks every question of a file (or of one window of it, `state` carried from one window to the next);
 * the questions are ready only when there are no errors and none is unplaced.
 */
export function checkFile(
  result: ReadResult,
  subjects: readonly Subject[],
  options: Pick<CheckOptions, 'images' | 'defaults' | 'overrides'>,
  state: FileCheckState = newFileCheckState(),
): CheckedFile {
  const errors = [...result.errors];
  const questions: PreparedQuestion[] = [];
  const unplaced: UnplacedQuestion[] = [];
  if (!result.errors.length && result.total === 0)
    errors.push({ line: 1, field: 'file', ...said(NO_QUESTIONS), scope: 'file' });
  for (const record of result.records) {
    const checked = checkRecord(record, {
      subjects,
      images: options.images,
      ...(options.defaults ? { defaults: options.defaults } : {}),
      ...(options.overrides ? { overrides: options.overrides } : {}),
    });
    if (!checked.ok) {
      errors.push(...checked.errors);
      if (checked.unplaced) unplaced.push(checked.unplaced);
      continue;
    }
    const q = checked.question;
    // one id, two questions: the second would be taken for the first (decision 012's source key)
    if (q.sourceId) {
      const signature = signatureOf(q);
      const seen = state.ids.get(q.sourceId);
      if (seen && seen.signature !== signature) {
        errors.push({
          line: q.line,
          ...(q.item ? { item: q.item } : {}),
          ...(q.part ? { part: q.part } : {}),
          field: 'id',
          ...said('import.problem.idTwice', {
            id: q.sourceId.slice(q.sourceId.indexOf(':') + 1),
            place: describePlace(seen.place),
          }),
        });
        continue;
      }
      if (!seen)
        state.ids.set(q.sourceId, {
          place: { line: q.line, ...(q.part ? { part: q.part } : {}), ...(q.item ? { item: q.item } : {}) },
          signature,
        });
    }
    questions.push(q);
  }
  // in the order of the file (a stable sort keeps the order of the problems of one line)
  errors.sort((a, b) => (orderKey(a) < orderKey(b) ? -1 : orderKey(a) > orderKey(b) ? 1 : 0));
  return { questions, errors, unsupported: [...result.unsupported], unplaced };
}

const NO_QUESTIONS = 'import.problem.noQuestions';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * The file's problems in one phrase: "3 problems in 2 of 9 questions" — each question counted once, and
 * never more than the file has — "1 problem with the file and …" for those of the file itself, and "the
 * file could not be read: line 3: XML: …" when it yields no question at all.
 */
export function problemCount(problems: readonly RowError[], total: number): string {
  const ofFile = problems.filter((p) => p.scope === 'file');
  const ofQuestions = problems.filter((p) => p.scope !== 'file');
  if (total === 0 && ofFile.length) {
    const [first] = ofFile;
    if (first!.code === NO_QUESTIONS && ofFile.length === 1) return 'the file has no questions';
    const more = problems.length > 1 ? ` (and ${plural(problems.length - 1, 'more problem')})` : '';
    return `the file could not be read: ${describeRowError(first!)}${more}`;
  }
  const questions = new Set(ofQuestions.map((p) => `${p.part ?? ''}:${p.line}:${p.item ?? ''}`)).size;
  const parts = [
    ...(ofFile.length ? [`${plural(ofFile.length, 'problem')} with the file`] : []),
    ...(ofQuestions.length
      ? [
          `${ofFile.length ? ofQuestions.length : plural(ofQuestions.length, 'problem')} in ${questions} of ${plural(total, 'question')}`,
        ]
      : []),
  ];
  return parts.join(' and ');
}

/** SHA-256 in hexadecimal: node's crypto (synchronous) or WebCrypto (a promise). */
export type Sha256 = (data: Uint8Array | string) => string | Promise<string>;

async function imageIdentity(source: ImageSource | null | undefined, sha256: Sha256) {
  if (!source) return null;
  return source.kind === 'url' ? addressIdentity(source.url) : bytesIdentity(await sha256(source.load()));
}

/** The fingerprint of a checked question: the SHA-256 of its canonical form (./fingerprint.ts). */
export async function fingerprintOf(q: PreparedQuestion, sha256: Sha256): Promise<string> {
  const optionImages: (string | null)[] = [];
  if (hasImageOptions(q.input.questionType))
    for (const i of q.input.options.keys()) optionImages.push(await imageIdentity(q.optionImages[i], sha256));
  return sha256(canonicalOf(q, await imageIdentity(q.image, sha256), optionImages));
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
