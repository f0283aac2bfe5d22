import { RefreshInput } from '@shared/schemas/user';
import { describe, expect, it } from 'vitest';
import { HeartbeatQueue } from './queue';
import { Sender } from './sender';
import { type Auth, authFrom, deviceOf, Session } from './session';
import type { Store } from './storage';

function memoryStore(): Store & { data: Map<string, unknown> } {
  const data = new Map<string, unknown>();
  return {
    data,
    async get<T>(key: string) {
      return structuredClone(data.get(key)) as T | undefined;
    },
    async set(key, value) {
      data.set(key, structuredClone(value));
    },
    async remove(key) {
      data.delete(key);
    },
  };
}

const jwt = (claims: object) => `x.${btoa(JSON.stringify(claims)).replace(/=+$/, '')}.y`;
const TOKEN = jwt({ sub: 'u1', dev: 'FIREFOX_EXTENSION' });
const REFRESH = 'r'.repeat(40);
const payload = {
  extensionAccessToken: TOKEN,
  extensionRefreshToken: REFRESH,
  uuid: 'u1',
  apiBase: 'http://127.0.0.1:8080/api/',
};

interface Seen {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
}
/** A server answering by `METHOD path`, recording every request. */
function server(routes: Record<string, (body: unknown) => Response | Promise<Response>>) {
  const seen: Seen[] = [];
  const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = String(input);
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    seen.push({ method: init?.method ?? 'GET', url, headers: init?.headers as Record<string, string>, body });
    const route = routes[`${init?.method ?? 'GET'} ${new URL(url).pathname}`];
    if (!route) throw new TypeError('Failed to fetch');
    return route(body);
  }) as typeof globalThis.fetch;
  return { fetch, seen };
}
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('the session of the extension', () => {
  it('takes tokens only for the server of the page that handed them over', () => {
    const auth = authFrom(payload, 'http://127.0.0.1:8080', 'CHROME_EXTENSION');
    expect(auth).toMatchObject({
      uuid: 'u1',
      apiBase: 'http://127.0.0.1:8080/api',
      portalOrigin: 'http://127.0.0.1:8080',
      // the device the tokens were issued for, not the browser's guess
      device: 'FIREFOX_EXTENSION',
    });
    expect(authFrom(payload, 'http://localhost:8080', 'CHROME_EXTENSION')).toBeNull();
    expect(
      authFrom({ ...payload, apiBase: 'not a url' }, 'http://127.0.0.1:8080', 'CHROME_EXTENSION'),
    ).toBeNull();
    expect(authFrom({ uuid: 'u1' }, 'http://127.0.0.1:8080', 'CHROME_EXTENSION')).toBeNull();
    expect(deviceOf('opaque', 'CHROME_EXTENSION')).toBe('CHROME_EXTENSION');
  });

  it("signs out through the contract's POST /login/logout, with this device's refresh token", async () => {
    const { fetch, seen } = server({ 'POST /api/login/logout': () => json(200, { message: 'ok' }) });
    const store = memoryStore();
    const session = new Session(store, { onRevoked: () => undefined, fetch });
    const auth = authFrom(payload, 'http://127.0.0.1:8080', 'CHROME_EXTENSION') as Auth;
    await session.save(auth);
    await session.forget();
    await session.revoke(auth);
    expect(store.data.has('auth')).toBe(false);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      method: 'POST',
      url: 'http://127.0.0.1:8080/api/login/logout',
      body: { refreshToken: REFRESH, device: 'FIREFOX_EXTENSION' },
    });
    expect(RefreshInput.safeParse(seen[0]!.body).success).toBe(true);
  });

  it('keeps refreshed tokens, and is told when the server refuses them', async () => {
    let revoked = 0;
    const fresh = jwt({ sub: 'u1', dev: 'FIREFOX_EXTENSION', n: 2 });
    const { fetch } = server({
      'GET /api/activity/tracked-resources': () => json(401, { message: 'expired' }),
      'POST /api/login/refresh': () => json(200, { data: { token: fresh, refreshToken: 's'.repeat(40) } }),
    });
    const store = memoryStore();
    const session = new Session(store, { onRevoked: () => revoked++, fetch });
    await session.save(authFrom(payload, 'http://127.0.0.1:8080', 'CHROME_EXTENSION'));
    // the repeated request fails again (401): not a refusal of the tokens, the list kept
    expect(await session.refreshTracked()).toBe('offline');
    expect((store.data.get('auth') as Auth).token).toBe(fresh);
    expect(revoked).toBe(0);

    const refusing = server({
      'GET /api/activity/tracked-resources': () => json(401, { message: 'expired' }),
      'POST /api/login/refresh': () => json(401, { message: 'revoked' }),
    });
    const other = new Session(memoryStore(), { onRevoked: () => revoked++, fetch: refusing.fetch });
    await other.save(authFrom(payload, 'http://127.0.0.1:8080', 'CHROME_EXTENSION'));
    await other.refreshTracked();
    expect(revoked).toBe(1);
  });

  it('lists the tracked resources and the learner, and keeps the list when offline', async () => {
    const resources = [{ resourceId: 'r1', url: 'https://example.com/guide/', title: 'Guide' }];
    let online = true;
    const { fetch } = server({
      'GET /api/activity/tracked-resources': () => {
        if (!online) throw new TypeError('Failed to fetch');
        return json(200, { data: { resources, user: { name: 'Esha', email: 'e@example.com' } } });
      },
    });
    const store = memoryStore();
    const session = new Session(store, { onRevoked: () => undefined, fetch });
    await session.save(authFrom(payload, 'http://127.0.0.1:8080', 'CHROME_EXTENSION'));
    expect(await session.refreshTracked()).toBe('ok');
    expect([...session.tracked.byKey]).toEqual([['example.com/guide', 'r1']]);
    expect(session.auth?.user).toEqual({ name: 'Esha', email: 'e@example.com' });
    online = false;
    expect(await session.refreshTracked()).toBe('offline');
    // a new start of the background reads the same from storage
    const restarted = new Session(store, { onRevoked: () => undefined, fetch });
    await restarted.load();
    expect(restarted.tracked.count).toBe(1);
    expect(restarted.tracked.title('r1')).toBe('Guide');
  });
});

