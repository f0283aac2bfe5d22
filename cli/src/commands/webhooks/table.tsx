/**
 * The lists of `waymark webhooks …` and `waymark xapi …`: one record a line with --json, tab-separated
 * with --no-json (the columns in their order), a table at a terminal.
 */
import type { Context } from '../../core/context';

export interface ListColumn<R> {
  header: string;
  value: (row: R) => string;
  dim?: boolean;
}

export async function printList<R extends object>(
  ctx: Context,
  rows: readonly R[],
  columns: ListColumn<R>[],
  empty: string,
): Promise<void> {
  const { output } = ctx;
  if (output.json) {
    for (const r of rows) output.emit(r);
    return;
  }
  if (output.mode === 'plain') {
    for (const r of rows) output.line(columns.map((c) => c.value(r)).join('\t'));
    return;
  }
  const [{ Once, runInk }, { TableView }] = await Promise.all([
    import('../../ui/render'),
    import('../../ui/TableView'),
  ]);
  await runInk(
    <Once>
      <TableView rows={[...rows]} empty={empty} columns={columns} />
    </Once>,
    ctx.io,
  );
}
