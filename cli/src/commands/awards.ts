/** `waymark awards …`: verify any Open Badges 3.0 credential; revoke an award (mentors, platform staff). */
import { awardsRevokeCommand } from './awards/revoke';
import { awardsVerifyCommand } from './awards/verify';
import type { CommandGroup } from './command';

export const awardsCommand: CommandGroup = {
  define: (program) =>
    program.command('awards').description('Verify award credentials (anyone) and revoke awards (mentors)'),
  commands: [awardsVerifyCommand, awardsRevokeCommand],
};
