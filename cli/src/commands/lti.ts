/**
 * `waymark lti …`: the tenant's LMS platforms (LTI 1.3; decision 044) — listed, their courses, and a
 * course's members synced into seats (NRPS), and the score posts to their gradebooks (AGS), sent again. The definitions only: each implementation is loaded when it
 * runs.
 */
import type { CommandGroup, CommandModule } from './command';
import type {
  LtiCoursesOptions,
  LtiListOptions,
  LtiRetryOptions,
  LtiScoresOptions,
  LtiSyncOptions,
} from './lti/commands';

export const ltiListCommand: CommandModule<LtiListOptions> = {
  define: (parent) =>
    parent
      .command('list')
      .description('List your LMS platforms: name, issuer, client id, deployments, status, id')
      .addHelpText(
        'after',
        '\nWith --json, one platform per line as GET /tenant/lti/registrations returns it.',
      ),
  handler: async (ctx) => (await import('./lti/commands')).listPlatforms(ctx),
};

export const ltiCoursesCommand: CommandModule<LtiCoursesOptions> = {
  define: (parent) =>
    parent
      .command('courses')
      .description(
        "List a platform's courses Waymark was launched from, and whether their members can be synced",
      )
      .argument('<platform>', 'the platform id (waymark lti list)'),
  handler: async (ctx, options) => (await import('./lti/commands')).listCourses(ctx, options),
};

export const ltiSyncCommand: CommandModule<LtiSyncOptions> = {
  define: (parent) =>
    parent
      .command('sync')
      .description("Give a course's learners seats, by the seat rules of `waymark seats add`")
      .argument('<course>', 'the course id (waymark lti courses <platform>)')
      .option('--dry-run', 'say what would happen; change nothing')
      .addHelpText(
        'after',
        `
Reads the course's members from the LMS (Names and Role Provisioning Services); each active learner is
added (ADDED), was there already (PRESENT) or could not be added (NOT_ADDED, with why). Running it again
adds nobody twice. With --json, one member per line (NDJSON), then a line with the counts.

Examples:
  $ waymark lti sync 9b8a7c6d-4e1f-4a2b-9c3d-9b8aa1b2c3d4 --dry-run
  $ waymark lti sync 9b8a7c6d-4e1f-4a2b-9c3d-9b8aa1b2c3d4 --json | jq -c 'select(.outcome == "NOT_ADDED")'`,
      ),
  handler: async (ctx, options) => (await import('./lti/commands')).syncCourse(ctx, options),
};

export const ltiScoresCommand: CommandModule<LtiScoresOptions> = {
  define: (parent) =>
    parent
      .command('scores')
      .description("List the score posts to your platforms' gradebooks, newest first")
      .option('--status <status>', 'only these: pending, failed (retried or given up), delivered, all', 'all')
      .option('--limit <n>', 'the newest n (1–200)', '50')
      .addHelpText(
        'after',
        `
Each line: id, status, attempts, learner, score, when it was delivered or is tried next, the platform's
last answer. A failed post is retried by itself with growing delays; \`waymark lti retry <id>\` sends one
that gave up again at once. With --json, one post per line as GET /tenant/lti/deliveries returns it.

Examples:
  $ waymark lti scores --status failed
  $ waymark lti scores --json | jq -r 'select(.status == "GAVE_UP") | ._id' | xargs -n1 waymark lti retry`,
      ),
  handler: async (ctx, options) => (await import('./lti/commands')).listScores(ctx, options),
};

export const ltiRetryCommand: CommandModule<LtiRetryOptions> = {
  define: (parent) =>
    parent
      .command('retry')
      .description('Send a failed score post again now (a delivered one is never sent twice)')
      .argument('<post>', 'the score post id (waymark lti scores)'),
  handler: async (ctx, options) => (await import('./lti/commands')).retryScore(ctx, options),
};

export const ltiCommand: CommandGroup = {
  define: (program) =>
    program
      .command('lti')
      .description(
        'Your LMS platforms (LTI 1.3): list them, their courses, sync members, score posts (mentors)',
      ),
  commands: [ltiListCommand, ltiCoursesCommand, ltiSyncCommand, ltiScoresCommand, ltiRetryCommand],
};
