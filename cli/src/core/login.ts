/**
 * Signing the terminal in, without any UI: the device flow (the person approves a code in the portal)
 * and e-mail and password (Firebase's REST API, then Waymark's token exchange). Both end with Waymark's
 * own tokens for the CLI device, which the caller saves.
 */
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiError, type Client, NetworkError } from '@shared/client/client';
import { cliPoll, cliStart, logout, signInWithFirebase } from '@shared/contract/auth';
import { config } from '@shared/contract/system';
import type { z } from 'zod';
import { CancelledError, CliError, ExitCode } from './errors';
import type { Session, SessionStore, SessionUser } from './session';

export type DeviceCode = z.infer<(typeof cliStart.responses)[200]>['data'];

export interface SignedInResult {
  user: SessionUser;
  token: string;
  refreshToken: string;
  /** True when this sign-in cancelled the account's scheduled deletion. */
  deletionCanceled?: boolean;
}

export interface DeviceLoginOptions {
  signal?: AbortSignal;
  /** Called once the server has issued the code: show it, open the browser. */
  onCode?: (code: DeviceCode) => void | Promise<void>;
  /** For tests: how to wait between polls. */
  wait?: (ms: number, signal?: AbortSignal) => Promise<void>;
  now?: () => number;
}

const MAX_NETWORK_FAILURES = 3;

const defaultWait = (ms: number, signal?: AbortSignal) => sleep(ms, undefined, { signal });

export function deviceDescription(): string {
  return `waymark CLI on ${hostname()} (${process.platform})`.slice(0, 200);
}

/** Runs the device flow: start, then poll at the server's interval until approved, expired or cancelled. */
export async function deviceLogin(client: Client, options: DeviceLoginOptions = {}): Promise<SignedInResult> {
  const wait = options.wait ?? defaultWait;
  const now = options.now ?? Date.now;
  const { signal } = options;
  const started = await guard(signal, () =>
    client.call(cliStart, { body: { deviceInfo: deviceDescription() }, signal }),
  );
  const code = started.data;
  const deadline = now() + code.expiresIn * 1000;
  await options.onCode?.(code);

  let interval = Math.max(1, code.interval) * 1000;
  let networkFailures = 0;
  for (;;) {
    await guard(signal, () => wait(interval, signal));
    if (now() > deadline) throw expired();
    try {
      const res = await client.call(cliPoll, { body: { deviceCode: code.deviceCode }, signal });
      return res.data;
    } catch (err) {
      if (signal?.aborted) throw new CancelledError('Sign-in cancelled.');
      if (err instanceof ApiError) {
        if (err.status === 428) {
          networkFailures = 0;
          continue;
        }
        if (err.status === 429) {
          // asked to slow down
          interval += 5000;
          continue;
        }
        if (err.status === 410) throw new CliError(err.message, ExitCode.notSignedIn, { cause: err });
      }
      if (err instanceof NetworkError && ++networkFailures < MAX_NETWORK_FAILURES) continue;
      throw err;
    }
  }
}

const expired = () =>
  new CliError('The code expired before it was approved.', ExitCode.notSignedIn, {
    hint: 'Run `waymark login` again.',
  });

/** Runs fn; an abort (Ctrl+C) becomes a CancelledError. */
async function guard<T>(signal: AbortSignal | undefined, fn: () => Promise<T>): Promise<T> {
  if (signal?.aborted) throw new CancelledError('Sign-in cancelled.');
  try {
    return await fn();
  } catch (err) {
    if (signal?.aborted) throw new CancelledError('Sign-in cancelled.');
    throw err;
  }
}

// ---- e-mail and password

export interface PasswordLoginOptions {
  email: string;
  password: string;
  /** undici's fetch, for the identity service. */
  fetch: typeof globalThis.fetch;
  signal?: AbortSignal;
  /** Where the portal's sign-up starts, for the "not registered" hint. */
  server: string;
}

/**
 * An endpoint of the identity service's REST API (signInWithPassword, sendOobCode): the Auth emulator's when
 * the server runs on one.
 */
