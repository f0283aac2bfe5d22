/**
 * `waymark questions import <file>`: brings a question bank in — Waymark's JSON, NDJSON or CSV, Moodle GIFT,
 * Aiken, Moodle XML, or IMS QTI (2.1, or 1.2 as Canvas exports it), its format and text encoding detected.
 * Every question is checked first (the editor's rules, subjects and topics against the server's, images);
 * every problem is reported at once with its line and field, and nothing is written while there is one
 * (exit 7); a file that cannot be read at all says so before the server is asked anything. The subject and
 * topic of each question come from --subject/--topic, else the file's names or categories
 * (shared/formats/placement.ts); questions that none of these place are said once, with what to pass.
 * What Waymark cannot hold (an essay, a matching question, partial credit, a numerical tolerance) is
 * reported with its reason too; --skip-unsupported imports the rest. Two copies of one question in the file
 * are imported once, the other reported as a duplicate, in a dry run as in the import.
 *
 * Then the server is asked which questions it already has (each remembered by the file's own id, or by a
 * hash of its content): those are `unchanged`, or `changed` until --update rewrites them; the others are
 * created through the batch import, each whole in one transaction. So an import stopped with Ctrl+C, or cut
 * off, leaves no half-made question, and running it again completes it without creating anything twice.
 */
import type { Client } from '@shared/client/client';
import type { PoolOutcome } from '@shared/client/pool';
import {
  type ImportResult,
  type PlannedKeys,
  type PlannedQuestion,
  planImport,
  runQuestionImport,
  UploadError,
} from '@shared/client/question-import';
import { getAssessment } from '@shared/contract/authoring';
import { FORMAT_NAMES, parseFormatName, QUESTION_FILE_FORMATS, UNKNOWN_FORMAT } from '@shared/formats/detect';
import {
  checkChoice,
  describeUnplaced,
  subjectsAndTopics,
  type UnplacedQuestion,
} from '@shared/formats/placement';
import { newFileCheckState, problemCount } from '@shared/formats/prepare';
import {
  describePlace,
  describeRowError,
  type RowError,
  shorten,
  type Unsupported,
} from '@shared/formats/record';
import { effectiveType } from '@shared/rules/question-types';
import { Id } from '@shared/schemas/common';
import type { Subject } from '@shared/schemas/lists';
import type { Context } from '../../core/context';
import { CliError, ExitCode, usageError } from '../../core/errors';
import { intOption, readFileBytes } from '../../core/files';
import { reclaim } from '../../core/memory';
import {
  checkQuestionFile,
  type PreparedQuestion,
  type QuestionFile,
  readQuestionFileWindows,
  sha256,
} from '../../core/question-file';
import { loadSubjects } from '../../core/questions';
import { failedWith, type ItemOutcome, runBulk, type StatusStyle } from '../bulk';
import { MAX_CONCURRENCY } from '../questions';

export interface QuestionsImportOptions {
  file: string;
  format?: string;
  assessment?: string;
  concurrency?: string;
  dryRun?: boolean;
  update?: boolean;
  skipUnsupported?: boolean;
  subject?: string;
  topic?: string;
  tags?: string;
  explanation?: string;
}

/**
 * Questions read, checked and planned at a time. A bank of 10,000 held whole (records, checked questions,
 * plans and the run's lines) took the CLI to 190 MB; a window at a time, with the last window's garbage
 * collected before the next (core/memory.ts), it peaks at about 120 MB (docs/PERFORMANCE.md "bench:import").
 */
export const WINDOW = 500;

function describeLine(q: PreparedQuestion, placeWidth: number) {
  return `${describePlace(q).padEnd(placeWidth)}  ${effectiveType(q.input.questionType).padEnd(13)}  ${q.subjectName} / ${q.topicName}  “${shorten(q.input.question, 50)}”`;
}

const STATUSES = {
  created: { word: 'created', tone: 'ok', failed: false },
  updated: { word: 'updated', tone: 'ok', failed: false },
  unchanged: { word: 'unchanged', tone: 'info', failed: false },
  changed: { word: 'changed', tone: 'info', failed: false },
  wouldCreate: { word: 'would create', tone: 'info', failed: false },
  wouldUpdate: { word: 'would update', tone: 'info', failed: false },
  duplicate: { word: 'duplicate', tone: 'info', failed: false },
  failed: { word: 'failed', tone: 'fail', failed: true },
} as const satisfies Record<string, StatusStyle>;
type Status = keyof typeof STATUSES;

