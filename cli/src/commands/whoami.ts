/**
 * `waymark whoami`: who the terminal is signed in as, fresh from the server (GET /api/user/me). With
 * WAYMARK_API_KEY the terminal acts as an API key, which may not read a person's account: it says which
 * key, by the prefix the portal lists it under.
 */
import { me } from '@shared/contract/profile';
import type { Context } from '../core/context';

export type WhoamiOptions = Record<string, never>;

export async function whoami(ctx: Context): Promise<void> {
  const { client, source } = ctx.signedIn();
  const { output } = ctx;
  if (source === 'WAYMARK_API_KEY') {
    const key = ctx.env.WAYMARK_API_KEY?.trim() ?? '';
    const prefix = /^wm_([a-z0-9]{12})_/.exec(key)?.[1];
    const shown = prefix ? `wm_${prefix}_…` : 'a malformed key';
    if (output.json) output.emit({ apiKey: shown, server: ctx.server });
    else
      output.line(`API key ${shown} (WAYMARK_API_KEY) on ${ctx.server}: its scopes decide what it may do.`);
    return;
  }
  const { data: user } = await client.call(me, { signal: ctx.signal });
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
    await drawOnce(
      WhoamiView,
      { user, server: ctx.server, source: source as 'session' | 'WAYMARK_TOKEN' },
      ctx.io,
    );
  }
}
