/** `waymark questions …`: the question bank, for authors (role TENANT). */
import type { CommandGroup } from './command';
import { questionsExportCommand } from './questions/export';
import { questionsImportCommand } from './questions/import';

export const questionsCommand: CommandGroup = {
  define: (program) =>
    program
      .command('questions')
      .description('Import questions into the question bank from a file, or export them to one (authors)'),
  commands: [questionsImportCommand, questionsExportCommand],
};
