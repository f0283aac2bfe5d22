/**
 * What every command handler receives: the resolved server, the output mode, the session store, HTTP,
 * and the API clients (anonymous, or signed in through WAYMARK_API_KEY, WAYMARK_TOKEN or the stored session).
 */
import { ApiError, type Client, createClient, type TokenStore } from '@shared/client/client';
import { CHECK_ADDRESS, CliError, ExitCode, usageError } from './errors';
import type { Http } from './http';
import { Output, resolveOutputMode } from './output';
import type { Session, SessionStore } from './session';

export const DEFAULT_SERVER = 'http://127.0.0.1:8080';

/** How many times a call the server turned away busy (503 with Retry-After) is sent again. */
export const BUSY_ATTEMPTS = 3;

export type Env = Record<string, string | undefined>;

export interface Io {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
}

/** The options every command accepts. */
export interface GlobalOptions {
  server?: string;
  /** true for --json, false for --no-json, undefined when neither was given. */
  json?: boolean;
}

/** `https://host/api/` → `https://host`; anything but an http(s) URL is a usage error naming its source. */
export function normalizeServer(value: string, source: string): string {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw usageError(`${source}: "${value}" is not a URL`, 'Give the server as http://host:port.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw usageError(`${source}: must be an http:// or https:// URL`);
  const path = url.pathname.replace(/\/+$/, '').replace(/\/api$/, '');
  return `${url.origin}${path}`;
}

export type ServerSource = '--server' | 'WAYMARK_SERVER' | 'session' | 'default';

/** --server, else WAYMARK_SERVER, else the server of the stored session, else the local default. */
export function resolveServer(
  flag: string | undefined,
  env: Env,
  session: Session | null,
): { server: string; source: ServerSource } {
  if (flag) return { server: normalizeServer(flag, '--server'), source: '--server' };
  if (env.WAYMARK_SERVER) {
    return { server: normalizeServer(env.WAYMARK_SERVER, 'WAYMARK_SERVER'), source: 'WAYMARK_SERVER' };
  }
  if (session) return { server: session.server, source: 'session' };
  return { server: DEFAULT_SERVER, source: 'default' };
}

export interface SignedIn {
  client: Client;
  /** Where the credential came from: an API key, a script's access token, or the stored session. */
  source: 'WAYMARK_API_KEY' | 'WAYMARK_TOKEN' | 'session';
  session: Session | null;
}

export interface Context {
  readonly server: string;
  readonly serverSource: ServerSource;
  readonly output: Output;
  readonly io: Io;
  readonly env: Env;
  readonly sessions: SessionStore;
  readonly http: Http;
  /** Aborted on Ctrl+C. */
  readonly signal: AbortSignal;
  cancel(): void;
  /** A client for public calls. */
  api(): Client;
  /** A client for public calls to another server (where an older session was kept). */
  apiFor(server: string): Client;
  /** A client that sends the signed-in person's token; throws (exit 3) when nobody is signed in here. */
  signedIn(): SignedIn;
}

export interface ContextDeps {
  io: Io;
  env: Env;
  sessions: SessionStore;
  http: Http;
  controller: AbortController;
}

/** Whether a request's Accept header names the answer's media type (a download asks for text/csv…). */
function asked(init: RequestInit | undefined, type: string): boolean {
  const media = type.split(';')[0]!.trim().toLowerCase();
  if (!media) return false;
  const accept = new Headers(init?.headers).get('accept') ?? '';
  return accept
    .split(',')
    .map((a) => a.split(';')[0]!.trim().toLowerCase())
    .includes(media);
}

/**
 * Every answer of a Waymark server's API is JSON (its errors too), except a file a download asked for by
 * its type: an answer that is neither — a web site's HTML page, a proxy's error page, another service on
 * that port — means the address is not a Waymark server, and says so instead of a puzzling "HTTP 404" or a
 * parse error. The address did answer: the error names the request and its answer
 * (`http://x answered, but it is not a Waymark server (GET /api/user/me → 404 text/html; …).`), never "could
 * not be reached", which is for no answer at all (the client's NetworkError).
 */
export function waymarkOnly(fetch: typeof globalThis.fetch, root: string): typeof globalThis.fetch {
  return (async (input: Parameters<typeof globalThis.fetch>[0], init?: RequestInit) => {
    const res = await fetch(input, init);
    const type = res.headers.get('content-type') ?? '';
    const request = `${(init?.method ?? 'GET').toUpperCase()} ${new URL(String(input instanceof Request ? input.url : input)).pathname}`;
    const notWaymark = (what: string) =>
      new CliError(
        `${root} answered, but it is not a Waymark server (${request} → ${res.status} ${what}).`,
        ExitCode.unreachable,
        { hint: CHECK_ADDRESS },
      );
    if (res.status !== 204 && !/json/i.test(type) && !(res.ok && asked(init, type))) {
      await res.body?.cancel().catch(() => {});
      throw notWaymark(`${type.split(';')[0] || 'with no content type'}; Waymark's API answers JSON`);
    }
    if (!res.ok && /json/i.test(type)) {
      // another JSON service on that address (the Auth emulator, an API gateway) answers errors of its own
      // shape; Waymark's always carry statusCode and message (ErrorBody)
      const text = await res.text();
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = null;
      }
      const own =
        typeof body === 'object' &&
        body !== null &&
        typeof (body as { statusCode?: unknown }).statusCode === 'number' &&
        typeof (body as { message?: unknown }).message === 'string';
      if (!own) throw notWaymark('JSON that is not a Waymark error');
      return new Response(text, { status: res.status, statusText: res.statusText, headers: res.headers });
    }
    return res;
  }) as typeof globalThis.fetch;
}

