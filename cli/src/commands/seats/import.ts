/**
 * `waymark seats import <file>`: adds the learners of a file (one e-mail address per line, or a CSV with an
 * email column; thousands of lines), each once, with bounded concurrency and one outcome per line.
 */
import type { Context } from '../../core/context';
import { CliError, ExitCode } from '../../core/errors';
import { readTextFile } from '../../core/files';
import { classifyPeople, readPeopleText } from '../../core/people';

import { failWithProblems } from '../bulk';
import { addSeatsFrom } from './add';

/** The line number of `line 4`. */
const lineOf = (where: string) => Number(/\d+/.exec(where)?.[0] ?? 0);

export interface SeatsImportOptions {
  file: string;
  concurrency?: string;
  dryRun?: boolean;
}

export async function importSeats(ctx: Context, options: SeatsImportOptions): Promise<void> {
  const { entries, problems: empty } = readPeopleText(readTextFile(options.file, 'list of learners'));
  // every bad line at once: an empty e-mail cell and a malformed address alike, in the order of the file
  const problems = [...empty, ...classifyPeople(entries, { ids: false }).problems].sort(
    (a, b) => lineOf(a.where) - lineOf(b.where),
  );
  if (problems.length) {
    failWithProblems(ctx, problems, {
      field: 'email',
      shown: (where) => `${options.file}:${where.replace(/^line /, '')}`,
      summary: `${options.file}: ${problems.length} line${problems.length === 1 ? '' : 's'} with a problem; nothing was written.`,
      hint: 'Fix them (one e-mail address per line, or a CSV with an email column) and run it again.',
    });
  }
  if (!entries.length) throw new CliError(`${options.file} has no e-mail addresses.`, ExitCode.badInput);
  await addSeatsFrom(ctx, entries, {
    source: `${options.file}:`,
    ...(options.concurrency ? { concurrency: options.concurrency } : {}),
    ...(options.dryRun ? { dryRun: true } : {}),
  });
}
