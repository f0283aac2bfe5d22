import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@shared/client/client';
import { me } from '@shared/contract/profile';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configDir, type Session, SessionStore } from './session';

let dir: string;
let store: SessionStore;
const user = {
  _id: '6f1c2f5e-0000-4000-8000-000000000001',
  email: 'asha@example.com',
  role: 'USER',
  name: 'Asha',
};
const session: Session = {
  server: 'http://127.0.0.1:8080',
  token: 'access-1',
  refreshToken: 'refresh-1-aaaaaaaaaaaaaaaaaaaa',
  user,
};
const mode = (file: string) => statSync(file).mode & 0o777;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'waymark-session-'));
  store = new SessionStore(join(dir, 'waymark', 'session.json'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('where the session is kept', () => {
  it('is $XDG_CONFIG_HOME/waymark, else ~/.config/waymark', () => {
    expect(configDir({ XDG_CONFIG_HOME: '/xdg' }, '/home/asha')).toBe('/xdg/waymark');
    expect(configDir({}, '/home/asha')).toBe('/home/asha/.config/waymark');
    // a relative XDG_CONFIG_HOME is invalid by the XDG spec and ignored
    expect(configDir({ XDG_CONFIG_HOME: 'rel' }, '/home/asha')).toBe('/home/asha/.config/waymark');
  });
});

describe('the session store', () => {
  it('saves a file only its owner can read, in a folder only its owner can enter', () => {
    store.save(session);
    expect(mode(store.file)).toBe(0o600);
    expect(mode(join(dir, 'waymark'))).toBe(0o700);
    expect(store.load()).toMatchObject(session);
  });

  it('tightens a file that was readable by others when it saves', () => {
    // e.g. copied in by hand
    store.save(session);
    rmSync(store.file);
    writeFileSync(store.file, JSON.stringify(session), { mode: 0o644 });
    expect(mode(store.file)).toBe(0o644);
    store.save({ ...session, token: 'access-2' });
    expect(mode(store.file)).toBe(0o600);
  });

  it('reads a missing or damaged file as "not signed in"', () => {
    expect(store.load()).toBeNull();
    store.save(session);
    writeFileSync(store.file, '{ not json');
    expect(store.load()).toBeNull();
    writeFileSync(store.file, JSON.stringify({ server: 'x' }));
    expect(store.load()).toBeNull();
    // each field checked as the file's shape says: an empty token, a user without an e-mail, a numeric name
    for (const broken of [
      { ...session, token: '' },
      { ...session, refreshToken: 7 },
      { ...session, user: { ...session.user, email: undefined } },
      { ...session, user: { ...session.user, name: 3 } },
      { ...session, savedAt: 12 },
      [session],
    ]) {
      writeFileSync(store.file, JSON.stringify(broken));
      expect(store.load()).toBeNull();
    }
    // a user's other fields are kept as they were saved
    writeFileSync(store.file, JSON.stringify({ ...session, user: { ...session.user, avatar: 'a.png' } }));
    expect(store.load()?.user).toMatchObject({ ...session.user, avatar: 'a.png' });
  });

  it('deletes the session', () => {
    store.save(session);
    expect(store.clear()).toBe(true);
    expect(store.load()).toBeNull();
    expect(store.clear()).toBe(false);
  });

  it('runs one refresh at a time across processes (a lock file)', async () => {
    const order: string[] = [];
    const slow = (name: string) =>
      store.lock(async () => {
        order.push(`${name} in`);
        await new Promise((r) => setTimeout(r, 30));
        order.push(`${name} out`);
      });
    await Promise.all([slow('a'), slow('b')]);
    expect(order).toEqual(['a in', 'a out', 'b in', 'b out']);
  });
});

describe('a refresh through the shared client', () => {
  /** A server whose access token "access-1" has expired and which rotates refresh-1 into refresh-2. */
  const server = (calls: string[]) =>
    (async (input: string | URL | Request, init?: RequestInit) => {
      const url = String(input);
      const auth = new Headers(init?.headers).get('authorization');
      calls.push(`${init?.method} ${new URL(url).pathname} ${auth ?? ''}`);
      if (url.endsWith('/login/refresh')) {
        const body = JSON.parse(String(init?.body)) as { refreshToken: string; device: string };
        if (body.refreshToken !== session.refreshToken || body.device !== 'CLI')
          return Response.json(
            { statusCode: 401, error: 'Unauthorized', message: 'Please sign in again.' },
            { status: 401 },
          );
        return Response.json({ data: { token: 'access-2', refreshToken: 'refresh-2-bbbbbbbbbbbbbbbbbbbb' } });
      }
      if (auth !== 'Bearer access-2')
        return Response.json(
          { statusCode: 401, error: 'Unauthorized', message: 'Token expired' },
          { status: 401 },
        );
      return Response.json({ data: { ...user, role: 'USER' } });
    }) as typeof fetch;

  it('saves the rotated tokens to the file, still owner-only', async () => {
    store.save(session);
    const calls: string[] = [];
    const client = createClient({
      baseUrl: 'http://127.0.0.1:8080/api',
      device: 'CLI',
      fetch: server(calls),
      tokens: store.tokenStore(session),
      lock: (fn) => store.lock(fn),
    });
    const { data } = await client.call(me);
    expect(data.email).toBe('asha@example.com');
    expect(calls).toEqual([
      'GET /api/user/me Bearer access-1',
      `POST /api/login/refresh Bearer ${session.refreshToken}`,
      'GET /api/user/me Bearer access-2',
    ]);
    const saved = store.load();
    expect(saved).toMatchObject({ token: 'access-2', refreshToken: 'refresh-2-bbbbbbbbbbbbbbbbbbbb', user });
    expect(mode(store.file)).toBe(0o600);
  });

  it('uses tokens another process has already rotated instead of rotating them twice', async () => {
    store.save(session);
    const tokens = store.tokenStore(session);
    // another `waymark` refreshed meanwhile
    store.save({ ...session, token: 'access-2', refreshToken: 'refresh-2-bbbbbbbbbbbbbbbbbbbb' });
    expect(tokens.get()).toEqual({ token: 'access-2', refreshToken: 'refresh-2-bbbbbbbbbbbbbbbbbbbb' });
  });

  it('deletes the session when the refresh is refused', async () => {
    store.save({ ...session, refreshToken: 'revoked-cccccccccccccccccccc' });
    const client = createClient({
      baseUrl: 'http://127.0.0.1:8080/api',
      device: 'CLI',
      fetch: server([]),
      tokens: store.tokenStore(store.load()!),
    });
    await expect(client.call(me)).rejects.toMatchObject({ status: 401 });
    expect(store.load()).toBeNull();
  });
});
