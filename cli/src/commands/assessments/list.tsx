/** `waymark assessments list`: the mentor's assessments (GET /tenant/assessment/list). */
import { assessmentList } from '@shared/contract/authoring';
import { formatDateTime } from '@shared/rules/format-date';
import { MIN_QUESTIONS_TO_SHARE } from '@shared/schemas/authoring';
import type { Context } from '../../core/context';

export type AssessmentsListOptions = Record<string, never>;

export async function listAssessments(ctx: Context): Promise<void> {
  const { client } = ctx.signedIn();
  const { data } = await client.call(assessmentList, { signal: ctx.signal });
  const { output } = ctx;
  if (output.json) {
    for (const a of data) output.emit(a);
    return;
  }
  if (output.mode === 'plain') {
    for (const a of data) output.line([a._id, a.name, a.questionCount, a.createdAt].join('\t'));
    return;
  }
  const [{ Once, runInk }, { TableView }] = await Promise.all([
    import('../../ui/render'),
    import('../../ui/TableView'),
  ]);
  await runInk(
    <Once>
      <TableView
        rows={data}
        empty="No assessments yet. Create one with `waymark assessments create <name>`."
        columns={[
          { header: 'Name', value: (a) => a.name },
          { header: 'Questions', value: (a) => String(a.questionCount), align: 'right' },
          { header: 'Created at', value: (a) => formatDateTime(a.createdAt) },
          { header: 'Id', value: (a) => a._id, dim: true },
        ]}
        footer={
          data.length
            ? `${data.length} assessment${data.length === 1 ? '' : 's'}. Sharing needs at least ${MIN_QUESTIONS_TO_SHARE} questions.`
            : undefined
        }
      />
    </Once>,
    ctx.io,
  );
}
