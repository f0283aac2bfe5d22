/**
 * `waymark questions …`: the question bank, for authors (role TENANT). The definitions only: each
 * subcommand's implementation (the format readers and writers among it) is loaded when it runs.
 */
import { QUESTION_FILE_FORMATS } from '@shared/formats/names';
import { EXPORT_LIMIT } from '../core/limits';
import type { CommandGroup, CommandModule } from './command';
import type { QuestionsExportOptions } from './questions/export';
import type { QuestionsImportOptions } from './questions/import';
import type { QuestionsStatsOptions } from './questions/stats';

/** The most requests `questions import` makes at a time. */
export const MAX_CONCURRENCY = 16;

/** 10000 → "10,000" without Intl (its first use costs a start-up: this help is built at every start). */
const thousands = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

export const EXPORT_FORMATS = ['json', 'ndjson', 'csv', 'gift', 'moodle-xml', 'qti', 'aiken'] as const;

export const questionsImportCommand: CommandModule<QuestionsImportOptions> = {
  define: (parent) =>
    parent
      .command('import')
      .description(
        'Import a question bank: Waymark JSON/CSV, Moodle GIFT, Aiken, Moodle XML or IMS QTI (checked first)',
      )
      .argument('<file>', 'the question file (its format and text encoding are detected)')
      .option(
        '--format <format>',
        `the file's format when it cannot be told: ${QUESTION_FILE_FORMATS.join(', ')}`,
      )
      .option('--assessment <id>', 'also add each question to this assessment of yours')
      .option(
        '--subject <name>',
        "the subject of every question of the file (over the file's own subjects and categories)",
      )
      .option(
        '--topic <name>',
        'the topic of every question of the file (with --subject, or one subject has it)',
      )
      .option('--tags <list>', 'comma-separated tags for questions that have none')
      .option('--explanation <text>', 'the explanation of questions that have none')
      .option(
        '--skip-unsupported',
        'import the other questions when some cannot be held (essays, matching, …)',
      )
      .option('--update', 'rewrite questions imported before whose content has changed in the file')
      .option('--concurrency <n>', `requests at a time (1–${MAX_CONCURRENCY})`, '4')
      .option('--dry-run', 'check the file against the server and print what would happen; write nothing')
      .addHelpText(
        'after',
        `
Formats (detected from the content, then the name): Waymark JSON (an array or one question per line),
NDJSON and CSV (header row; , ; or tab separated); Moodle GIFT; Aiken; Moodle XML; IMS QTI 2.1 items and
QTI 1.2 as Canvas exports it, alone or in a zip package. Text may be UTF-8 (with or without BOM), UTF-16
or Windows-1252. docs/question-formats.md maps every construct to Waymark's six types.

Each question's subject and topic: --subject/--topic when given (for every question of the file), else
the subject and topic the file names, else its category ($CATEGORY: $course$/top/Programming/Git, Moodle
XML's categories, a QTI manifest's classification): the deepest name that is a topic of a subject named
above it, or of one subject only. Questions none of these place are said once, with the server's subjects
and topics to choose from.

Every question is checked before anything is written: the question, its subject and topic; at least one
option is correct (exactly one for MCQ, CODE_MCQ and MCQ_IMAGE), no two options alike; a fill-in-blank
question has an answer. An explanation and tags may be left out (--explanation and --tags give them to
questions that have none). Every problem is reported with its line and field (exit 7); a file that
cannot be read at all says so. Two copies of one question are imported once, the other "duplicate".

Running the same import again is safe: each question is remembered by the file's own id (or its content)
and is reported unchanged; changed ones are left as they are unless --update. Each question is created
whole on the server, so Ctrl+C or a lost connection leaves nothing half-made: run the import again.

Exit codes: 0 done, 7 the file has problems (nothing written), 8 some questions failed.

Examples:
  $ waymark questions import moodle-export.xml --dry-run
  $ waymark questions import aiken.txt --subject Programming --topic JavaScript
  $ waymark questions import quiz.xml --skip-unsupported --assessment 0b9c…
  $ waymark questions import canvas-export.zip --tags imported --explanation "See the course notes."
  $ waymark questions import bank.csv --update --json | jq 'select(.status == "failed")'`,
      ),
  handler: async (ctx, options) => (await import('./questions/import')).importQuestions(ctx, options),
};

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
        `${EXPORT_FORMATS.join(', ')} (default: from the file name — .json .csv .gift .xml .zip — else ndjson)`,
      )
      .addHelpText(
        'after',
        `
Without --assessment the questions come from the server's search (published questions and your own),
read page by page, at most ${thousands(EXPORT_LIMIT)}, the most recently changed first. Subjects and topics are written by name,
images as their web addresses (Moodle XML and QTI carry them inside the file). Each question keeps its
Waymark id, so importing the file again creates nothing — except in Aiken, which has no place for an id,
a subject or an explanation. Drafts that were never saved are left out.
Formats: json, ndjson, csv, gift (Moodle GIFT), moodle-xml, qti (a QTI 2.1 zip package), aiken
(single-answer text questions only; the others are left out and counted).

Examples:
  $ waymark questions export --mine -o my-questions.csv
  $ waymark questions export --mine -o bank.gift
  $ waymark questions export --assessment 0b9c… -o week-3.zip --format qti
  $ waymark questions export --assessment 0b9c… -o week-3.json
  $ waymark questions export --search closures > closures.ndjson`,
      ),
  handler: async (ctx, options) => (await import('./questions/export')).exportQuestions(ctx, options),
};

export const questionsStatsCommand: CommandModule<QuestionsStatsOptions> = {
  define: (parent) =>
    parent
      .command('stats')
      .description('Your question bank’s figures and flags, over your assessments’ attempts')
      .option('--platform', 'the platform’s own questions over its tests (platform staff)')
      .option('--csv', 'print the table as CSV (the columns of the portal’s Download CSV)')
      .option('-o, --output <file>', 'write the CSV to this file')
      .addHelpText(
        'after',
        `
Every question you wrote or use in one of your assessments, flagged first, with its attempts, facility,
discrimination, average time and flags (too easy, too hard, poor or negative discrimination, a distractor
nobody picks, likely miskeyed, possibly leaked). docs/item-analysis.md defines every figure and rule.
With --json, one question a line with every figure.

Examples:
  $ waymark questions stats
  $ waymark questions stats --json | jq 'select(.figures.flags[].code == "LIKELY_MISKEYED")'
  $ waymark questions stats -o bank-statistics.csv`,
      ),
  handler: async (ctx, options) => (await import('./questions/stats')).questionStatsCommand(ctx, options),
};

export const questionsCommand: CommandGroup = {
  define: (program) =>
    program.command('questions').description('Import, export and analyse the question bank (authors)'),
  commands: [questionsImportCommand, questionsExportCommand, questionsStatsCommand],
};