export function createContext(globals: GlobalOptions, deps: ContextDeps): Context {
  const { io, env, sessions, http, controller } = deps;
  const stored = sessions.load();
  const { server, source } = resolveServer(globals.server, env, stored);
  const output = new Output(resolveOutputMode(globals.json, io.stdout, env), io);

  const make = (tokens?: TokenStore, lock?: <T>(fn: () => Promise<T>) => Promise<T>, root = server) =>
    createClient({
      baseUrl: `${root}/api`,
      device: 'CLI',
      fetch: waymarkOnly(http.fetch, root),
      // a server shedding load (503 + Retry-After) did nothing yet: calls safe to repeat wait and go again
      busy: {
        attempts: BUSY_ATTEMPTS,
        onWait: ({ seconds, attempt, attempts }) =>
          output.note(
            `The server is busy: waiting ${seconds} s before trying again (${attempt} of ${attempts}).`,
          ),
      },
      ...(tokens ? { tokens, lock } : {}),
    });

  return {
    server,
    serverSource: source,
    output,
    io,
    env,
    sessions,
    http,
    signal: controller.signal,
    cancel: () => controller.abort(),
    api: () => make(),
    apiFor: (other) => make(undefined, undefined, other),
    signedIn() {
      // an API key (decision 039) first, then a script's access token: each sent as is, never refreshed,
      // never saved
      for (const source of ['WAYMARK_API_KEY', 'WAYMARK_TOKEN'] as const) {
        const envToken = env[source]?.trim();
        if (!envToken) continue;
        const tokens: TokenStore = {
          get: () => ({ token: envToken, refreshToken: '' }),
          update: () => {},
          clear: () => {},
        };
        return { client: explain(make(tokens), source), source, session: null };
      }
      const session = sessions.load();
      if (!session) {
        throw new CliError('Not signed in.', ExitCode.notSignedIn, {
          hint: `Run \`waymark login${source === 'default' ? '' : ` --server ${server}`}\` first, or set WAYMARK_API_KEY (or WAYMARK_TOKEN).`,
        });
      }
      if (session.server !== server) {
        // never send one server's tokens to another
        throw new CliError(
          `Not signed in to ${server} (the stored session is for ${session.server}).`,
          ExitCode.notSignedIn,
          {
            hint: `Run \`waymark login --server ${server}\`, or set WAYMARK_TOKEN.`,
          },
        );
      }
      const client = make(sessions.tokenStore(session), (fn) => sessions.lock(fn));
      return { client: explain(client, 'session'), source: 'session', session };
    },
  };
}

/**
 * Turns a final 401 (the refresh failed, or the script's token was refused) into "not signed in", and the
 * role guard's 403 into a line that says which role the command needs.
 */
function explain(client: Client, source: SignedIn['source']): Client {
  const translate = (err: unknown): never => {
    if (err instanceof ApiError && err.status === 401) {
      throw new CliError(
        source === 'session'
          ? `Your session has expired or was revoked: ${err.message}`
          : `${source} was refused: ${err.message}`,
        ExitCode.notSignedIn,
        {
          hint: {
            WAYMARK_API_KEY:
              'Make a new key in the portal (Integrations → API keys) or with `waymark keys create`, or unset WAYMARK_API_KEY.',
            WAYMARK_TOKEN:
              'Access tokens are short-lived: get a fresh one, or unset WAYMARK_TOKEN and run `waymark login`.',
            session: 'Run `waymark login` again.',
          }[source],
          cause: err,
        },
      );
    }
    if (
      err instanceof ApiError &&
      err.status === 403 &&
      /^API_KEY_(SCOPE|NOT_ALLOWED)$/.test(err.errorCode ?? '')
    ) {
      // an API key on a call its scopes do not name, or that no key may make
      throw new CliError(err.message, ExitCode.forbidden, {
        hint:
          err.errorCode === 'API_KEY_SCOPE'
            ? 'Use a key with that scope (`waymark keys create … --scopes …`), or unset WAYMARK_API_KEY to act as the person signed in here.'
            : 'Unset WAYMARK_API_KEY and run `waymark login`: this needs a person, not a key.',
        cause: err,
      });
    }
    if (err instanceof ApiError && err.status === 403 && err.message === 'Not permitted') {
      // the role guard (mentor §6): say whose commands these are
      throw new CliError(err.message, ExitCode.forbidden, {
        hint: 'This needs a mentor account (role TENANT); `waymark whoami` shows who this terminal is signed in as.',
        cause: err,
      });
    }
    throw err;
  };
  const call = (async (...args: Parameters<Client['call']>) => {
    try {
      return await (client.call as (...a: unknown[]) => Promise<unknown>)(...args);
    } catch (err) {
      return translate(err);
    }
  }) as Client['call'];
  const download = (async (...args: Parameters<Client['download']>) => {
    try {
      return await (client.download as (...a: unknown[]) => Promise<Response>)(...args);
    } catch (err) {
      return translate(err);
    }
  }) as Client['download'];
  return { ...client, call, download };
}
