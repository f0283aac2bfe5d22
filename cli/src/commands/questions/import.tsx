/**
 * `waymark questions import <file>`: creates the questions of a JSON, NDJSON or CSV file. Every question is
 * checked first (the editor's schema and rules, subjects and topics against the server's, images on disk);
 * one bad row and nothing is written (exit 7). Then each question is created through the editor's own calls
 * with bounded concurrency; one failing does not stop the rest, and the exit code says whether all were.
 */
import { getAssessment } from '@shared/contract/authoring';
import { Id } from '@shared/schemas/common';
import type { Context } from '../../core/context';
import { CliError, ExitCode, usageError } from '../../core/errors';
import { intOption, readTextFile } from '../../core/files';
import {
  checkQuestionFile,
  describePlace,
  describeRowError,
  type PreparedQuestion,
  QUESTION_FILE_FORMATS,
  type QuestionFileFormat,
  readQuestionFile,
} from '../../core/question-file';
import { createCheckedQuestion, loadSubjects } from '../../core/questions';
import { failedWith, runBulk, type StatusStyle } from '../bulk';
import type { CommandModule } from '../command';

export interface QuestionsImportOptions {
  file: string;
  format?: string;
  assessment?: string;
  concurrency?: string;
  dryRun?: boolean;
}

export const MAX_CONCURRENCY = 16;

const shorten = (s: string, n = 50) => {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > n ? `${flat.slice(0, n - 1)}…` : flat;
};

function describeLine(q: PreparedQuestion, placeWidth: number) {
  return `${describePlace(q).padEnd(placeWidth)}  ${(q.input.questionType ?? 'MCQ').padEnd(13)}  ${q.subjectName} / ${q.topicName}  “${shorten(q.input.question)}”`;
}

const STATUSES = {
  created: { word: 'created', tone: 'ok', failed: false },
  wouldCreate: { word: 'would create', tone: 'info', failed: false },
  failed: { word: 'failed', tone: 'fail', failed: true },
} as const satisfies Record<string, StatusStyle>;

function questionFields(q: PreparedQuestion) {
  return {
    line: q.line,
    ...(q.item ? { item: q.item } : {}),
    type: q.input.questionType ?? 'MCQ',
    subject: q.subjectName,
    topic: q.topicName,
    question: q.input.question,
  };
}

