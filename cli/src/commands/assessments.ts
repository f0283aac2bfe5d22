/** `waymark assessments …`: a mentor's own assessments (role TENANT). */
import { assessmentsCreateCommand } from './assessments/create';
import { assessmentsListCommand } from './assessments/list';
import { assessmentsShareCommand } from './assessments/share';
import type { CommandGroup } from './command';

export const assessmentsCommand: CommandGroup = {
  define: (program) =>
    program
      .command('assessments')
      .description('List, create and share your assessments with your learners (mentors)'),
  commands: [assessmentsListCommand, assessmentsCreateCommand, assessmentsShareCommand],
};