function questionFields(q: PreparedQuestion) {
  return {
    line: q.line,
    ...(q.item ? { item: q.item } : {}),
    ...(q.part ? { part: q.part } : {}),
    type: effectiveType(q.input.questionType),
    subject: q.subjectName,
    topic: q.topicName,
    question: q.input.question,
  };
}

export async function importQuestions(ctx: Context, options: QuestionsImportOptions): Promise<void> {
  const format = options.format === undefined ? undefined : parseFormatName(options.format);
  if (format === null) throw usageError(`--format: must be one of ${QUESTION_FILE_FORMATS.join(', ')}.`);
  const concurrency = intOption(options.concurrency, '--concurrency', 1, MAX_CONCURRENCY, 4);
  if (options.assessment !== undefined && !Id.safeParse(options.assessment).success) {
    throw new CliError(`--assessment: "${options.assessment}" is not an assessment id.`, ExitCode.badInput, {
      hint: 'Run `waymark assessments list` to see their ids.',
    });
  }
  const file = openFile(ctx, options.file, format);
  const { client } = ctx.signedIn();
  // one read of the subjects resolves every name (and says at once if this account may author)
  const subjects = await loadSubjects(client, ctx.signal);
  const chosen = {
    ...(options.subject?.trim() ? { subject: options.subject } : {}),
    ...(options.topic?.trim() ? { topic: options.topic } : {}),
  };
  const choice = checkChoice(subjects, chosen);
  if (!choice.ok)
    throw new CliError(`--${choice.field}: ${choice.message}.`, ExitCode.badInput, {
      hint: `The server's subjects and topics: ${subjectsAndTopics(subjects)}.`,
    });
  let assessmentName: string | null = null;
  if (options.assessment) {
    const { data } = await client.call(getAssessment, {
      params: { assessmentId: options.assessment },
      signal: ctx.signal,
    });
    assessmentName = data.name;
  }
  const tags = options.tags
    ?.split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  const windows = () =>
    checkedWindows(file, (window, state) =>
      checkQuestionFile(window, subjects, {
        defaults: {
          ...(tags?.length ? { tags } : {}),
          ...(options.explanation ? { explanation: options.explanation } : {}),
        },
        ...(Object.keys(chosen).length ? { overrides: chosen } : {}),
        state,
      }),
    );

  // First pass: every window checked and counted, only the problems kept, so that every problem of the
  // file is reported at once before anything is written.
  const scan = scanFile(ctx, options.file, windows());
  refuseProblems(ctx, { ...file, skip: Boolean(options.skipUnsupported), subjects }, scan);

  // Second pass: a window at a time, what the server already has, then the questions into the run
  async function* plannedQuestions() {
    const seen: PlannedKeys = new Map();
    for (const window of windows())
      if (window.checked.questions.length)
        yield* await planImport(client, window.checked.questions, sha256, ctx.signal, seen);
  }
  await runImport(ctx, {
    ...file,
    client,
    plan: plannedQuestions,
    scan,
    assessmentName,
    concurrency,
    options,
  });
}

interface OpenedFile {
  name: string;
  file: ReturnType<typeof readQuestionFileWindows>;
  format: NonNullable<ReturnType<typeof readQuestionFileWindows>['format']>;
  formatName: string;
}

/** The question file read (a window at a time); one that cannot be read at all is said before anything is asked of the server. */
function openFile(
  ctx: Context,
  name: string,
  format: ReturnType<typeof parseFormatName> | undefined,
): OpenedFile {
  const bytes = readFileBytes(name, 'question file');
  const file = readQuestionFileWindows(name, bytes, WINDOW, format ?? undefined);
  if (!file.format)
    throw new CliError(`${name} ${UNKNOWN_FORMAT}.`, ExitCode.badInput, {
      hint: 'If it is one of them, say which with --format.',
    });
  const { output } = ctx;
  const formatName = FORMAT_NAMES[file.format];
  if (file.unreadable) {
    for (const e of file.unreadable)
      if (output.json) output.emit({ event: 'invalid', file: name, ...e });
      else output.note(`${name}: ${describeRowError(e)}`);
    throw new CliError(
      `${name} (${formatName}): ${problemCount(file.unreadable, 0)}; nothing was written.`,
      ExitCode.badInput,
      {
        hint: `Fix it, or export it again from where it came; if it is not ${formatName}, say its format with --format.`,
      },
    );
  }
  return { name, file, format: file.format, formatName };
}

type CheckedFile = ReturnType<typeof checkQuestionFile>;

/**
 * The file's windows, each checked. A window after the first with no question (a file that ends on a
 * window's edge, or only notes) is not checked: a file with no questions at all is the first window's.
 */
