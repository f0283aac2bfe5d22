/** Reading the files commands are given, with errors that say which file and why. */
import { readFileSync } from 'node:fs';
import { decodeText } from '@shared/formats/text';
import { CliError, ExitCode } from './errors';

/** A text file's content; a missing or unreadable file is a usage error naming it. */
export function readTextFile(path: string, what = 'file'): string {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(path);
  } catch (err) {
    throw unreadable(path, what, err);
  }
  return decodeText(bytes).text;
}

function unreadable(path: string, what: string, err: unknown): CliError {
  {
    const code = (err as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EISDIR'
          ? 'it is a folder'
          : code === 'EACCES'
            ? 'permission denied'
            : (err as Error).message;
    return new CliError(`Cannot read the ${what} ${path}: ${why}.`, ExitCode.usage);
  }
}

/** A whole number option within bounds, or a usage error naming the option. */
export function intOption(
  value: string | number | undefined,
  name: string,
  min: number,
  max: number,
  fallback: number,
): number {
  if (value === undefined) return fallback;
  const n = typeof value === 'number' ? value : Number(value.trim());
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new CliError(`${name}: must be a whole number from ${min} to ${max}.`, ExitCode.usage);
  }
  return n;
}

/** A file's bytes; a missing or unreadable file is a usage error naming it. */
export function readFileBytes(path: string, what = 'file'): Uint8Array {
  try {
    return readFileSync(path);
  } catch (err) {
    throw unreadable(path, what, err);
  }
}
