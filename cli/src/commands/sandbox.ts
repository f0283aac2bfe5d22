/**
 * `waymark sandbox …`: a mentor's sandbox (decision 041) — demo learners with open test links to build a
 * page with the elements against, reset on demand, never billed. The definitions only: each subcommand's
 * module is loaded when it runs.
 */
import type { CommandGroup, CommandModule } from './command';
import type { SandboxOptions } from './sandbox/run';

const AFTER = `
Prints the demo learners and each open test link: its id (<wm-test-taker link-id="…">), its page and its
state. With --json, the sandbox as the API returns it. Mentors only.`;

export const sandboxCreateCommand: CommandModule<SandboxOptions> = {
  define: (parent) =>
    parent
      .command('create')
      .description('Create your sandbox (or show the one you have): demo learners with open test links')
      .addHelpText(
        'after',
        `${AFTER}

The learners hold no seat and are never billed; their links never expire and no retake cool-down
holds them back; every test and award says Sandbox, and no award of it is a credential.

Example:
  $ waymark sandbox create --json | jq -r '.links[0].linkId'`,
      ),
  handler: async (ctx, options) => (await import('./sandbox/run')).sandboxCommand(ctx, 'create', options),
};

export const sandboxResetCommand: CommandModule<SandboxOptions> = {
  define: (parent) =>
    parent
      .command('reset')
      .description('Reset every attempt of your sandbox: each link open again, with no answer or score')
      .addHelpText(
        'after',
        `${AFTER}

The links keep their ids and questions, so a page built against them keeps working.

Example:
  $ waymark sandbox reset`,
      ),
  handler: async (ctx, options) => (await import('./sandbox/run')).sandboxCommand(ctx, 'reset', options),
};

export const sandboxShowCommand: CommandModule<SandboxOptions> = {
  define: (parent) =>
    parent
      .command('show')
      .description('Show your sandbox: its learners and its links')
      .addHelpText('after', AFTER),
  handler: async (ctx, options) => (await import('./sandbox/run')).sandboxCommand(ctx, 'show', options),
};

export const sandboxCommand: CommandGroup = {
  define: (program) =>
    program
      .command('sandbox')
      .description('Your sandbox to build against: demo learners and test links, reset on demand (mentors)'),
  commands: [sandboxCreateCommand, sandboxResetCommand, sandboxShowCommand],
};