function* checkedWindows(
  { file }: OpenedFile,
  check: (window: QuestionFile, state: ReturnType<typeof newFileCheckState>) => CheckedFile,
) {
  let first = true;
  const state = newFileCheckState();
  for (const window of file.windows()) {
    // the last window's text, records and requests are garbage now: keep the peak near what is live
    if (!first) reclaim();
    const empty = !first && window.result.total === 0 && !window.result.errors.length;
    first = false;
    const checked: CheckedFile = empty
      ? { questions: [], errors: [], unsupported: [], unplaced: [] }
      : check(window, state);
    yield { notes: window.result.notes, total: window.result.total, checked };
  }
}

/** What the first pass keeps of a file: its problems and counts, never its questions. */
interface Scan {
  errors: RowError[];
  unsupported: Unsupported[];
  unplaced: UnplacedQuestion[];
  total: number;
  questionCount: number;
  /** The widest place of a question (`line 12`, `item 3 of …`), to align the run's lines. */
  placeWidth: number;
}

function scanFile(ctx: Context, name: string, windows: ReturnType<typeof checkedWindows>): Scan {
  const scan: Scan = { errors: [], unsupported: [], unplaced: [], total: 0, questionCount: 0, placeWidth: 0 };
  for (const window of windows) {
    for (const n of window.notes) ctx.output.note(`${name}: ${n.message}`);
    scan.total += window.total;
    scan.errors.push(...window.checked.errors);
    scan.unsupported.push(...window.checked.unsupported);
    scan.unplaced.push(...window.checked.unplaced);
    scan.questionCount += window.checked.questions.length;
    for (const q of window.checked.questions)
      scan.placeWidth = Math.max(scan.placeWidth, describePlace(q).length);
  }
  return scan;
}

/**
 * Refuses a file with problems (exit 7), every one said: questions no subject and topic place (once, for
 * the file), errors, and what Waymark cannot hold unless --skip-unsupported, which says each skipped.
 */
function refuseProblems(
  ctx: Context,
  { name, formatName, skip, subjects }: OpenedFile & { skip: boolean; subjects: Subject[] },
  { errors, unsupported, unplaced, total }: Scan,
) {
  const { output } = ctx;
  const title = (u: Unsupported) => (u.title ? ` (“${u.title}”)` : '');
  const problems = [
    ...errors,
    ...(skip ? [] : unsupported.map((u) => ({ ...u, field: u.kind, message: `not imported: ${u.reason}` }))),
  ];
  const reportProblems = () => {
    if (output.json) {
      for (const e of errors) output.emit({ event: 'invalid', file: name, ...e });
      if (!skip) for (const u of unsupported) output.emit({ event: 'unsupported', file: name, ...u });
    } else {
      for (const e of errors) output.note(`${name}: ${describeRowError(e)}`);
      if (!skip)
        for (const u of unsupported)
          output.note(`${name}: ${describePlace(u)}: ${u.kind}: not imported: ${u.reason}${title(u)}`);
    }
  };
  if (unplaced.length) {
    // one word for the file, not one per question: where they go is the person's to say
    const said = describeUnplaced(unplaced, total);
    if (output.json)
      output.emit({ event: 'unplaced', file: name, questions: unplaced.length, total, message: said });
    const also = problems.length ? ` (and ${problemCount(problems, total)}, listed above)` : '';
    if (problems.length) reportProblems();
    throw new CliError(`${name} (${formatName}): ${said}${also}; nothing was written.`, ExitCode.badInput, {
      hint: `Say where they go with --subject and --topic (for every question of the file), or name a subject and topic in the file's categories. The server's subjects and topics: ${subjectsAndTopics(subjects)}.`,
    });
  }
  if (problems.length) {
    reportProblems();
    throw new CliError(
      `${name} (${formatName}): ${problemCount(problems, total)}; nothing was written.`,
      ExitCode.badInput,
      {
        hint:
          errors.length === 0
            ? 'Waymark cannot hold these questions; --skip-unsupported imports the others.'
            : 'Fix them and run the import again (--dry-run checks without writing).',
      },
    );
  }
  if (skip)
    for (const u of unsupported) {
      if (output.json) output.emit({ event: 'unsupported', file: name, ...u, skipped: true });
      else output.note(`${name}: ${describePlace(u)}: skipped ${u.kind}: ${u.reason}${title(u)}`);
    }
}

