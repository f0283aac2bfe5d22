/** `waymark whoami`: who the terminal is signed in as, fresh from the server (GET /api/user/me). */
import { me } from '@shared/contract/profile';
import type { Context } from '../core/context';

export type WhoamiOptions = Record<string, never>;

export async function whoami(ctx: Context): Promise<void> {
  const { client, source } = ctx.signedIn();
  const { data: user } = await client.call(me, { signal: ctx.signal });
  const { output } = ctx;
  if (output.mode === 'json') {
    output.emit(user);
  } else if (output.mode === 'plain') {
    output.line(`name\t${user.name ?? ''}`);
    output.line(`email\t${user.email}`);
    output.line(`role\t${user.role}`);
    output.line(`server\t${ctx.server}`);
  } else {
    // Ink and React load only when there is a terminal to draw on
    const [{ drawOnce }, { WhoamiView }] = await Promise.all([
      import('../ui/render'),
      import('../ui/WhoamiView'),
    ]);
    await drawOnce(WhoamiView, { user, server: ctx.server, source }, ctx.io);
  }
}
