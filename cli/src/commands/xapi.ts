/**
 * `waymark xapi …`: the tenant's learning record store (issue 29; decision 042). The definitions only: the
 * implementation (./xapi/run.ts) is loaded when a command runs.
 */
import { XAPI_QUEUE_STATUSES, XAPI_STATEMENT_KINDS } from '@shared/schemas/xapi';
import type { CommandGroup, CommandModule } from './command';
import type { XapiConnectOptions, XapiStatementsOptions } from './xapi/run';

const run = () => import('./xapi/run');

export const xapiShowCommand: CommandModule<Record<string, never>> = {
  define: (parent) =>
    parent
      .command('show')
      .description('Show the connected learning record store: endpoint, key, what is sent, counts'),
  handler: async (ctx) => (await run()).showConnection(ctx),
};

export const xapiConnectCommand: CommandModule<XapiConnectOptions> = {
  define: (parent) =>
    parent
      .command('connect')
      .description('Connect your learning record store, or change its settings')
      .argument('<endpoint>', "the LRS's xAPI endpoint, e.g. https://lrs.example.com/xapi/")
      .requiredOption('--key <key>', 'the LRS key (HTTP Basic user name)')
      .option('--actor <format>', 'learners as a stable pseudonym (account, the default) or by e-mail (mbox)')
      .option('--send <list>', `what is sent, comma separated: ${XAPI_STATEMENT_KINDS.join(', ')}, or all`)
      .option('--paused', 'save the settings but send nothing until connected again without it')
      .option('--new-secret', 'replace the secret (asked again) of a connected LRS')
      .addHelpText(
        'after',
        `
The secret is typed without echo at a terminal, or read from standard input when it is piped; it is never
an argument (it would stay in your shell's history). Waymark keeps it encrypted and never shows it again.

Examples:
  $ waymark xapi connect https://lrs.example.com/xapi/ --key waymark
  $ printf '%s\\n' "$LRS_SECRET" | waymark xapi connect https://lrs.example.com/xapi/ --key waymark --send awards,roadmaps`,
      ),
  handler: async (ctx, options) => (await run()).connect(ctx, options),
};

export const xapiTestCommand: CommandModule<Record<string, never>> = {
  define: (parent) =>
    parent
      .command('test')
      .description('Send the learning record store a test statement and say what it answered'),
  handler: async (ctx) => (await run()).sendTest(ctx),
};

export const xapiStatementsCommand: CommandModule<XapiStatementsOptions> = {
  define: (parent) =>
    parent
      .command('statements')
      .description('What was sent, newest first: event, statements, status, attempts, the LRS answer')
      .option('--status <status>', `only these: ${XAPI_QUEUE_STATUSES.join(', ').toLowerCase()}`)
      .option('--limit <n>', 'the newest n (1–100)', '50'),
  handler: async (ctx, options) => (await run()).listStatements(ctx, options),
};

export const xapiResendCommand: CommandModule<Record<string, never>> = {
  define: (parent) =>
    parent
      .command('resend')
      .description('Send again every entry that failed (the same statements, the same ids)'),
  handler: async (ctx) => (await run()).resend(ctx),
};

export const xapiDisconnectCommand: CommandModule<{ yes?: boolean }> = {
  define: (parent) =>
    parent
      .command('disconnect')
      .description('Disconnect the learning record store: nothing more is sent')
      .option('--yes', 'disconnect without asking (needed when standard input is not a terminal)'),
  handler: async (ctx, options) => (await run()).disconnect(ctx, options),
};

export const xapiCommand: CommandGroup = {
  define: (program) =>
    program
      .command('xapi')
      .description("Send your learners' activity to your learning record store as xAPI (mentors)"),
  commands: [
    xapiShowCommand,
    xapiConnectCommand,
    xapiTestCommand,
    xapiStatementsCommand,
    xapiResendCommand,
    xapiDisconnectCommand,
  ],
};