/** The run: each planned question through the shared runner (runQuestionImport), drawn by runBulk. */
async function runImport(
  ctx: Context,
  run: OpenedFile & {
    client: Client;
    plan: () => AsyncIterable<PlannedQuestion>;
    scan: Scan;
    assessmentName: string | null;
    concurrency: number;
    options: QuestionsImportOptions;
  },
) {
  const { client, scan, options } = run;
  const into = run.assessmentName ? ` into “${run.assessmentName}”` : '';
  const dryRun = Boolean(options.dryRun);
  const update = Boolean(options.update);
  const skip = Boolean(options.skipUnsupported);
  await runBulk<PlannedQuestion, ImportResult, Status>(ctx, {
    label: dryRun ? 'Checking questions' : `Importing questions${into}`,
    event: 'question',
    items: {
      total: scan.questionCount,
      run: async (pool) => {
        const result = await runQuestionImport(client, run.plan(), {
          update,
          dryRun,
          concurrency: run.concurrency,
          fetch: ctx.http.fetch,
          signal: pool.signal,
          isFatal: pool.isFatal,
          onProgress: (e) => pool.onSettled(e.planned, e.index, e.outcome),
          ...(options.assessment ? { assessmentId: options.assessment } : {}),
        });
        // the storage unreachable stops the run: said as the server unreachable is (exit 6)
        if (!(result.fatal instanceof UploadError)) return result;
        const { message } = result.fatal;
        return { ...result, fatal: new CliError(message, ExitCode.unreachable, { cause: result.fatal }) };
      },
    },
    statuses: STATUSES,
    dryRun,
    placeOf: (p) => ({
      key: `${p.q.part ?? ''}:${p.q.line}:${p.q.item ?? ''}`,
      fields: { ...questionFields(p.q), key: p.key },
    }),
    describe: (p, outcome) => describeOutcome(p, outcome, describeLine(p.q, scan.placeWidth), update),
    summarize: (count) => {
      const n = (s: Status, word: string) => (count(s) ? [`${count(s)} ${word}`] : []);
      const parts = (dryRun ? DRY_RUN_WORDS : IMPORT_WORDS).flatMap(([s, word]) => n(s, word));
      const of = `${scan.questionCount} question${scan.questionCount === 1 ? '' : 's'} of ${run.name} (${run.formatName})${into}`;
      const skipped =
        skip && scan.unsupported.length ? [`${scan.unsupported.length} not supported and skipped.`] : [];
      return {
        lines: [
          `${of}: ${parts.join(', ') || 'none'}.${dryRun ? ' Nothing was written (--dry-run).' : ''}`,
          ...skipped,
        ],
        fields: {
          file: run.name,
          format: run.format,
          ...(options.assessment ? { assessmentId: options.assessment } : {}),
          ...(skip ? { skipped: scan.unsupported.length } : {}),
        },
      };
    },
    partialMessage: (failed, all) =>
      `${failed} of ${all} questions could not be imported (see above); the others were.`,
  });
}

/** The summary's words for each status, in its order. */
const DRY_RUN_WORDS: [Status, string][] = [
  ['wouldCreate', 'would be created'],
  ['wouldUpdate', 'would be updated'],
  ['unchanged', 'unchanged'],
  ['changed', 'changed (left as they are without --update)'],
  ['duplicate', 'the same as another question of the file (imported once)'],
];
const IMPORT_WORDS: [Status, string][] = [
  ['created', 'created'],
  ['updated', 'updated'],
  ['unchanged', 'unchanged'],
  ['changed', 'changed in the file and left as they are (--update rewrites them)'],
  ['duplicate', 'the same as another question of the file (imported once)'],
  ['failed', 'failed'],
];

/** A question's line (and event) from what became of it. */
function describeOutcome(
  p: PlannedQuestion,
  outcome: PoolOutcome<ImportResult>,
  text: string,
  update: boolean,
): ItemOutcome<Status> {
  if (!outcome.ok) return failedWith('failed', text, outcome.error);
  const { status, questionId, field, message } = outcome.value;
  if (status === 'failed')
    return {
      status,
      text,
      fields: { error: { field, message } },
      detail: [`${field ?? 'question'}: ${message ?? 'not created'}`],
    };
  const detail =
    status === 'changed' && !update
      ? ['the file differs from what was imported before; --update rewrites it']
      : status === 'duplicate' && p.duplicateOf
        ? [`the same question as ${describePlace(p.duplicateOf)}, imported once`]
        : [];
  return {
    status,
    text,
    ...(questionId
      ? { extra: questionId, fields: { id: questionId } }
      : p.duplicateOf
        ? { fields: { duplicateOf: p.duplicateOf } }
        : {}),
    ...(detail.length ? { detail } : {}),
  };
}
