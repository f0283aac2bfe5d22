/**
 * Question files on this computer: read (any format shared/formats/detect.ts knows, its encoding detected),
 * checked with the editor's own rules (shared/formats/prepare.ts, as the portal does) with images looked up
 * beside the file or inside it.
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { type CheckOptions, MAX_IMAGE_BYTES, type PreparedQuestion } from '@shared/formats/check';
import { type QuestionFileFormat, readQuestionBytes, readQuestionWindows } from '@shared/formats/detect';
import { type CheckedFile, checkFile, type FileCheckState, fileImages } from '@shared/formats/prepare';
import type { ReadResult, RowError } from '@shared/formats/record';
import type { Subject } from '@shared/schemas/lists';

export type { CheckedFile, PreparedQuestion };

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

/**
 * A question file's records a window at a time (shared/formats/detect.ts readQuestionWindows): `windows()`
 * reads it again each time, as QuestionFiles of one window each, so an import checks every window and then
 * imports every window holding one at a time.
 */
export function readQuestionFileWindows(
  path: string,
  bytes: Uint8Array,
  size: number,
  format?: QuestionFileFormat,
): {
  format: QuestionFileFormat | null;
  windows(): Generator<QuestionFile>;
  /** The problems of a file that cannot be read at all (known before any window is checked), or null. */
  unreadable: RowError[] | null;
} {
  const read = readQuestionWindows(basename(path), bytes, size, format);
  return {
    format: read.format,
    unreadable: read.unreadable,
    *windows() {
      for (const result of read.windows()) yield { path, format: read.format, result };
    },
  };
}

/** Images beside the question file (paths relative to it) or carried inside it (embedded:…). */
export function imageLookup(
  file: QuestionFile,
  readFile?: (path: string) => Uint8Array,
): CheckOptions['images'] {
  const baseDir = dirname(resolve(file.path));
  return fileImages(file.result, (ref) => {
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
  });
}

/**
 * Checks every question of a file (shared/formats/prepare.ts), images looked up beside it; `state` is
 * carried from one window of a file to the next.
 */
export function checkQuestionFile(
  file: QuestionFile,
  subjects: readonly Subject[],
  options: Pick<CheckOptions, 'defaults' | 'overrides'> & {
    readFile?: (path: string) => Uint8Array;
    state?: FileCheckState;
  } = {},
): CheckedFile {
  return checkFile(
    file.result,
    subjects,
    {
      images: imageLookup(file, options.readFile),
      ...(options.defaults ? { defaults: options.defaults } : {}),
      ...(options.overrides ? { overrides: options.overrides } : {}),
    },
    options.state,
  );
}

/** SHA-256 in hexadecimal, with node's crypto (synchronous: a large bank is hashed fast). */
export const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');
