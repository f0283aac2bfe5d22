import { randomUUID } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * The content of `file`, which the first process to need it creates with `make()`: every process starting at
 * the same moment on one folder reads the same content, and never a file half written. The content is
 * written whole to a draft of this process's own, then linked into place — a link fails if the name
 * exists, so of several processes the first to link wins and the others read its file. (Writing the file
 * itself, even with an exclusive create, lets another process read it before it is whole; checking that it
 * exists and then writing lets two processes each write their own, and each keep a different one.)
 */
export function createdOnce(
  file: string,
  make: () => string,
  { mode = 0o600, dirMode }: { mode?: number; dirMode?: number } = {},
): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  mkdirSync(dirname(file), { recursive: true, ...(dirMode === undefined ? {} : { mode: dirMode }) });
  const draft = `${file}.${process.pid}.${randomUUID()}`;
  writeFileSync(draft, make(), { mode, flag: 'wx' });
  try {
    linkSync(draft, file);
  } catch (err) {
    // another process linked its own first: that one is the file
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    rmSync(draft, { force: true });
  }
  return readFileSync(file, 'utf8');
}