export async function importQuestions(ctx: Context, options: QuestionsImportOptions): Promise<void> {
  const format = options.format?.toLowerCase();
  if (format !== undefined && !(QUESTION_FILE_FORMATS as readonly string[]).includes(format)) {
    throw usageError(`--format: must be one of ${QUESTION_FILE_FORMATS.join(', ')}.`);
  }
  const concurrency = intOption(options.concurrency, '--concurrency', 1, MAX_CONCURRENCY, 4);
  if (options.assessment !== undefined && !Id.safeParse(options.assessment).success) {
    throw new CliError(`--assessment: "${options.assessment}" is not an assessment id.`, ExitCode.badInput, {
      hint: 'Run `waymark assessments list` to see their ids.',
    });
  }
  const text = readTextFile(options.file, 'question file');
  const file = readQuestionFile(options.file, text, format as QuestionFileFormat | undefined);

  const { client } = ctx.signedIn();
  const { output } = ctx;
  // one read of the subjects resolves every name (and says at once if this account may author)
  const subjects = await loadSubjects(client, ctx.signal);
  let assessmentName: string | null = null;
  if (options.assessment) {
    const { data } = await client.call(getAssessment, {
      params: { assessmentId: options.assessment },
      signal: ctx.signal,
    });
    assessmentName = data.name;
  }

  const { questions, errors } = checkQuestionFile(file, subjects);
  if (errors.length) {
    const rows = new Set(errors.map((e) => `${e.line}:${e.item ?? ''}`)).size;
    if (output.json) {
      for (const e of errors) output.emit({ event: 'invalid', file: options.file, ...e });
    } else {
      for (const e of errors) output.note(`${options.file}: ${describeRowError(e)}`);
    }
    throw new CliError(
      `${options.file}: ${errors.length} problem${errors.length === 1 ? '' : 's'} in ${rows} question${rows === 1 ? '' : 's'} (of ${file.records.length}); nothing was written.`,
      ExitCode.badInput,
      { hint: 'Fix them and run the import again (--dry-run checks without writing).' },
    );
  }

  const into = assessmentName ? ` into “${assessmentName}”` : '';
  const inside = assessmentName ? ` in “${assessmentName}”` : '';
  const dryRun = Boolean(options.dryRun);
  const placeWidth = Math.max(...questions.map((q) => describePlace(q).length));
  const describeQuestion = (q: PreparedQuestion) => describeLine(q, placeWidth);
  await runBulk(ctx, {
    label: dryRun ? 'Checking questions' : `Creating questions${into}`,
    event: 'question',
    items: questions,
    concurrency: dryRun ? 1 : concurrency,
    statuses: STATUSES,
    dryRun,
    placeOf: (q) => ({ key: `${q.line}:${q.item ?? ''}`, fields: questionFields(q) }),
    work: async (q) =>
      dryRun
        ? null
        : createCheckedQuestion({ client, fetch: ctx.http.fetch, signal: ctx.signal }, q, options.assessment),
    describe: (q, outcome) => {
      if (!outcome.ok) return failedWith('failed', describeQuestion(q), outcome.error);
      if (!outcome.value) return { status: 'wouldCreate', text: describeQuestion(q) };
      const id = outcome.value._id;
      return { status: 'created', text: describeQuestion(q), extra: id, fields: { id } };
    },
    summarize: (count) => {
      const total = questions.length;
      const failed = count('failed');
      const of = `${total} question${total === 1 ? '' : 's'}`;
      return {
        lines: [
          dryRun
            ? `${of} checked: all would be created${into}. Nothing was written (--dry-run).`
            : `Created ${count('created')} of ${of}${inside}${failed ? `; ${failed} failed` : ''}.`,
        ],
        fields: { file: options.file, ...(options.assessment ? { assessmentId: options.assessment } : {}) },
      };
    },
    partialMessage: (failed, total) =>
      `${failed} of ${total} questions could not be created (see above); the others were.`,
  });
}

export const questionsImportCommand: CommandModule<QuestionsImportOptions> = {
  define: (parent) =>
    parent
      .command('import')
      .description('Create the questions of a JSON, NDJSON or CSV file (every row is checked first)')
      .argument('<file>', 'the question file (.json: an array or one question per line; .ndjson; .csv)')
      .option(
        '--format <format>',
        `the file's format when its name does not say: ${QUESTION_FILE_FORMATS.join(', ')}`,
      )
      .option('--assessment <id>', 'also add each question to this assessment of yours')
      .option('--concurrency <n>', `questions created at a time (1–${MAX_CONCURRENCY})`, '4')
      .option('--dry-run', 'check the file against the server and print what would be created; write nothing')
      .addHelpText(
        'after',
        `
Every question is checked before anything is written: the question, subject, topic, first explanation
and a tag are required; at least one option is correct (exactly one for MCQ, CODE_MCQ and MCQ_IMAGE);
every option has a value; a fill-in-blank question has an answer. Subjects and topics are names or ids
of the server's (GET /admin/subject/subject-list). One bad row and nothing is created (exit 7).

JSON (an array, or one object per line):
  {"question": "…", "type": "MCQ", "options": [{"value": "…", "correct": true}, "…"],
   "subject": "Programming", "topic": "JavaScript", "explanation": "…", "tags": ["…"],
   "code": "…", "image": "images/q1.png", "points": 10}
CSV columns (header row; any order): question, type, options, points, subject, topic, explanation,
  tags, code, image (and id, ignored). Options are separated by |, a leading * marks a correct one:
  "*Paris | London | Berlin". Tags are separated by commas. See cli/README.md and cli/examples/.

Exit codes: 0 all created, 7 the file has problems (nothing written), 8 some questions failed.

Examples:
  $ waymark questions import cli/examples/questions.json --dry-run
  $ waymark questions import bank.csv --assessment 0b9c… --concurrency 8
  $ waymark questions import bank.ndjson --json | jq 'select(.status == "failed")'`,
      ),
  handler: importQuestions,
};
