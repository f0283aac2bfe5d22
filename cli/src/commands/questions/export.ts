/**
 * `waymark questions export`: writes questions as a file that `waymark questions import` reads back
 * (JSON, NDJSON or CSV), with subjects and topics by name and images as their web addresses.
 */
import { randomBytes } from 'node:crypto';
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { extname } from 'node:path';
import { me } from '@shared/contract/profile';
import { Id } from '@shared/schemas/common';
import type { Context } from '../../core/context';
import { CliError, ExitCode, usageError } from '../../core/errors';
import {
  QUESTION_FILE_FORMATS,
  type QuestionFileFormat,
  toRecord,
  writeRecords,
} from '../../core/question-file';
import { EXPORT_LIMIT, loadQuestionsForExport, loadSubjects } from '../../core/questions';
import type { CommandModule } from '../command';

export interface QuestionsExportOptions {
  mine?: boolean;
  assessment?: string;
  search?: string;
  output?: string;
  format?: string;
}

function formatFor(options: QuestionsExportOptions): QuestionFileFormat {
  const given = options.format?.toLowerCase();
  if (given !== undefined) {
    if (!(QUESTION_FILE_FORMATS as readonly string[]).includes(given))
      throw usageError(`--format: must be one of ${QUESTION_FILE_FORMATS.join(', ')}.`);
    return given as QuestionFileFormat;
  }
  const ext = options.output ? extname(options.output).toLowerCase() : '';
  if (ext === '.csv') return 'csv';
  if (ext === '.json') return 'json';
  return 'ndjson';
}

/** Writes a file whole or not at all. */
function writeAtomically(path: string, content: string) {
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    writeFileSync(temp, content, { flag: 'wx' });
    renameSync(temp, path);
  } catch (err) {
    rmSync(temp, { force: true });
    throw new CliError(`Cannot write ${path}: ${(err as Error).message}`, ExitCode.usage, { cause: err });
  }
}

export async function exportQuestions(ctx: Context, options: QuestionsExportOptions): Promise<void> {
  const format = formatFor(options);
  if (options.assessment !== undefined && !Id.safeParse(options.assessment).success) {
    throw new CliError(`--assessment: "${options.assessment}" is not an assessment id.`, ExitCode.badInput);
  }
  const { client } = ctx.signedIn();
  const { output } = ctx;
  const subjects = await loadSubjects(client, ctx.signal);
  const mine = options.mine ? (await client.call(me, { signal: ctx.signal })).data._id : undefined;
  const { questions, truncated } = await loadQuestionsForExport(
    client,
    {
      ...(options.assessment ? { assessmentId: options.assessment } : {}),
      ...(options.search ? { searchText: options.search } : {}),
      ...(mine ? { mine } : {}),
    },
    ctx.signal,
  );
  // a draft (never saved) has no content to import
  const published = questions.filter((q) => q.status === 'PUBLISH');
  const drafts = questions.length - published.length;
  const records = published.map((q) => toRecord(q, subjects, ctx.server));
  const content = writeRecords(records, format);

  if (truncated) {
    output.note(
      `Note: an export reads at most ${EXPORT_LIMIT.toLocaleString('en')} questions from the search, the most recently changed; narrow it with --search or export an assessment with --assessment.`,
    );
  }
  if (drafts) output.note(`Left out ${drafts} draft${drafts === 1 ? '' : 's'} that were never saved.`);
  if (!options.output) {
    ctx.io.stdout.write(content);
    return;
  }
  writeAtomically(options.output, content);
  if (output.json) {
    output.emit({
      event: 'exported',
      file: options.output,
      format,
      count: records.length,
      drafts,
      truncated,
    });
  } else {
    output.line(
      `Exported ${records.length} question${records.length === 1 ? '' : 's'} to ${options.output} (${format}).`,
    );
  }
}

export const questionsExportCommand: CommandModule<QuestionsExportOptions> = {
  define: (parent) =>
    parent
      .command('export')
      .description('Write questions to a file that `waymark questions import` reads back')
      .option('--mine', 'only the questions you created')
      .option('--assessment <id>', 'the questions of one of your assessments')
      .option('--search <text>', 'questions whose text, tag or subject contains this')
      .option('-o, --output <file>', 'write to this file (default: standard output)')
      .option(
        '--format <format>',
        `${QUESTION_FILE_FORMATS.join(', ')} (default: from the file name, else ndjson)`,
      )
      .addHelpText(
        'after',
        `
Without --assessment the questions come from the server's search (published questions and your own),
read page by page, at most ${EXPORT_LIMIT.toLocaleString('en')}, the most recently changed first. Subjects and topics are written by name,
images as their web addresses (import uses them as they are). Drafts that were never saved are left out.

Examples:
  $ waymark questions export --mine -o my-questions.csv
  $ waymark questions export --assessment 0b9c… -o week-3.json
  $ waymark questions export --search closures > closures.ndjson`,
      ),
  handler: exportQuestions,
};
