/**
 * `waymark awards revoke <id> --reason <text>`: revokes an award's credential (POST /credentials/{id}/revoke)
 * — for the mentor who assigned the roadmap the test was on, or platform staff. The reason is recorded.
 */
import { revokeCredential } from '@shared/contract/credentials';
import { RevokeInput } from '@shared/schemas/credential';
import type { Context } from '../../core/context';
import { CliError, ExitCode } from '../../core/errors';

export interface AwardsRevokeOptions {
  id: string;
  reason?: string;
}

export async function revokeAwardCommand(ctx: Context, options: AwardsRevokeOptions): Promise<void> {
  const parsed = RevokeInput.safeParse({ reason: options.reason ?? '' });
  if (!parsed.success) {
    throw new CliError(`--reason: ${parsed.error.issues[0]?.message ?? 'is required'}`, ExitCode.usage);
  }
  const id = options.id.trim().replace(/^.*\/(?:feather|badge|certificate|verify)\//, '');
  if (!/^[A-Za-z0-9_-]{10,64}$/.test(id)) {
    throw new CliError(`${options.id} is not an award id (the id in /certificate/{id}).`, ExitCode.usage);
  }
  const { client } = ctx.signedIn();
  const res = await client.call(revokeCredential, { params: { id }, body: parsed.data, signal: ctx.signal });
  const { output } = ctx;
  if (output.json) output.emit({ event: 'revoked', ...res.data, already: Boolean(res.message) });
  else
    output.line(
      `${res.message ? 'Already revoked' : 'Revoked'} ${res.data.awardId} on ${res.data.revokedAt.slice(0, 10)} (${res.data.revokedAs.toLowerCase()}): ${res.data.reason}`,
    );
}
