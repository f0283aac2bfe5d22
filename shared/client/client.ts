/**
 * The typed API client, derived from the contract. One place handles tokens:
 * a 401 makes it refresh once (single flight) and repeat the request; a failed refresh signs out
 * (the session is cleared and `onSignedOut` runs), and a call open to visitors (`optional`) is then repeated
 * without a token; a 403 and every other error reach the caller as ApiError.
 */

import type { z } from 'zod';
import { type CallDef, type CallInput, type CallSuccess, fillPath } from '../contract/define';
import type { Device, ErrorBody } from '../schemas/common';

export interface StoredTokens {
  token: string;
  refreshToken: string;
}

/** Where a client keeps its tokens: localStorage in the portal, a file for the CLI, storage in the extension. */
export interface TokenStore {
  get(): StoredTokens | null;
  /** Called with new tokens after a refresh. */
  update(tokens: StoredTokens): void;
  clear(): void;
}

export interface ClientOptions {
  /** The API root, e.g. `http://127.0.0.1:8080/api`. */
  baseUrl: string;
  device: Device;
  tokens?: TokenStore;
  fetch?: typeof fetch;
  /** Runs once a refresh has failed and the session was cleared. */
  onSignedOut?: () => void;
  /**
   * Runs a refresh under a lock shared by every tab (navigator.locks in the portal), so two tabs never
   * rotate the same refresh token — which the server would take for theft.
   */
  lock?: <T>(fn: () => Promise<T>) => Promise<T>;
  /**
   * Waits out a busy server: a 503 with Retry-After (the server shedding load, before it did anything) to a
   * call that is safe to repeat — GET, PUT, DELETE, or a POST declared `idempotent` — is sent again after
   * the seconds it asks, at most `attempts` more times. Without it every 503 reaches the caller.
   */
  busy?: BusyRetry;
  /**
   * The language the person reads the interface in (a BCP 47 tag), sent as Accept-Language with every
   * call, so that the server's messages come in it (decision 040). Without it the browser's own header goes.
   */
  language?: () => string | null | undefined;
}

export interface BusyRetry {
  /** How many times a call is sent again (after the first answer). */
  attempts: number;
  /** A wait longer than this (seconds) is not waited out: the 503 reaches the caller. Default 120. */
  maxWaitSeconds?: number;
  /** Told before each wait, to say so. */
  onWait?: (wait: { seconds: number; attempt: number; attempts: number; what: string }) => void;
}

/**
 * Sends (`send`) until the answer is not a 503 that `busy` waits out: the seconds of its Retry-After, at
 * most `busy.attempts` more times, never longer than `maxWaitSeconds`. Every call the client makes goes
 * through it when it is safe to repeat, and so do uploads to a signed address (a PUT), which are no call
 * of the contract. `what` names the request to onWait.
 */
export async function waitOutBusy(
  send: () => Promise<Response>,
  busy: BusyRetry | null | undefined,
  what: string,
  signal?: AbortSignal,
): Promise<Response> {
  for (let attempt = 0; ; attempt++) {
    const res = await send();
    if (res.status !== 503 || !busy || attempt >= busy.attempts) return res;
    const seconds = retryAfterOf(res.headers.get('retry-after'));
    if (seconds === null || seconds > (busy.maxWaitSeconds ?? 120)) return res;
    await res.body?.cancel().catch(() => {});
    busy.onWait?.({ seconds, attempt: attempt + 1, attempts: busy.attempts, what });
    await sleep(seconds * 1000, signal);
  }
}

/** Whether a call may be sent again without doing twice what it does. */
export function safeToRepeat(call: CallDef): boolean {
  return (
    call.method === 'GET' || call.method === 'PUT' || call.method === 'DELETE' || call.idempotent === true
  );
}