export function identityUrl(
  firebase: { apiKey: string; emulatorHost: string | null },
  method: 'signInWithPassword' | 'sendOobCode' = 'signInWithPassword',
): string {
  const root = firebase.emulatorHost
    ? `http://${firebase.emulatorHost}/identitytoolkit.googleapis.com`
    : 'https://identitytoolkit.googleapis.com';
  return `${root}/v1/accounts:${method}?key=${encodeURIComponent(firebase.apiKey)}`;
}

/** Firebase's error codes, as a person would want to read them. */
export function identityError(code: string): CliError {
  const key = code.split(/[ :]/)[0] ?? code;
  switch (key) {
    case 'EMAIL_NOT_FOUND':
    case 'INVALID_PASSWORD':
    case 'INVALID_LOGIN_CREDENTIALS':
      return new CliError('Wrong e-mail or password.', ExitCode.notSignedIn, {
        hint: 'Check them, or sign in through the portal with `waymark login` (no --email).',
      });
    case 'USER_DISABLED':
      return new CliError('This account has been disabled.', ExitCode.forbidden);
    case 'TOO_MANY_ATTEMPTS_TRY_LATER':
      return new CliError('Too many attempts for this account. Try again later.', ExitCode.unexpected);
    case 'INVALID_EMAIL':
      return new CliError('--email: Invalid email address', ExitCode.badInput);
    case 'MISSING_PASSWORD':
      return new CliError('--password: a password is required', ExitCode.badInput);
    default:
      return new CliError(`The identity service refused the sign-in: ${code}`, ExitCode.unexpected);
  }
}

export async function passwordLogin(client: Client, options: PasswordLoginOptions): Promise<SignedInResult> {
  const { signal } = options;
  const { data: publicConfig } = await client.call(config, { signal });
  const url = identityUrl(publicConfig.firebase);

  let res: Response;
  try {
    res = await options.fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: options.email, password: options.password, returnSecureToken: true }),
      signal,
    });
  } catch (err) {
    if (signal?.aborted) throw new CancelledError('Sign-in cancelled.');
    throw new CliError(
      `The identity service at ${new URL(url).origin} could not be reached.`,
      ExitCode.unreachable,
      { cause: err },
    );
  }
  const body = (await res.json().catch(() => ({}))) as { idToken?: string; error?: { message?: string } };
  if (!res.ok || !body.idToken) throw identityError(body.error?.message ?? `HTTP ${res.status}`);

  try {
    const { data } = await client.call(signInWithFirebase, {
      body: { token: body.idToken, device: 'CLI' },
      signal,
    });
    return data;
  } catch (err) {
    if (err instanceof ApiError && err.errorCode === 'NOT_REGISTERED') {
      throw new CliError(err.message, ExitCode.notFound, {
        hint: `${options.email} has no Waymark account yet. Sign up in the portal first: ${options.server}/who-i-am`,
        cause: err,
      });
    }
    if (err instanceof ApiError && err.errorCode === 'EMAIL_NOT_VERIFIED') {
      throw new CliError(err.message, ExitCode.forbidden, {
        hint: `Open the link in the verification e-mail sent to ${options.email}, then run \`waymark login\` again.`,
        cause: err,
      });
    }
    throw err;
  }
}

// ---- keeping the result

/**
 * Saves a new session for this server. A session it replaces is revoked on its server first (best
 * effort), so signing in again does not leave a live refresh token behind.
 */
export async function keepSession(
  sessions: SessionStore,
  server: string,
  result: SignedInResult,
  revoke: (previous: Session) => Promise<void>,
): Promise<Session> {
  const previous = sessions.load();
  const session: Session = {
    server,
    token: result.token,
    refreshToken: result.refreshToken,
    user: pickUser(result.user),
  };
  sessions.save(session);
  if (previous && previous.refreshToken !== result.refreshToken) await revoke(previous).catch(() => {});
  return session;
}

export function pickUser(user: SessionUser): SessionUser {
  return { _id: user._id, email: user.email, role: user.role, name: user.name };
}

/** Revokes a session's refresh token on its server. */
export async function revokeSession(client: Client, session: Session, signal?: AbortSignal): Promise<void> {
  await client.call(logout, { body: { refreshToken: session.refreshToken, device: 'CLI' }, signal });
}
