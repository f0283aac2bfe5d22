/**
 * `waymark seats import <file>`: adds the learners of a file (one e-mail address per line, or a CSV with an
 * email column; thousands of lines), each once, with bounded concurrency and one outcome per line.
 */
import type { Context } from '../../core/context';
import { CliError, ExitCode } from '../../core/errors';
import { readTextFile } from '../../core/files';
import { classifyPeople, readPeopleText } from '../../core/people';

import { failWithProblems } from '../bulk';
import type { CommandModule } from '../command';
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

export const seatsImportCommand: CommandModule<SeatsImportOptions> = {
  define: (parent) =>
    parent
      .command('import')
      .description('Add the learners of a file: one e-mail address per line, or a CSV with an email column')
      .argument('<file>', 'the list (blank lines and lines starting with # are skipped)')
      .option('--concurrency <n>', 'learners added at a time (1–16)', '4')
      .option('--dry-run', 'check each address with the server; add nobody')
      .addHelpText(
        'after',
        `
Every line is checked first: one malformed address and nothing is written (exit 7). A repeated address is
added once (the repeat is reported as a duplicate). Each line then gets its outcome: added, already
assigned, duplicate, no such learner (may be invited), payment required. Exit code 8 when some could not
be added.

Examples:
  $ waymark seats import class-3b.txt
  $ waymark seats import roster.csv --dry-run
  $ waymark seats import roster.csv --json | jq -r 'select(.status == "notFound") | .email' | xargs waymark seats invite`,
      ),
  handler: importSeats,
};
