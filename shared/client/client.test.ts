import { describe, expect, it, vi } from 'vitest';
import { certificateInfo } from '../contract/awards';
import { countryList } from '../contract/lists';
import { deleteAccount, me } from '../contract/profile';
import {
  ApiError,
  createClient,
  NetworkError,
  retryAfterOf,
  type StoredTokens,
  type TokenStore,
} from './client';

const BASE = 'http://api.test/api';

interface Seen {
  url: string;
  method: string;
  authorization?: string;
  body?: unknown;
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const error = (status: number, message = 'nope', extra: object = {}) =>
  json(status, { statusCode: status, error: 'Error', message, ...extra });

/**
 * A stand-in for the network (never our server): accepts access tokens in `valid`, rotates refresh tokens
 * in `refreshable`, and records every request.
 */
function fakeApi(opts: {
  valid: Set<string>;
  refreshable: Map<string, StoredTokens>;
  refreshDelayMs?: number;
}) {
  const seen: Seen[] = [];
  const fetchStub = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const headers = (init?.headers ?? {}) as Record<string, string>;
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    seen.push({ url, method: init?.method ?? 'GET', authorization: headers.authorization, body });
    if (url.endsWith('/login/refresh')) {
      if (opts.refreshDelayMs) await new Promise((r) => setTimeout(r, opts.refreshDelayMs));
      const next = opts.refreshable.get(body.refreshToken);
      if (!next) return error(401, 'Your session has ended.', { errorCode: 'REFRESH_INVALID' });
      opts.refreshable.delete(body.refreshToken);
      opts.valid.add(next.token);
      return json(200, { data: next });
    }
    if (url.endsWith('/countries/list')) return json(200, { data: [{ code: 'IN', country: 'India' }] });
    if (url.includes('/certificate/certificate-info-v2/') && !headers.authorization) {
      return json(200, { data: { visitor: true } });
    }
    if (url.includes('/user/delete/')) return error(403, 'You can only delete your own account.');
    const token = headers.authorization?.replace(/^Bearer /, '');
    if (!token || !opts.valid.has(token)) return error(401, 'Your session has expired.');
    return json(200, { data: { token } });
  });
  return { fetch: fetchStub as unknown as typeof fetch, seen };
}

function memoryStore(initial: StoredTokens | null) {
  let current = initial;
  const store: TokenStore & { cleared: number } = {
    cleared: 0,
    get: () => current,
    update: (t) => {
      current = t;
    },
    clear: () => {
      current = null;
      store.cleared++;
    },
  };
  return store;
}

const refreshCalls = (seen: Seen[]) => seen.filter((s) => s.url.endsWith('/login/refresh'));

