/** `waymark assessments create <name>`: a new, empty assessment (POST /tenant/assessment/create). */
import { createAssessment } from '@shared/contract/authoring';
import { AssessmentNameInput } from '@shared/schemas/authoring';
import type { Context } from '../../core/context';
import { CliError, ExitCode } from '../../core/errors';

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
