/** `waymark logout`: revokes the stored session on its server and deletes it from this computer. */
import { ApiError, NetworkError } from '@shared/client/client';
import type { Context } from '../core/context';
import { CliError, ExitCode } from '../core/errors';
import { revokeSession } from '../core/login';

export type LogoutOptions = Record<string, never>;

export async function logout(ctx: Context): Promise<void> {
  const { output } = ctx;
  const session = ctx.sessions.load();
  if (!session) {
    // signing out twice is not an error
    if (output.json) output.emit({ signedOut: false, revoked: false });
    else output.line('Not signed in.');
    if (ctx.env.WAYMARK_TOKEN) output.note('WAYMARK_TOKEN is set: unset it to stop using that token.');
    ctx.sessions.clear();
    return;
  }
  let revoked = false;
  let unreachable: NetworkError | null = null;
  try {
    await revokeSession(ctx.apiFor(session.server), session, ctx.signal);
    revoked = true;
  } catch (err) {
    if (err instanceof NetworkError) unreachable = err;
    // a token the server no longer knows (expired, already revoked) is as good as revoked
    else if (!(err instanceof ApiError && err.status < 500)) throw err;
  }
  ctx.sessions.clear();
  if (output.json) output.emit({ signedOut: true, revoked, server: session.server });
  else output.line(`Signed out of ${session.server}.`);
  if (unreachable) {
    throw new CliError(
      `The session was deleted here, but ${session.server} could not be reached to revoke it.`,
      ExitCode.unreachable,
      { hint: 'It stops working when it expires.', cause: unreachable },
    );
  }
}