describe('sending the queue', () => {
  const beat = (n: number) => ({
    id: `beat-${String(n).padStart(6, '0')}`,
    resourceId: '3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
    url: 'https://example.com/guide',
    time: 1_700_000_000_000 + n,
    tabActive: true,
    audible: false,
    user: 'u1',
  });

  async function setUp(answer: () => Response) {
    const { fetch, seen } = server({ 'POST /api/activity/heartbeats': answer });
    const store = memoryStore();
    const session = new Session(store, { onRevoked: () => undefined, fetch });
    await session.save(authFrom(payload, 'http://127.0.0.1:8080', 'CHROME_EXTENSION'));
    const queue = new HeartbeatQueue(store);
    const retries: number[] = [];
    let refused = 0;
    let now = 1_000_000;
    const sender = new Sender({
      store,
      queue,
      session,
      retryAt: async (when) => {
        retries.push(when);
      },
      onRefused: async () => {
        refused++;
      },
      now: () => now,
    });
    return { seen, queue, sender, retries, refused: () => refused, tick: (ms: number) => (now += ms) };
  }

  it('sends every 2 minutes or once 20 heartbeats wait', async () => {
    const t = await setUp(() => json(200, { message: 'ok' }));
    await t.queue.add([beat(1)]);
    await t.sender.whenDue();
    expect(t.seen).toHaveLength(1);
    await t.queue.add([beat(2)]);
    t.tick(60_000);
    await t.sender.whenDue();
    expect(t.seen).toHaveLength(1);
    await t.queue.add(Array.from({ length: 19 }, (_, i) => beat(3 + i)));
    await t.sender.whenDue();
    expect(t.seen).toHaveLength(2);
    expect(await t.queue.size()).toBe(0);
  });

  it('waits longer after each failure, with an alarm to try again, and stops when the tokens are refused', async () => {
    const t = await setUp(() => json(503, { message: 'busy' }));
    await t.queue.add([beat(1)]);
    await t.sender.flush();
    await t.sender.flush();
    expect(t.seen).toHaveLength(1);
    expect(t.retries).toHaveLength(2);
    expect(t.retries[1]).toBe(t.retries[0]);
    t.tick(10_000);
    await t.sender.flush();
    expect(t.seen).toHaveLength(2);
    expect(await t.queue.size()).toBe(1);

    const refusing = await setUp(() => json(403, { message: 'not yours' }));
    await refusing.queue.add([beat(1)]);
    await refusing.sender.flush();
    expect(refusing.refused()).toBe(1);
  });
});
