/**
 * `waymark assessments …`: a mentor's assessments (role TENANT). The definitions only: each subcommand's
 * implementation is loaded when it runs.
 */
import type { AssessmentsCreateOptions } from './assessments/create';
import type { AssessmentsListOptions } from './assessments/list';
import type { AssessmentsShareOptions } from './assessments/share';
import type { AssessmentsStatsOptions } from './assessments/stats';
import type { CommandGroup, CommandModule } from './command';

export const assessmentsListCommand: CommandModule<AssessmentsListOptions> = {
  define: (parent) =>
    parent
      .command('list')
      .description('List your assessments: name, questions, created at, id')
      .addHelpText(
        'after',
        `
With --json, one assessment per line as GET /tenant/assessment/list returns it; with --no-json, tab-separated
id, name, question count and creation time.`,
      ),
  handler: async (ctx) => (await import('./assessments/list')).listAssessments(ctx),
};

export const assessmentsCreateCommand: CommandModule<AssessmentsCreateOptions> = {
  define: (parent) =>
    parent
      .command('create')
      .description('Create an empty assessment and print its id')
      .argument('<name>', 'the assessment name (quote it when it has spaces)')
      .option('--dry-run', 'check the name; create nothing')
      .addHelpText(
        'after',
        `
Then add questions: \`waymark questions import <file> --assessment <id>\`, and share it once it has at
least 10: \`waymark assessments share <id> --users … --start … --duration …\`.

Examples:
  $ waymark assessments create "Week 3: closures"
  $ id=$(waymark assessments create "Week 3" --json | jq -r ._id)`,
      ),
  handler: async (ctx, options) =>
    (await import('./assessments/create')).createAssessmentCommand(ctx, options),
};

export const assessmentsShareCommand: CommandModule<AssessmentsShareOptions> = {
  define: (parent) =>
    parent
      .command('share')
      .description('Give learners a custom test of an assessment, open from a start time for some hours')
      .argument('<id>', 'the assessment (see `waymark assessments list`)')
      .requiredOption(
        '--users <file or list>',
        'a file (one e-mail address or id per line, or a CSV with an email column) or a comma-separated list',
      )
      .requiredOption('--start <time>', 'when it opens: an ISO 8601 time on a quarter hour, not in the past')
      .requiredOption('--duration <hours>', 'how long it stays open, in whole hours (at least 1)')
      .option('--concurrency <n>', 'e-mail addresses looked up at a time (1–16)', '4')
      .option('--dry-run', 'check everything against the server; share nothing')
      .option('--force', 'share even with learners who already have a test of it (each gets another)')
      .addHelpText(
        'after',
        `
The assessment needs at least 10 questions; the learners must be yours (see \`waymark seats list\`).
Learners who already have a test of it are named and nothing is shared: sharing again gives each a second
test and e-mail, which --force does.
A start time without a zone (2026-03-02T09:30) is read in this computer's time zone.

Examples:
  $ waymark assessments share 0b9c… --users asha@example.com,ravi@example.com --start 2027-03-01T09:00:00Z --duration 2
  $ waymark assessments share 0b9c… --users class-3b.csv --start 2026-03-02T09:30:00+05:30 --duration 24 --dry-run`,
      ),
  handler: async (ctx, options) => (await import('./assessments/share')).shareAssessmentCommand(ctx, options),
};

export const assessmentsStatsCommand: CommandModule<AssessmentsStatsOptions> = {
  define: (parent) =>
    parent
      .command('stats')
      .description(
        'An assessment’s statistics: score figures, reliability, and each question’s figures and flags',
      )
      .argument(
        '<id>',
        'the assessment (see `waymark assessments list`), or a platform test such as SUBJECT:{subjectId} (staff)',
      )
      .option('--csv', 'print the question table as CSV (the columns of the portal’s Download CSV)')
      .option('-o, --output <file>', 'write the CSV to this file')
      .addHelpText(
        'after',
        `
The test's attempts and takers, the score's mean, median and SD, KR-20 (or Cronbach's α with multi-select
questions) with its standard error of measurement, the pass rate, the time to complete and the histogram;
then each question — flagged first — with its attempts, facility, discrimination, time and flags. Under 30
attempts the figures are shown and no question is flagged. docs/item-analysis.md defines every figure.
With --json, the whole answer as one JSON value (each option's shares, each flag with its rule).

Examples:
  $ waymark assessments stats 0b9c…
  $ waymark assessments stats 0b9c… --csv > week-3-statistics.csv
  $ waymark assessments stats 0b9c… --json | jq '.questions[] | select(.figures.flags | length > 0)'`,
      ),
  handler: async (ctx, options) => (await import('./assessments/stats')).assessmentStatsCommand(ctx, options),
};

export const assessmentsCommand: CommandGroup = {
  define: (program) =>
    program.command('assessments').description('List, create, share and analyse your assessments (mentors)'),
  commands: [
    assessmentsListCommand,
    assessmentsCreateCommand,
    assessmentsShareCommand,
    assessmentsStatsCommand,
  ],
};
