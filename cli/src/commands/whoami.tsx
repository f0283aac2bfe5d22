/** `waymark whoami`: who the terminal is signed in as, fresh from the server (GET /api/user/me). */
import { me } from '@shared/contract/profile';
import type { Context } from '../core/context';
import { ROLE_LABELS } from '../core/labels';
import type { CommandModule } from './command';

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
    const [{ Once, runInk }, { WhoamiView }] = await Promise.all([
      import('../ui/render'),
      import('../ui/WhoamiView'),
    ]);
    await runInk(
      <Once>
        <WhoamiView user={user} server={ctx.server} source={source} />
      </Once>,
      ctx.io,
    );
  }
}

export const whoamiCommand: CommandModule<WhoamiOptions> = {
  define: (program) =>
    program
      .command('whoami')
      .description('Show who this terminal is signed in as')
      .addHelpText(
        'after',
        `
Prints the name, e-mail address and role (${Object.entries(ROLE_LABELS)
          .map(([role, label]) => `${role}: ${label}`)
          .join(', ')}).
With --json, the user as GET /api/user/me returns it.
Exits with 3 when nobody is signed in or the session has expired.`,
      ),
  handler: (ctx) => whoami(ctx),
};