describe('the API client', () => {
  it('sends the access token and returns the success body', async () => {
    const api = fakeApi({ valid: new Set(['a1']), refreshable: new Map() });
    const client = createClient({
      baseUrl: BASE,
      device: 'WEB_APP',
      fetch: api.fetch,
      tokens: memoryStore({ token: 'a1', refreshToken: 'r1' }),
    });
    const res = await client.call(me);
    expect(res).toEqual({ data: { token: 'a1' } });
    expect(api.seen).toEqual([
      { url: `${BASE}/user/me`, method: 'GET', authorization: 'Bearer a1', body: undefined },
    ]);
  });

  it('on a 401 refreshes once and repeats the request with the new token', async () => {
    const api = fakeApi({
      valid: new Set(),
      refreshable: new Map([['r1', { token: 'a2', refreshToken: 'r2' }]]),
    });
    const tokens = memoryStore({ token: 'expired', refreshToken: 'r1' });
    const client = createClient({ baseUrl: BASE, device: 'CLI', fetch: api.fetch, tokens });

    const res = await client.call(me);
    expect(res).toEqual({ data: { token: 'a2' } });
    expect(api.seen.map((s) => `${s.method} ${s.url.replace(BASE, '')} ${s.authorization ?? ''}`)).toEqual([
      'GET /user/me Bearer expired',
      'POST /login/refresh Bearer r1',
      'GET /user/me Bearer a2',
    ]);
    expect(refreshCalls(api.seen)[0]?.body).toEqual({ refreshToken: 'r1', device: 'CLI' });
    expect(tokens.get()).toEqual({ token: 'a2', refreshToken: 'r2' });
  });

  it('shares one refresh between requests that fail at the same time', async () => {
    const api = fakeApi({
      valid: new Set(),
      refreshable: new Map([['r1', { token: 'a2', refreshToken: 'r2' }]]),
      refreshDelayMs: 20,
    });
    const tokens = memoryStore({ token: 'expired', refreshToken: 'r1' });
    const onSignedOut = vi.fn();
    const client = createClient({ baseUrl: BASE, device: 'WEB_APP', fetch: api.fetch, tokens, onSignedOut });

    const results = await Promise.all([client.call(me), client.call(me), client.call(me)]);
    expect(results).toEqual([
      { data: { token: 'a2' } },
      { data: { token: 'a2' } },
      { data: { token: 'a2' } },
    ]);
    expect(refreshCalls(api.seen)).toHaveLength(1);
    expect(onSignedOut).not.toHaveBeenCalled();
  });

  it('uses tokens another tab already rotated instead of rotating them again', async () => {
    const api = fakeApi({ valid: new Set(['a2']), refreshable: new Map() });
    const tokens = memoryStore({ token: 'expired', refreshToken: 'r1' });
    // another tab refreshes while this request is in flight
    const slowFetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const res = await api.fetch(input, init);
      if (res.status === 401) tokens.update({ token: 'a2', refreshToken: 'r2' });
      return res;
    }) as typeof fetch;
    const client = createClient({ baseUrl: BASE, device: 'WEB_APP', fetch: slowFetch, tokens });
    expect(await client.call(me)).toEqual({ data: { token: 'a2' } });
    expect(refreshCalls(api.seen)).toHaveLength(0);
  });

  it('signs out when the refresh fails: clears the tokens, calls onSignedOut once, and reports the 401', async () => {
    const api = fakeApi({ valid: new Set(), refreshable: new Map() });
    const tokens = memoryStore({ token: 'expired', refreshToken: 'revoked' });
    const onSignedOut = vi.fn();
    const client = createClient({ baseUrl: BASE, device: 'WEB_APP', fetch: api.fetch, tokens, onSignedOut });

    const failures = await Promise.allSettled([client.call(me), client.call(me)]);
    for (const f of failures) {
      expect(f.status).toBe('rejected');
      const reason = (f as PromiseRejectedResult).reason as ApiError;
      expect(reason).toBeInstanceOf(ApiError);
      expect(reason.status).toBe(401);
    }
    expect(tokens.get()).toBeNull();
    expect(tokens.cleared).toBe(1);
    expect(onSignedOut).toHaveBeenCalledTimes(1);
    expect(refreshCalls(api.seen)).toHaveLength(1);
  });

  it('goes on as a visitor when the session has ended on a call anyone may make (an award page)', async () => {
    const api = fakeApi({ valid: new Set(), refreshable: new Map() });
    const tokens = memoryStore({ token: 'expired', refreshToken: 'revoked' });
    const onSignedOut = vi.fn();
    const client = createClient({ baseUrl: BASE, device: 'WEB_APP', fetch: api.fetch, tokens, onSignedOut });

    const info = await client.call(certificateInfo, { params: { id: 'AbCdEfGhIjKlMnOp' } });
    expect(info).toEqual({ data: { visitor: true } });
    expect(onSignedOut).toHaveBeenCalledTimes(1);
    expect(tokens.get()).toBeNull();
    const awards = api.seen.filter((s) => s.url.includes('/certificate/'));
    expect(awards.map((s) => s.authorization)).toEqual(['Bearer expired', undefined]);
  });

  it("carries a shed 503's Retry-After (seconds or an HTTP date) so the caller can wait as asked", async () => {
    const busy = (retryAfter: string) =>
      vi.fn(
        async () =>
          new Response(JSON.stringify({ statusCode: 503, error: 'Service Unavailable', message: 'busy' }), {
            status: 503,
            headers: { 'content-type': 'application/json', 'retry-after': retryAfter },
          }),
      );
    const call = (stub: ReturnType<typeof busy>) =>
      createClient({ baseUrl: BASE, device: 'WEB_APP', fetch: stub as unknown as typeof fetch }).call(
        countryList,
      );
    await expect(call(busy('7'))).rejects.toMatchObject({ status: 503, retryAfter: 7 });
    const inTwoMinutes = new Date(Date.now() + 120_000).toUTCString();
    const err = (await call(busy(inTwoMinutes)).catch((e: unknown) => e)) as ApiError;
    expect(err.retryAfter).toBeGreaterThanOrEqual(119);
    expect(err.retryAfter).toBeLessThanOrEqual(120);
    expect(retryAfterOf(null)).toBeNull();
    expect(retryAfterOf('soon')).toBeNull();
  });

  it('refreshes only once when the repeated request is refused again', async () => {
    // the refresh succeeds, but the server still refuses the call (e.g. the account was just removed)
    const stub = vi.fn(async (input: RequestInfo | URL) =>
      String(input).endsWith('/login/refresh')
        ? json(200, { data: { token: 'a2', refreshToken: 'r2' } })
        : error(401, 'This account no longer exists.'),
    );
    const client = createClient({
      baseUrl: BASE,
      device: 'WEB_APP',
      fetch: stub as unknown as typeof fetch,
      tokens: memoryStore({ token: 'expired', refreshToken: 'r1' }),
    });
    await expect(client.call(me)).rejects.toMatchObject({ status: 401 });
    expect(stub).toHaveBeenCalledTimes(3);
  });

  it('passes a 403 on without refreshing or signing out', async () => {
    const api = fakeApi({ valid: new Set(['a1']), refreshable: new Map() });
    const tokens = memoryStore({ token: 'a1', refreshToken: 'r1' });
    const onSignedOut = vi.fn();
    const client = createClient({ baseUrl: BASE, device: 'WEB_APP', fetch: api.fetch, tokens, onSignedOut });

    const err = await client
      .call(deleteAccount, {
        params: { userId: '7f1c7a3e-2b1d-4c55-9a43-2f9f0c1f7a10' },
        body: { deleteReason: 'Not useful', isDeleted: true },
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(403);
    expect((err as ApiError).message).toBe('You can only delete your own account.');
    expect(refreshCalls(api.seen)).toHaveLength(0);
    expect(onSignedOut).not.toHaveBeenCalled();
    expect(tokens.get()).toEqual({ token: 'a1', refreshToken: 'r1' });
    expect(api.seen[0]).toMatchObject({
      method: 'PUT',
      url: `${BASE}/user/delete/7f1c7a3e-2b1d-4c55-9a43-2f9f0c1f7a10`,
      body: { deleteReason: 'Not useful', isDeleted: true },
    });
  });

  it('sends no token to public calls', async () => {
    const api = fakeApi({ valid: new Set(), refreshable: new Map() });
    const client = createClient({
      baseUrl: BASE,
      device: 'WEB_APP',
      fetch: api.fetch,
      tokens: memoryStore({ token: 'a1', refreshToken: 'r1' }),
    });
    await client.call(countryList);
    expect(api.seen[0]?.authorization).toBeUndefined();
  });

  it('reports an unreachable server as a NetworkError and keeps the session', async () => {
    const tokens = memoryStore({ token: 'a1', refreshToken: 'r1' });
    const client = createClient({
      baseUrl: BASE,
      device: 'WEB_APP',
      fetch: (async () => {
        throw new TypeError('fetch failed');
      }) as typeof fetch,
      tokens,
    });
    await expect(client.call(me)).rejects.toBeInstanceOf(NetworkError);
    expect(tokens.get()).not.toBeNull();
  });

  it('passes on as it is what a fetch option rejects with of its own (an answer came: it is no network failure)', async () => {
    const verdict = new Error('http://x answered, but it is not a Waymark server');
    const client = createClient({
      baseUrl: BASE,
      device: 'WEB_APP',
      fetch: (async () => {
        throw verdict;
      }) as typeof fetch,
    });
    await expect(client.call(me)).rejects.toBe(verdict);
  });
});
