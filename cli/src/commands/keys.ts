/**
 * `waymark keys …`: a tenant's API keys for machines (issue 28; decision 039) — made, listed and revoked
 * by the mentor signed in here (a key never manages keys). The definitions only: each implementation is
 * loaded when it runs.
 */
import { API_SCOPES } from '@shared/schemas/integrations';
import type { CommandGroup, CommandModule } from './command';
import type { KeysCreateOptions } from './keys/create';
import type { KeysListOptions } from './keys/list';
import type { KeysRevokeOptions } from './keys/revoke';

export const keysCreateCommand: CommandModule<KeysCreateOptions> = {
  define: (parent) =>
    parent
      .command('create')
      .description('Make an API key with a name, scopes and an expiry; the key is printed once')
      .argument('<name>', 'what the key is for, e.g. "HR system sync"')
      .requiredOption('--scopes <list>', `what it may do, comma separated: ${API_SCOPES.join(', ')}`)
      .option('--expires <days>', 'days until it stops working (1–730)', '90')
      .option('--no-expiry', 'a key that never expires')
      .addHelpText(
        'after',
        `
The key (wm_…) goes to standard output, alone (or in the \`key\` field with --json); keep it somewhere safe:
it is shown once, and Waymark keeps only its hash. Use it as WAYMARK_API_KEY, or in any HTTP client as
\`Authorization: Bearer wm_…\`. A key acts as you, only on the calls its scopes name.

Examples:
  $ waymark keys create "HR system sync" --scopes seats:read,seats:write
  $ waymark keys create "Warehouse" --scopes reports:read --no-expiry --json | jq -r .key`,
      ),
  handler: async (ctx, options) => (await import('./keys/create')).createKey(ctx, options),
};

export const keysListCommand: CommandModule<KeysListOptions> = {
  define: (parent) =>
    parent
      .command('list')
      .description('List your API keys: name, key prefix, scopes, expiry, last use, status, id')
      .addHelpText(
        'after',
        '\nWith --json, one key per line as GET /tenant/api-keys returns it (never a secret).',
      ),
  handler: async (ctx) => (await import('./keys/list')).listKeys(ctx),
};

export const keysRevokeCommand: CommandModule<KeysRevokeOptions> = {
  define: (parent) =>
    parent
      .command('revoke')
      .description('Revoke an API key: its next request is refused, on every server')
      .argument('<key>', 'the key id, or its prefix as the list shows it (wm_abcdefghijkl)')
      .option('--yes', 'revoke without asking (needed when standard input is not a terminal)')
      .addHelpText(
        'after',
        `
Example:
  $ waymark keys revoke wm_k4t9x2m7q1bz --yes`,
      ),
  handler: async (ctx, options) => (await import('./keys/revoke')).revokeKey(ctx, options),
};

export const keysCommand: CommandGroup = {
  define: (program) =>
    program.command('keys').description('Make, list and revoke API keys for your other systems (mentors)'),
  commands: [keysCreateCommand, keysListCommand, keysRevokeCommand],
};
