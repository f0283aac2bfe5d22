/**
 * `waymark cohorts …`: a tenant's cohorts (issue 28; decisions 043, 050) — named groups of learners, made
 * here or pushed as Groups by the organisation's directory over SCIM (then read-only here). The definitions
 * only: each implementation is loaded when it runs.
 */

import type { CohortsChangeOptions, CohortsCreateOptions, CohortsDeleteOptions } from './cohorts/change';
import type { CohortsListOptions, CohortsShowOptions } from './cohorts/list';
import type { CommandGroup, CommandModule } from './command';

const COHORT_ARGUMENT = 'the cohort: its name (any case) or its id';

export const cohortsListCommand: CommandModule<CohortsListOptions> = {
  define: (parent) =>
    parent
      .command('list')
      .description('List your cohorts: name, members, roadmaps, whether your directory manages it, id')
      .addHelpText('after', '\nWith --json, one cohort per line as GET /tenant/cohorts returns it.'),
  handler: async (ctx) => (await import('./cohorts/list')).listCohorts(ctx),
};

export const cohortsShowCommand: CommandModule<CohortsShowOptions> = {
  define: (parent) =>
    parent
      .command('show')
      .description("Show a cohort's members (name, e-mail, seat) and its roadmaps")
      .argument('<cohort>', COHORT_ARGUMENT)
      .addHelpText(
        'after',
        `
With --json, the cohort first ({"event":"cohort",…}), then one member a line ({"event":"member",…}).

Example:
  $ waymark cohorts show "Sales EMEA"`,
      ),
  handler: async (ctx, options) => (await import('./cohorts/list')).showCohort(ctx, options),
};

export const cohortsCreateCommand: CommandModule<CohortsCreateOptions> = {
  define: (parent) =>
    parent
      .command('create')
      .description('Make a cohort (its name unique among yours, in any case)')
      .argument('<name>', 'its name, at most 100 characters'),
  handler: async (ctx, options) => (await import('./cohorts/change')).createCohort(ctx, options),
};

const membersHelp = (verb: string) => `
Learners by e-mail address or learner id, as many as you like (each may be a comma-separated list). A
cohort your directory manages over SCIM is changed there, not here.

Example:
  $ waymark cohorts ${verb} "Sales EMEA" ana@example.com,li@example.com`;

export const cohortsAddCommand: CommandModule<CohortsChangeOptions> = {
  define: (parent) =>
    parent
      .command('add')
      .description("Add learners holding one of your seats to a cohort; they get the cohort's roadmaps")
      .argument('<cohort>', COHORT_ARGUMENT)
      .argument('<learner...>', 'e-mail addresses or learner ids')
      .addHelpText('after', membersHelp('add')),
  handler: async (ctx, options) => (await import('./cohorts/change')).changeMembers(ctx, 'add', options),
};

export const cohortsRemoveCommand: CommandModule<CohortsChangeOptions> = {
  define: (parent) =>
    parent
      .command('remove')
      .description('Take learners out of a cohort (they keep their seats and roadmaps)')
      .argument('<cohort>', COHORT_ARGUMENT)
      .argument('<learner...>', 'e-mail addresses or learner ids')
      .addHelpText('after', membersHelp('remove')),
  handler: async (ctx, options) => (await import('./cohorts/change')).changeMembers(ctx, 'remove', options),
};

export const cohortsDeleteCommand: CommandModule<CohortsDeleteOptions> = {
  define: (parent) =>
    parent
      .command('delete')
      .description('Delete a cohort; its members keep their seats and the roadmaps they were given')
      .argument('<cohort>', COHORT_ARGUMENT)
      .option('--yes', 'delete without asking (needed when standard input is not a terminal)'),
  handler: async (ctx, options) => (await import('./cohorts/change')).deleteCohort(ctx, options),
};

export const cohortsCommand: CommandGroup = {
  define: (program) =>
    program
      .command('cohorts')
      .description('List, show, make and delete cohorts, and add or remove their learners (mentors)'),
  commands: [
    cohortsListCommand,
    cohortsShowCommand,
    cohortsCreateCommand,
    cohortsAddCommand,
    cohortsRemoveCommand,
    cohortsDeleteCommand,
  ],
};