/** Resolves after `ms`, or rejects with the signal's reason when it is aborted first (Ctrl+C). */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export class ApiError extends Error {
  readonly status: number;
  readonly body: ErrorBody;
  /** Seconds the server asked to wait before trying again (Retry-After of a 503 or 429), when it said. */
  readonly retryAfter: number | null;
  constructor(status: number, body: ErrorBody, retryAfter: number | null = null) {
    super(body.message);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
    this.retryAfter = retryAfter;
  }
  get code() {
    return this.body.code;
  }
  get errorCode() {
    return this.body.errorCode;
  }
  get field() {
    return this.body.field;
  }
}

/** A Retry-After header in seconds: a number of seconds, or an HTTP date (RFC 9110 §10.2.3). */
export function retryAfterOf(header: string | null, now = Date.now()): number | null {
  if (!header) return null;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

/**
 * A network failure (server unreachable, connection dropped): what fetch rejects with, a TypeError (the
 * Fetch standard's network error). A `fetch` option that rejects with an error of its own — a verdict on
 * the answer it got, such as the CLI's "not a Waymark server" — is passed on as it is: an answer came.
 */
export class NetworkError extends Error {
  constructor(cause: unknown) {
    super('The server could not be reached. Check your connection and try again.');
    this.name = 'NetworkError';
    this.cause = cause;
  }
}

type OptionalKeys<C extends CallDef> = {
  [K in keyof CallInput<C>]: CallInput<C>[K] extends undefined ? K : never;
}[keyof CallInput<C>];
/** Whether a call cannot be made without arguments (it has params, a body, or a required query). */
type NeedsArgs<C extends CallDef> = C extends { params: z.ZodType }
  ? true
  : C extends { body: z.ZodType }
    ? true
    : C extends { query: infer Q extends z.ZodType }
      ? Record<string, never> extends z.input<Q>
        ? false
        : true
      : false;

export type CallArgs<C extends CallDef> = Omit<CallInput<C>, OptionalKeys<C>> &
  Partial<Pick<CallInput<C>, OptionalKeys<C>>> & { signal?: AbortSignal; headers?: Record<string, string> };

export function buildUrl(baseUrl: string, call: CallDef, params?: unknown, query?: unknown): string {
  let url = baseUrl.replace(/\/$/, '') + fillPath(call.path, params as Record<string, unknown> | undefined);
  if (query && typeof query === 'object') {
    const search = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) {
      if (v === undefined || v === null) continue;
      if (Array.isArray(v)) {
        for (const item of v) search.append(k, String(item));
      } else search.append(k, String(v));
    }
    const s = search.toString();
    if (s) url += `?${s}`;
  }
  return url;
}

async function readError(res: Response): Promise<ErrorBody> {
  try {
    const body = (await res.json()) as Partial<ErrorBody>;
    if (body && typeof body.message === 'string') {
      return { statusCode: res.status, error: body.error ?? res.statusText, ...body } as ErrorBody;
    }
  } catch {
    // not JSON
  }
  return { statusCode: res.status, error: res.statusText, message: res.statusText || 'Request failed' };
}

export interface Client {
  call<C extends CallDef>(
    call: C,
    ...args: NeedsArgs<C> extends true ? [CallArgs<C>] : [] | [CallArgs<C>]
  ): Promise<CallSuccess<C>>;
  /**
   * A call that answers a file (`download` in its declaration): the response, its body not read yet, so it
   * can be streamed; tokens are refreshed as for `call`, and a refusal throws ApiError the same way.
   */
  download<C extends CallDef>(
    call: C,
    ...args: NeedsArgs<C> extends true ? [CallArgs<C>] : [] | [CallArgs<C>]
  ): Promise<Response>;
  /** Refresh now (single flight); false when the refresh failed and the session was cleared. */
  refresh(stale?: string): Promise<boolean>;
  readonly options: ClientOptions;
}

