/** `waymark seats …`: a mentor's learner seats (role TENANT). */
import type { CommandGroup } from './command';
import { seatsAddCommand } from './seats/add';
import { seatsBuyCommand } from './seats/buy';
import { seatsImportCommand } from './seats/import';
import { seatsInviteCommand } from './seats/invite';
import { seatsListCommand } from './seats/list';
import { seatsRemoveCommand } from './seats/remove';

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
