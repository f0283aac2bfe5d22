/** `waymark assessments create <name>`: a new, empty assessment (POST /tenant/assessment/create). */
import { createAssessment } from '@shared/contract/authoring';
import { AssessmentNameInput } from '@shared/schemas/authoring';
import type { Context } from '../../core/context';
import { CliError, ExitCode } from '../../core/errors';
import type { CommandModule } from '../command';

export interface AssessmentsCreateOptions {
  name: string;
  dryRun?: boolean;
}

export async function createAssessmentCommand(
  ctx: Context,
  options: AssessmentsCreateOptions,
): Promise<void> {
  const parsed = AssessmentNameInput.safeParse({ name: options.name });
  if (!parsed.success) {
    throw new CliError(`name: ${parsed.error.issues[0]?.message ?? 'invalid'}`, ExitCode.badInput);
  }
  const { name } = parsed.data;
  const { output } = ctx;
  if (options.dryRun) {
    // a signed-in check, so a dry run fails where the real one would
    ctx.signedIn();
    if (output.json) output.emit({ event: 'assessment', status: 'wouldCreate', name, dryRun: true });
    else if (output.mode === 'plain') output.line(`would create\t${name}`);
    else {
      const [{ Once, runInk }, { Done }] = await Promise.all([
        import('../../ui/render'),
        import('../../ui/TaskApp'),
      ]);
      await runInk(
        <Once>
          <Done>Would create the assessment “{name}”. Nothing was written (--dry-run).</Done>
        </Once>,
        ctx.io,
      );
    }
    return;
  }
  const { client } = ctx.signedIn();
  const create = async () =>
    (await client.call(createAssessment, { body: { name }, signal: ctx.signal })).data._id;
  if (output.mode !== 'interactive') {
    const id = await create();
    if (output.json) output.emit({ event: 'assessment', status: 'created', _id: id, name });
    else output.line(`${id}\t${name}`);
    return;
  }
  const { runInk } = await import('../../ui/render');
  const { Done, TaskApp } = await import('../../ui/TaskApp');
  await runInk(
    <TaskApp
      label={`Creating the assessment “${name}”…`}
      onCancel={ctx.cancel}
      run={async () => {
        const id = await create();
        return (
          <Done>
            Created “{name}” ({id}). Add questions with `waymark questions import &lt;file&gt; --assessment{' '}
            {id}`.
          </Done>
        );
      }}
    />,
    ctx.io,
  );
}

export const assessmentsCreateCommand: CommandModule<AssessmentsCreateOptions> = {
  define: (parent) =>
    parent
      .command('create')
      .description('Create an empty assessment and print its id')
      .argument('<name>', 'the assessment name (quote it when it has spaces)')
      .option('--dry-run', 'check the name; create nothing')
      .addHelpText(
        'after',
        `
Then add questions: \`waymark questions import <file> --assessment <id>\`, and share it once it has at
least 10: \`waymark assessments share <id> --users … --start … --duration …\`.

Examples:
  $ waymark assessments create "Week 3: closures"
  $ id=$(waymark assessments create "Week 3" --json | jq -r ._id)`,
      ),
  handler: createAssessmentCommand,
};
