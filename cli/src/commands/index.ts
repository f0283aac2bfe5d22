/**
 * Every `waymark` command, as the program mounts them: the top-level commands' definitions here, the
 * groups' in their own modules (seats.ts, assessments.ts, questions.ts, awards.ts, sandbox.ts, lti.ts). A definition is a
 * name, arguments, options and help; its handler imports the command's implementation when it runs, so
 * `waymark --help` evaluates none of them (nor the API contract's schemas, undici or Ink they load), and a
 * command loads only its own.
 */
import { ROLE_LABELS } from '../core/labels';
import { assessmentsCommand } from './assessments';
import type { AuditOptions } from './audit';
import { awardsCommand } from './awards';
import { cohortsCommand } from './cohorts';
import type { CommandGroup, CommandModule } from './command';
import { keysCommand } from './keys';
import type { LoginOptions } from './login';
import type { LogoutOptions } from './logout';
import { ltiCommand } from './lti';
import { questionsCommand } from './questions';
import type { ReportsOptions } from './reports';
import { sandboxCommand } from './sandbox';
import { seatsCommand } from './seats';
import { webhooksCommand } from './webhooks';
import type { WhoamiOptions } from './whoami';
import { xapiCommand } from './xapi';

export const REPORTS = ['learning', 'awards', 'users'] as const;

export const loginCommand: CommandModule<LoginOptions> = {
  define: (program) =>
    program
      .command('login')
      .description('Sign this terminal in to Waymark (approve it in the portal, or use e-mail and password)')
      .option('--email <email>', 'sign in with this e-mail address and its password instead of the portal')
      .option(
        '--password <password>',
        'the password (default: asked without echo, or read from standard input when piped)',
      )
      .option('--no-browser', 'do not open the browser; print the link to approve')
      .addHelpText(
        'after',
        `
Without --email, the terminal gets a code; approve it in the portal (the link opens in your browser)
and the terminal is signed in. The session is kept in $XDG_CONFIG_HOME/waymark/session.json
(~/.config/waymark/session.json), readable only by you.

Examples:
  $ waymark login
  $ waymark login --server https://waymark.example.com --no-browser
  $ waymark login --email mentor@example.com
  $ printf '%s\\n' "$PASSWORD" | waymark login --email mentor@example.com --json`,
      ),
  handler: async (ctx, options) => (await import('./login')).login(ctx, options),
};

export const logoutCommand: CommandModule<LogoutOptions> = {
  define: (program) =>
    program
      .command('logout')
      .description('Sign this terminal out: revoke the session on the server and delete it here'),
  handler: async (ctx) => (await import('./logout')).logout(ctx),
};

export const whoamiCommand: CommandModule<WhoamiOptions> = {
  define: (program) =>
    program
      .command('whoami')
      .description('Show who this terminal is signed in as')
      .addHelpText(
        'after',
        `
Prints the name, e-mail address and role (${Object.entries(ROLE_LABELS)
          .map(([role, label]) => `${role}: ${label}`)
          .join(', ')}).
With --json, the user as GET /api/user/me returns it.
Exits with 3 when nobody is signed in or the session has expired.`,
      ),
  handler: async (ctx) => (await import('./whoami')).whoami(ctx),
};

export const reportsCommandModule: CommandModule<ReportsOptions> = {
  define: (parent) =>
    parent
      .command('reports')
      .description('Download a table as the portal shows it: the Learning Report, awards or users (mentors)')
      .argument('<table>', `${REPORTS.join(' | ')}`)
      .option(
        '--from <day>',
        'first day (UTC, YYYY-MM-DD): time learnt (learning), completed (awards), added (users)',
      )
      .option('--to <day>', 'last day, included (default: today)')
      .option('--csv', 'write CSV (UTF-8 with a BOM, for Excel and LibreOffice) instead of a table')
      .option('-o, --output <file>', 'write to this file instead of standard output (.csv implies --csv)')
      .option('--type <award>', 'awards: only certificates, badges or feathers')
      .option('--search <text>', 'users: only those whose name or e-mail contains this')
      .addHelpText(
        'after',
        `
Every row of the filter, not a page. Without --csv: a table at a terminal, tab-separated lines with
--no-json, one JSON object a line (keyed by the column names) with --json or in a pipe.

Examples:
  $ waymark reports learning --from 2026-03-01 --to 2026-03-31 --csv > march.csv
  $ waymark reports awards --type certificates -o certificates.csv
  $ waymark reports users --search example.com --json`,
      ),
  handler: async (ctx, options) => (await import('./reports')).reportsCommand(ctx, options),
};

export const auditCommandModule: CommandModule<AuditOptions> = {
  define: (parent) =>
    parent
      .command('audit')
      .description(
        'Read your activity log: who changed what (seats, assignments, assessments, keys), when, from where',
      )
      .option(
        '--action <action>',
        'one action (seat.added) or a group of them (seat, roadmap, cohort, assessment, apikey, award, lti)',
      )
      .option(
        '--actor-kind <kind>',
        'only what one kind of actor did: person, apiKey, scimToken, ltiPlatform, system',
      )
      .option('--actor <id>', "only what this actor did: a person's user id, an API key's id")
      .option('--from <day>', 'from this day (UTC, YYYY-MM-DD)')
      .option('--to <day>', 'until this day, included')
      .option('--limit <n>', 'the newest n entries', '50')
      .option('--all', 'every entry of the filter, page after page')
      .option('--csv', 'write the CSV of every entry of the filter (UTF-8 with a BOM) instead of a table')
      .option('-o, --output <file>', 'write to this file instead of standard output (.csv implies --csv)')
      .addHelpText(
        'after',
        `
Newest first. Entries cannot be changed or deleted; the server keeps them at least a year.
Without --csv: a table at a terminal, tab-separated lines with --no-json, one entry a line with --json.

Examples:
  $ waymark audit --action seat --from 2026-03-01
  $ waymark audit --actor-kind apiKey --all --json | jq -r .summary
  $ waymark audit --from 2026-01-01 --to 2026-03-31 -o q1-activity.csv`,
      ),
  handler: async (ctx, options) => (await import('./audit')).auditCommand(ctx, options),
};

export const COMMANDS: readonly (CommandModule<object> | CommandGroup)[] = [
  loginCommand,
  logoutCommand,
  whoamiCommand,
  seatsCommand,
  cohortsCommand,
  assessmentsCommand,
  questionsCommand,
  awardsCommand,
  reportsCommandModule,
  keysCommand,
  ltiCommand,
  auditCommandModule,
  sandboxCommand,
  webhooksCommand,
  xapiCommand,
];
