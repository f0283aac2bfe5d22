/**
 * `waymark keys revoke <id or prefix>`: revokes an API key (DELETE /tenant/api-keys/{id}), after a
 * confirmation unless --yes. The key is found by its id or its prefix in the mentor's list.
 */
import { apiKeyList, revokeApiKey } from '@shared/contract/integrations';
import type { Context } from '../../core/context';
import { CancelledError, CliError, ExitCode, usageError } from '../../core/errors';
import { confirm } from '../../core/prompt';

export interface KeysRevokeOptions {
  key: string;
  yes?: boolean;
}

/** `wm_abcdefghijkl`, `wm_abcdefghijkl_…`, a whole key or the bare 12 characters: the prefix. */
const prefixOf = (text: string) => /^(?:wm_)?([a-z0-9]{12})(?:_.*)?$/.exec(text.trim())?.[1] ?? null;

export async function revokeKey(ctx: Context, options: KeysRevokeOptions): Promise<void> {
  const { client } = ctx.signedIn();
  const keys = (await client.call(apiKeyList, { signal: ctx.signal })).data;
  const wanted = options.key.trim();
  const prefix = prefixOf(wanted);
  const key = keys.find((k) => k._id === wanted || (prefix && k.prefix === `wm_${prefix}_…`));
  if (!key) {
    throw new CliError(`${wanted} is not one of your API keys.`, ExitCode.notFound, {
      hint: '`waymark keys list` shows them, with their ids.',
    });
  }
  const { output } = ctx;
  if (key.status === 'REVOKED') {
    if (output.json) output.emit({ event: 'revoked', already: true, ...key });
    else output.line(`${key.prefix} (“${key.name}”) was already revoked on ${key.revokedAt?.slice(0, 10)}.`);
    return;
  }
  if (!options.yes) {
    if (!ctx.io.stdin.isTTY)
      throw usageError('Revoking a key needs confirmation.', 'Run it again with --yes.');
    output.note(`Systems using ${key.prefix} (“${key.name}”) are refused from their next request on.`);
    if (!(await confirm('Revoke it?', { stdin: ctx.io.stdin, stderr: ctx.io.stderr })))
      throw new CancelledError('Nothing was revoked.');
  }
  const { data } = await client.call(revokeApiKey, { params: { id: key._id }, signal: ctx.signal });
  if (output.json) output.emit({ event: 'revoked', already: false, ...data });
  else output.line(`Revoked ${data.prefix} (“${data.name}”).`);
}
