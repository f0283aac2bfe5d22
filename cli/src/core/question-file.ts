/**
 * Question files on this computer: read (any format shared/formats/detect.ts knows, its encoding detected),
 * checked with the editor's own rules (shared/formats/check.ts) with images looked up beside the file or
 * inside it, and given the source key and fingerprint the batch import remembers them by.
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import {
  type CheckOptions,
  checkRecord,
  type ImageSource,
  MAX_IMAGE_BYTES,
  type PreparedQuestion,
} from '@shared/formats/check';
import { type QuestionFileFormat, readQuestionBytes } from '@shared/formats/detect';
import { addressIdentity, bytesIdentity, canonicalQuestion } from '@shared/formats/fingerprint';
import { isEmbedded, type ReadResult, type RowError, type Unsupported } from '@shared/formats/record';
import { isImageType } from '@shared/schemas/authoring';
import type { Subject } from '@shared/schemas/lists';

export type { ImageSource, PreparedQuestion };

export interface QuestionFile {
  path: string;
  format: QuestionFileFormat | null;
  result: ReadResult;
}

/** Reads a question file's bytes (it must exist: the caller reports a missing one). */
export function readQuestionFile(path: string, bytes: Uint8Array, format?: QuestionFileFormat): QuestionFile {
  const { format: fmt, result } = readQuestionBytes(basename(path), bytes, format);
  return { path, format: fmt, result };
}

/** Images beside the question file (paths relative to it) or carried inside it (embedded:…). */
export function imageLookup(
  file: QuestionFile,
  readFile?: (path: string) => Uint8Array,
): CheckOptions['images'] {
  const baseDir = dirname(resolve(file.path));
  return (ref) => {
    if (isEmbedded(ref)) {
      const bytes = file.result.files.get(ref.slice(ref.indexOf(':') + 1));
      return bytes ? { bytes } : { error: `the file names an image it does not carry (${ref})` };
    }
    if (ref.startsWith('@@PLUGINFILE@@')) return { error: `the image ${ref} is not in the file` };
    const path = resolve(baseDir, ref);
    try {
      if (!readFile && statSync(path).size > MAX_IMAGE_BYTES)
        return { error: `${ref} is larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MB` };
      const read = readFile ?? readFileSync;
      const bytes = read(path);
      return { bytes, load: () => read(path) };
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      return {
        error:
          code === 'ENOENT'
            ? `no such file: ${ref}`
            : `${ref} cannot be read (${code ?? (err as Error).message})`,
      };
    }
  };
}

export interface CheckedFile {
  questions: PreparedQuestion[];
  /** Problems with the file or its questions: nothing is written while there is one. */
  errors: RowError[];
  /** Questions Waymark cannot hold. */
  unsupported: Unsupported[];
}

/** Checks every question of a file; the questions are ready only when there are no errors at all. */
export function checkQuestionFile(
  file: QuestionFile,
  subjects: readonly Subject[],
  options: Pick<CheckOptions, 'defaults' | 'overrides'> & { readFile?: (path: string) => Uint8Array } = {},
): CheckedFile {
  const { result } = file;
  const errors = [...result.errors];
  const questions: PreparedQuestion[] = [];
  if (!result.errors.length && result.total === 0)
    errors.push({ line: 1, field: 'file', message: 'has no questions' });
  const images = imageLookup(file, options.readFile);
  for (const record of result.records) {
    const checked = checkRecord(record, {
      subjects,
      images,
      ...(options.defaults ? { defaults: options.defaults } : {}),
      ...(options.overrides ? { overrides: options.overrides } : {}),
    });
    if (checked.ok) questions.push(checked.question);
    else errors.push(...checked.errors);
  }
  // in the order of the file (a sort that keeps the order of problems on one line)
  const order = (p: { part?: string; line: number }) =>
    `${p.part ?? ''}\u0000${String(p.line).padStart(9, '0')}`;
  errors.sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0));
  return { questions, errors, unsupported: [...result.unsupported] };
}

/** "3 problems in 2 of 9 questions". */
export function problemCount(
  problems: readonly { line: number; item?: number; part?: string }[],
  total: number,
) {
  const questions = new Set(problems.map((p) => `${p.part ?? ''}:${p.line}:${p.item ?? ''}`)).size;
  const n = problems.length;
  return `${n} problem${n === 1 ? '' : 's'} in ${questions} of ${total} question${total === 1 ? '' : 's'}`;
}

const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');

const identity = (source: ImageSource | null | undefined): string | null =>
  !source ? null : source.kind === 'url' ? addressIdentity(source.url) : bytesIdentity(sha256(source.load()));

/** The fingerprint of a checked question (shared/formats/fingerprint.ts, with node's hashing). */
export function fingerprintOf(q: PreparedQuestion): string {
  const image = isImageType(q.input.questionType ?? 'MCQ');
  return sha256(
    canonicalQuestion({
      question: q.input.question,
      questionType: q.input.questionType ?? 'MCQ',
      code: q.input.code,
      points: q.input.points,
      subject: q.input.subject,
      topic: q.input.topic,
      options: q.input.options.map((o, i) => ({
        value: image ? (identity(q.optionImages[i]) ?? o.value) : o.value,
        isCorrect: o.isCorrect ?? false,
      })),
      explanation: q.input.explanation,
      tags: q.input.tags,
      image: identity(q.image),
    }),
  );
}

/** Where a question came from: the file's own id, else its content (`content:` and its fingerprint). */
export const sourceKeyOf = (q: PreparedQuestion, fingerprint: string) =>
  q.sourceId ?? `content:${fingerprint}`;
