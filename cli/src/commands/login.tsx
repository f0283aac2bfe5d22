/**
 * `waymark login`: signs this terminal in and keeps the session in the user's config folder.
 * By default through the portal (the device flow: approve a code in the browser); with --email, with
 * e-mail and password through the identity service.
 */
import { z } from 'zod';
import { openBrowser } from '../core/browser';
import type { Context } from '../core/context';
import { CliError, ExitCode, usageError } from '../core/errors';
import { describeUser } from '../core/labels';
import {
  type DeviceCode,
  deviceLogin,
  keepSession,
  passwordLogin,
  revokeSession,
  type SignedInResult,
} from '../core/login';
import { promptSecret, readFirstLine } from '../core/prompt';
import type { Session } from '../core/session';
import type { BrowserStatus, LoginState } from '../ui/LoginView';

export interface LoginOptions {
  email?: string;
  password?: string;
  /** false with --no-browser */
  browser: boolean;
}

type Done = Extract<LoginState, { phase: 'done' }>;

const Email = z.email({ error: 'Invalid email address' });

export async function login(ctx: Context, options: LoginOptions): Promise<void> {
  if (options.password !== undefined && !options.email) {
    throw usageError('--password needs --email.', 'Run `waymark login --email you@example.com`.');
  }
  const signIn = options.email
    ? await passwordFlow(ctx, options.email, options.password)
    : deviceFlow(ctx, options);

  const { output } = ctx;
  if (ctx.env.WAYMARK_TOKEN) {
    output.note('Note: WAYMARK_TOKEN is set, and commands use it instead of the session saved here.');
  }
  if (output.mode === 'interactive') {
    const initial: LoginState = options.email
      ? { phase: 'signing-in', server: ctx.server, email: options.email }
      : { phase: 'starting', server: ctx.server };
    const [{ runInk }, { LoginApp }] = await Promise.all([import('../ui/render'), import('../ui/LoginView')]);
    await runInk(<LoginApp initial={initial} run={signIn} onCancel={ctx.cancel} />, ctx.io);
    return;
  }
  if (options.email) output.note(`Signing in to ${ctx.server} as ${options.email}…`);
  const done = await signIn(() => {});
  if (output.json) {
    output.emit({
      event: 'signedIn',
      server: done.server,
      user: done.user,
      deletionCanceled: done.deletionCanceled ?? false,
    });
  } else {
    output.line(`Signed in to ${done.server} as ${describeUser(done.user)}`);
    if (done.deletionCanceled) output.line('The scheduled deletion of this account has been cancelled.');
  }
}

/** Saves the new session (revoking the one it replaces) and describes the result. */
async function finish(ctx: Context, result: SignedInResult): Promise<Done> {
  const session = await keepSession(ctx.sessions, ctx.server, result, (previous: Session) =>
    revokeSession(ctx.apiFor(previous.server), previous, AbortSignal.timeout(3000)),
  );
  return {
    phase: 'done',
    server: ctx.server,
    user: { name: session.user.name, email: session.user.email, role: session.user.role },
    deletionCanceled: result.deletionCanceled ?? false,
  };
}

function deviceFlow(ctx: Context, options: LoginOptions) {
  const { output } = ctx;
  return async (update: (state: LoginState) => void): Promise<Done> => {
    const onCode = async (code: DeviceCode) => {
      const waiting = (browser: BrowserStatus): LoginState => ({
        phase: 'waiting',
        server: ctx.server,
        verificationUrl: code.verificationUrl,
        userCode: code.userCode,
        expiresAt: Date.now() + code.expiresIn * 1000,
        browser,
      });
      if (output.mode === 'interactive') {
        update(waiting(options.browser ? 'opening' : 'off'));
      } else {
        if (output.json) {
          output.emit({
            event: 'code',
            verificationUrl: code.verificationUrl,
            userCode: code.userCode,
            expiresIn: code.expiresIn,
          });
        }
        output.note(`To sign in, open ${code.verificationUrl} and approve the code ${code.userCode}.`);
        output.note('Waiting for approval…');
      }
      if (!options.browser) return;
      const opened = await openBrowser(code.verificationUrl, { env: ctx.env });
      if (output.mode === 'interactive') update(waiting(opened ? 'opened' : 'unavailable'));
    };
    const result = await deviceLogin(ctx.api(), { signal: ctx.signal, onCode });
    return finish(ctx, result);
  };
}

async function passwordFlow(ctx: Context, emailOption: string, passwordOption: string | undefined) {
  const email = Email.safeParse(emailOption.trim().toLowerCase());
  if (!email.success) throw new CliError('--email: Invalid email address', ExitCode.badInput);
  const password = passwordOption ?? (await readPassword(ctx));
  return async (): Promise<Done> => {
    const result = await passwordLogin(ctx.api(), {
      email: email.data,
      password,
      fetch: ctx.http.fetch,
      signal: ctx.signal,
      server: ctx.server,
    });
    return finish(ctx, result);
  };
}

/** Asked at a terminal without echo; read from standard input when it is piped. */
async function readPassword(ctx: Context): Promise<string> {
  const { stdin, stderr } = ctx.io;
  const password = stdin.isTTY
    ? await promptSecret('Password: ', { stdin, stderr })
    : await readFirstLine(stdin);
  if (!password) {
    throw usageError(
      'No password given.',
      'Type it at the prompt, pipe it on standard input, or pass --password.',
    );
  }
  return password;
}
