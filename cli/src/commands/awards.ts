/**
 * `waymark awards …`: verifying and revoking award credentials. The definitions only: the verifier (with
 * its JSON-LD contexts and signature suites) is loaded when `awards verify` runs.
 */
import type { AwardsRevokeOptions } from './awards/revoke';
import type { AwardsVerifyOptions } from './awards/verify';
import type { CommandGroup, CommandModule } from './command';

export const awardsVerifyCommand: CommandModule<AwardsVerifyOptions> = {
  define: (parent) =>
    parent
      .command('verify')
      .description('Verify an Open Badges 3.0 credential: a JSON file, a baked PNG or an address')
      .argument(
        '<source>',
        'a .json file, a baked .png image, or a URL (award page, verify page or credential)',
      )
      .addHelpText(
        'after',
        `
Exit codes: 0 valid, 9 revoked, 10 tampered, 11 unknown issuer, 12 expired or not valid yet,
7 not a credential, 5 not found, 6 unreachable.

Examples:
  $ waymark awards verify waymark-certificate-AbC123xyz0.png
  $ waymark awards verify https://waymark.example/certificate/AbC123xyz0
  $ waymark awards verify credential.json --json | jq .verdict`,
      ),
  handler: async (ctx, options) => (await import('./awards/verify')).verifyAwardCommand(ctx, options),
};

export const awardsRevokeCommand: CommandModule<AwardsRevokeOptions> = {
  define: (parent) =>
    parent
      .command('revoke')
      .description(
        "Revoke an award's credential, with a reason (the mentor whose test it was, or platform staff)",
      )
      .argument('<id>', 'the award id, or its page address')
      .requiredOption('--reason <text>', 'why it is revoked (recorded; shown to the learner)')
      .addHelpText(
        'after',
        `
Verifiers see it revoked within a minute. Revoking again prints the first revocation.

Example:
  $ waymark awards revoke AbC123xyz0 --reason "Answers were shared before the test."`,
      ),
  handler: async (ctx, options) => (await import('./awards/revoke')).revokeAwardCommand(ctx, options),
};

export const awardsCommand: CommandGroup = {
  define: (program) =>
    program.command('awards').description('Verify award credentials (anyone) and revoke awards (mentors)'),
  commands: [awardsVerifyCommand, awardsRevokeCommand],
};
