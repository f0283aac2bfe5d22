/**
 * `waymark seats …`: a mentor's learner seats (role TENANT). The definitions only (names, arguments,
 * options, help): each subcommand's implementation is loaded when it runs, so `--help` loads none of them.
 */
import { SEAT_ACCESS_RULE } from '@shared/rules/seats';
import type { CommandGroup, CommandModule } from './command';
import type { SeatsAddOptions } from './seats/add';
import type { SeatsBuyOptions } from './seats/buy';
import type { SeatsImportOptions } from './seats/import';
import type { SeatsInviteOptions } from './seats/invite';
import type { SeatsListOptions } from './seats/list';
import type { SeatsRemoveOptions } from './seats/remove';

export const seatsListCommand: CommandModule<SeatsListOptions> = {
  define: (parent) =>
    parent
      .command('list')
      .description('List your learners: name, mobile, e-mail, status, learner id')
      .option('--search <text>', 'only learners whose name or e-mail contains this')
      .option('--concurrency <n>', 'pages read at a time (1–16)', '4')
      .addHelpText(
        'after',
        `
With --json, one seat per line as GET /tenant/users/list returns it; with --no-json, tab-separated learner id,
e-mail, name, mobile and status (active or disabled: removed, kept until the end of the billing cycle).`,
      ),
  handler: async (ctx, options) => (await import('./seats/list')).listSeats(ctx, options),
};

export const seatsAddCommand: CommandModule<SeatsAddOptions> = {
  define: (parent) =>
    parent
      .command('add')
      .description('Add learners by e-mail address (each needs a learner account)')
      .argument('<email...>', 'e-mail addresses (spaces or commas between them)')
      .option('--concurrency <n>', 'learners added at a time (1–16)', '4')
      .option('--dry-run', 'check each address with the server; add nobody')
      .addHelpText(
        'after',
        `
Each address gets one line: added; already assigned (it is one of your seats); no such learner (no learner
account: \`waymark seats invite\` sends them an invitation); payment required (every seat is taken: the run
stops there and says how many seats to buy, with \`waymark seats buy <n>\` or in the portal). Exit codes: 0 when every learner is now yours, 7 for a malformed address (nothing
written), 8 when some could not be added.

Examples:
  $ waymark seats add asha@example.com ravi@example.com
  $ waymark seats add asha@example.com,ravi@example.com --dry-run`,
      ),
  handler: async (ctx, options) => (await import('./seats/add')).addSeats(ctx, options),
};

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
  handler: async (ctx, options) => (await import('./seats/import')).importSeats(ctx, options),
};

export const seatsRemoveCommand: CommandModule<SeatsRemoveOptions> = {
  define: (parent) =>
    parent
      .command('remove')
      .description('Remove learners (asks first; a subscribed seat stays until the end of the billing cycle)')
      .argument('<learner...>', 'e-mail addresses or learner ids (see `waymark seats list`)')
      .option('-y, --yes', 'do not ask for confirmation (needed when standard input is not a terminal)')
      .option('--concurrency <n>', 'learners removed at a time (1–16)', '4')
      .option('--dry-run', 'say what would be removed; remove nothing')
      .addHelpText(
        'after',
        `
When you are not subscribed, a seat is removed at once. When you are, the learner stays, disabled, until
the end of the billing cycle, and the next period is billed without the seat. ${SEAT_ACCESS_RULE}
Every learner is looked up first; one who is not yours and nothing is removed (exit 7).

Examples:
  $ waymark seats remove asha@example.com
  $ waymark seats remove 74ef7c03-542b-408b-86b4-d3433bbf6c37 ravi@example.com --yes`,
      ),
  handler: async (ctx, options) => (await import('./seats/remove')).removeSeats(ctx, options),
};

export const seatsInviteCommand: CommandModule<SeatsInviteOptions> = {
  define: (parent) =>
    parent
      .command('invite')
      .description('Invite people with no account: they get an e-mail sign-in link and become your learners')
      .argument('<email...>', 'e-mail addresses (spaces or commas between them)')
      .option('--concurrency <n>', 'invitations at a time (1–16)', '4')
      .option('--dry-run', 'check each address with the server; invite nobody')
      .addHelpText(
        'after',
        `
Each invitation keeps a seat for 7 days. The e-mail is sent by the identity service the server names
(GET /api/config), as the portal sends it: on a real Firebase project the return address's domain must be
an authorised domain of the project. An address that already has an account is added instead with
\`waymark seats add\`.

Examples:
  $ waymark seats invite new.learner@example.com
  $ waymark seats import roster.csv --json | jq -r 'select(.status == "notFound" and .mayInvite) | .email' | xargs waymark seats invite`,
      ),
  handler: async (ctx, options) => (await import('./seats/invite')).inviteSeats(ctx, options),
};

export const seatsBuyCommand: CommandModule<SeatsBuyOptions> = {
  define: (parent) =>
    parent
      .command('buy')
      .description('Start a checkout for more seats: prints the payment page (or opens it with --open)')
      .argument('<n>', 'how many seats to add to those you may hold now')
      .option('--open', 'open the payment page in the browser as well')
      .addHelpText(
        'after',
        `
The checkout is the portal's Pay Now (POST /tenant/stripe/create-subscription): not subscribed, it starts a
subscription for the paid seats; subscribed, it adds the seats for the rest of the current period. Nothing
is charged until you pay on that page. \`seats add\`, \`seats import\` and \`seats invite\` say how many
seats to buy when they run out.

Examples:
  $ waymark seats buy 5
  $ waymark seats buy 5 --open`,
      ),
  handler: async (ctx, options) => (await import('./seats/buy')).buySeats(ctx, options),
};

export const seatsCommand: CommandGroup = {
  define: (program) =>
    program
      .command('seats')
      .description('List, add, import, remove and invite your learners, and buy seats (mentors)'),
  commands: [
    seatsListCommand,
    seatsAddCommand,
    seatsImportCommand,
    seatsRemoveCommand,
    seatsInviteCommand,
    seatsBuyCommand,
  ],
};
