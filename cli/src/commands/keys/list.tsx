/** `waymark keys list`: the mentor's API keys (GET /tenant/api-keys), never a secret. */
import { apiKeyList } from '@shared/contract/integrations';
import { formatDateTime } from '@shared/rules/format-date';
import type { Context } from '../../core/context';

export type KeysListOptions = Record<string, never>;

const when = (iso: string | null) => (iso ? formatDateTime(iso) : 'never');

export async function listKeys(ctx: Context): Promise<void> {
  const { client } = ctx.signedIn();
  const { data } = await client.call(apiKeyList, { signal: ctx.signal });
  const { output } = ctx;
  if (output.json) {
    for (const k of data) output.emit(k);
    return;
  }
  if (output.mode === 'plain') {
    for (const k of data)
      output.line(
        [k._id, k.prefix, k.name, k.scopes.join(','), k.status, k.expiresAt ?? '', k.lastUsedAt ?? ''].join(
          '\t',
        ),
      );
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
        dimRow={(k) => k.status !== 'ACTIVE'}
        empty="No API keys yet. Make one with `waymark keys create <name> --scopes …`."
        columns={[
          { header: 'Name', value: (k) => k.name },
          { header: 'Key', value: (k) => k.prefix },
          { header: 'Scopes', value: (k) => k.scopes.join(', ') },
          { header: 'Expires', value: (k) => when(k.expiresAt) },
          { header: 'Last used', value: (k) => when(k.lastUsedAt) },
          { header: 'Status', value: (k) => k.status.toLowerCase() },
          { header: 'Id', value: (k) => k._id, dim: true },
        ]}
      />
    </Once>,
    ctx.io,
  );
}