export function createClient(options: ClientOptions): Client {
  const doFetch = options.fetch ?? ((...a: Parameters<typeof fetch>) => fetch(...a));
  let refreshing: Promise<boolean> | null = null;

  async function send(
    call: CallDef,
    args: Partial<CallArgs<CallDef>> | undefined,
    token: string | undefined,
  ) {
    const url = buildUrl(options.baseUrl, call, args?.params, args?.query);
    const headers: Record<string, string> = { accept: 'application/json', ...(args?.headers ?? {}) };
    let body: BodyInit | undefined;
    if (args?.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(args.body);
    }
    if (token && !headers.authorization) headers.authorization = `Bearer ${token}`;
    const language = options.language?.();
    if (language && !headers['accept-language']) headers['accept-language'] = language;
    try {
      return await doFetch(url, { method: call.method, headers, body, signal: args?.signal });
    } catch (err) {
      if (err instanceof TypeError) throw new NetworkError(err);
      throw err;
    }
  }

  async function refreshOnce(): Promise<boolean> {
    const stored = options.tokens?.get();
    if (!stored?.refreshToken) return false;
    const url = `${options.baseUrl.replace(/\/$/, '')}/login/refresh`;
    try {
      const res = await doFetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          authorization: `Bearer ${stored.refreshToken}`,
        },
        body: JSON.stringify({ refreshToken: stored.refreshToken, device: options.device }),
      });
      if (!res.ok) return false;
      const json = (await res.json()) as { data: StoredTokens };
      options.tokens?.update({ token: json.data.token, refreshToken: json.data.refreshToken });
      return true;
    } catch {
      // a network failure is not a revoked session: keep the tokens, let the caller see the failure
      throw new NetworkError('refresh');
    }
  }

  /** `stale` is the refresh token the failed request was made with: if another tab has rotated it since, use theirs. */
  function refresh(stale?: string): Promise<boolean> {
    if (!refreshing) {
      const run = async () => {
        const current = options.tokens?.get()?.refreshToken;
        if (stale && current && current !== stale) return true;
        return refreshOnce();
      };
      refreshing = (options.lock ? options.lock(run) : run())
        .then((ok) => {
          if (!ok) {
            options.tokens?.clear();
            options.onSignedOut?.();
          }
          return ok;
        })
        .finally(() => {
          refreshing = null;
        });
    }
    return refreshing;
  }

  async function respond(
    c: CallDef,
    args: CallArgs<CallDef> | undefined,
    accept?: string,
  ): Promise<Response> {
    const a = (accept ? { ...args, headers: { accept, ...(args?.headers ?? {}) } } : args) as
      | Partial<CallArgs<CallDef>>
      | undefined;
    const usesToken = c.access !== 'public';
    const busy = options.busy && safeToRepeat(c) ? options.busy : null;
    const res = await waitOutBusy(
      async () => {
        const before = usesToken ? options.tokens?.get() : null;
        const res = await send(c, a, before?.token);
        if (res.status !== 401 || !usesToken || !before?.refreshToken) return res;
        // another request (or tab) may have refreshed already while this one was in flight
        const ok = await refresh(before.refreshToken);
        if (ok) return send(c, a, options.tokens?.get()?.token);
        // a call anyone may make (a test link, an award) goes on as a visitor once the session has ended
        if (c.access === 'optional') return send(c, a, undefined);
        return res;
      },
      busy,
      `${c.method} ${c.path}`,
      a?.signal,
    );
    if (!res.ok)
      throw new ApiError(res.status, await readError(res), retryAfterOf(res.headers.get('retry-after')));
    return res;
  }

  async function call<C extends CallDef>(c: C, args?: CallArgs<C>): Promise<CallSuccess<C>> {
    const res = await respond(c, args as CallArgs<CallDef> | undefined);
    if (res.status === 204) return undefined as CallSuccess<C>;
    return (await res.json()) as CallSuccess<C>;
  }

  function download<C extends CallDef>(c: C, args?: CallArgs<C>): Promise<Response> {
    // the file's types, and JSON for a refusal
    const types = [...(c.download?.contentTypes ?? ['*/*']), 'application/json'];
    return respond(c, args as CallArgs<CallDef> | undefined, types.join(', '));
  }

  return { call: call as Client['call'], download: download as Client['download'], refresh, options };
}
