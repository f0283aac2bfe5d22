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
import { failedWith, runBulk, type StatusStyle } from '../bulk';
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
  const bytes = readFileBytes(options.file, 'question file');
  const file = readQuestionFileWindows(options.file, bytes, WINDOW, format);
  if (!file.format)
    throw new CliError(`${options.file} ${UNKNOWN_FORMAT}.`, ExitCode.badInput, {
      hint: 'If it is one of them, say which with --format.',
    });
  const { output } = ctx;
  const formatName = FORMAT_NAMES[file.format];
  // a file that cannot be read at all is said before anything is asked of the server
  if (file.unreadable) {
    for (const e of file.unreadable)
      if (output.json) output.emit({ event: 'invalid', file: options.file, ...e });
      else output.note(`${options.file}: ${describeRowError(e)}`);
    throw new CliError(
      `${options.file} (${formatName}): ${problemCount(file.unreadable, 0)}; nothing was written.`,
      ExitCode.badInput,
      {
        hint: `Fix it, or export it again from where it came; if it is not ${formatName}, say its format with --format.`,
      },
    );
  }
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
  const check = (window: QuestionFile, state: ReturnType<typeof newFileCheckState>) =>
    checkQuestionFile(window, subjects, {
      defaults: {
        ...(tags?.length ? { tags } : {}),
        ...(options.explanation ? { explanation: options.explanation } : {}),
      },
      ...(Object.keys(chosen).length ? { overrides: chosen } : {}),
      state,
    });
  /**
   * The file's windows, each checked. A window after the first with no question (a file that ends on a
   * window's edge, or only notes) is not checked: a file with no questions at all is the first window's.
   */
  function* checkedWindows() {
    let first = true;
    const state = newFileCheckState();
    for (const window of file.windows()) {
      // the last window's text, records and requests are garbage now: keep the peak near what is live
      if (!first) reclaim();
      const empty = !first && window.result.total === 0 && !window.result.errors.length;
      first = false;
      yield {
        notes: window.result.notes,
        total: window.result.total,
        checked: empty ? { questions: [], errors: [], unsupported: [], unplaced: [] } : check(window, state),
      };
    }
  }

  // First pass: every window checked and counted, only the problems kept, so that every problem of the
  // file is reported at once before anything is written.
  const errors: RowError[] = [];
  const unsupported: Unsupported[] = [];
  const unplaced: UnplacedQuestion[] = [];
  let total = 0;
  let questionCount = 0;
  let placeWidth = 0;
  for (const window of checkedWindows()) {
    for (const n of window.notes) output.note(`${options.file}: ${n}`);
    total += window.total;
    errors.push(...window.checked.errors);
    unsupported.push(...window.checked.unsupported);
    unplaced.push(...window.checked.unplaced);
    questionCount += window.checked.questions.length;
    for (const q of window.checked.questions) placeWidth = Math.max(placeWidth, describePlace(q).length);
  }

  const skip = Boolean(options.skipUnsupported);
  const problems = [
    ...errors,
    ...(skip ? [] : unsupported.map((u) => ({ ...u, field: u.kind, message: `not imported: ${u.reason}` }))),
  ];
  if (unplaced.length) {
    // one word for the file, not one per question: where they go is the person's to say
    const said = describeUnplaced(unplaced, total);
    if (output.json)
      output.emit({
        event: 'unplaced',
        file: options.file,
        questions: unplaced.length,
        total,
        message: said,
      });
    const also = problems.length ? ` (and ${problemCount(problems, total)}, listed above)` : '';
    if (problems.length) reportProblems();
    throw new CliError(
      `${options.file} (${formatName}): ${said}${also}; nothing was written.`,
      ExitCode.badInput,
      {
        hint: `Say where they go with --subject and --topic (for every question of the file), or name a subject and topic in the file's categories. The server's subjects and topics: ${subjectsAndTopics(subjects)}.`,
      },
    );
  }
  function reportProblems() {
    if (output.json) {
      for (const e of errors) output.emit({ event: 'invalid', file: options.file, ...e });
      if (!skip) for (const u of unsupported) output.emit({ event: 'unsupported', file: options.file, ...u });
    } else {
      for (const e of errors) output.note(`${options.file}: ${describeRowError(e)}`);
      if (!skip)
        for (const u of unsupported)
          output.note(
            `${options.file}: ${describePlace(u)}: ${u.kind}: not imported: ${u.reason}${u.title ? ` (“${u.title}”)` : ''}`,
          );
    }
  }
  if (problems.length) {
    reportProblems();
    const onlyUnsupported = errors.length === 0;
    throw new CliError(
      `${options.file} (${formatName}): ${problemCount(problems, total)}; nothing was written.`,
      ExitCode.badInput,
      {
        hint: onlyUnsupported
          ? 'Waymark cannot hold these questions; --skip-unsupported imports the others.'
          : 'Fix them and run the import again (--dry-run checks without writing).',
      },
    );
  }
  if (skip && unsupported.length) {
    for (const u of unsupported) {
      if (output.json) output.emit({ event: 'unsupported', file: options.file, ...u, skipped: true });
      else
        output.note(
          `${options.file}: ${describePlace(u)}: skipped ${u.kind}: ${u.reason}${u.title ? ` (“${u.title}”)` : ''}`,
        );
    }
  }

  // Second pass: a window at a time, what the server already has, then the questions into the run
  async function* plannedQuestions() {
    const seen: PlannedKeys = new Map();
    for (const window of checkedWindows())
      if (window.checked.questions.length)
        yield* await planImport(client, window.checked.questions, sha256, ctx.signal, seen);
  }

  const into = assessmentName ? ` into “${assessmentName}”` : '';
  const dryRun = Boolean(options.dryRun);
  const update = Boolean(options.update);
  const describeQuestion = (q: PreparedQuestion) => describeLine(q, placeWidth);

  await runBulk<PlannedQuestion, ImportResult, Status>(ctx, {
    label: dryRun ? 'Checking questions' : `Importing questions${into}`,
    event: 'question',
    items: {
      total: questionCount,
      run: async (pool) => {
        const result = await runQuestionImport(client, plannedQuestions(), {
          update,
          dryRun,
          concurrency,
          fetch: ctx.http.fetch,
          signal: pool.signal,
          isFatal: pool.isFatal,
          onProgress: (e) => pool.onSettled(e.planned, e.index, e.outcome),
          ...(options.assessment ? { assessmentId: options.assessment } : {}),
        });
        // the storage unreachable stops the run: said as the server unreachable is (exit 6)
        return result.fatal instanceof UploadError
          ? {
              ...result,
              fatal: new CliError(result.fatal.message, ExitCode.unreachable, { cause: result.fatal }),
            }
          : result;
      },
    },
    statuses: STATUSES,
    dryRun,
    placeOf: (p) => ({
      key: `${p.q.part ?? ''}:${p.q.line}:${p.q.item ?? ''}`,
      fields: { ...questionFields(p.q), key: p.key },
    }),
    describe: (p, outcome) => {
      const text = describeQuestion(p.q);
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
    },
    summarize: (count) => {
      const n = (s: Status, word: string) => (count(s) ? [`${count(s)} ${word}`] : []);
      const parts = dryRun
        ? [
            ...n('wouldCreate', 'would be created'),
            ...n('wouldUpdate', 'would be updated'),
            ...n('unchanged', 'unchanged'),
            ...n('changed', 'changed (left as they are without --update)'),
            ...n('duplicate', 'the same as another question of the file (imported once)'),
          ]
        : [
            ...n('created', 'created'),
            ...n('updated', 'updated'),
            ...n('unchanged', 'unchanged'),
            ...n('changed', 'changed in the file and left as they are (--update rewrites them)'),
            ...n('duplicate', 'the same as another question of the file (imported once)'),
            ...n('failed', 'failed'),
          ];
      const of = `${questionCount} question${questionCount === 1 ? '' : 's'} of ${options.file} (${formatName})${into}`;
      const skipped = skip && unsupported.length ? [`${unsupported.length} not supported and skipped.`] : [];
      return {
        lines: [
          `${of}: ${parts.join(', ') || 'none'}.${dryRun ? ' Nothing was written (--dry-run).' : ''}`,
          ...skipped,
        ],
        fields: {
          file: options.file,
          format: file.format,
          ...(options.assessment ? { assessmentId: options.assessment } : {}),
          ...(skip ? { skipped: unsupported.length } : {}),
        },
      };
    },
    partialMessage: (failed, all) =>
      `${failed} of ${all} questions could not be imported (see above); the others were.`,
  });
}
