/**
 * Ending a session takes effect at once, not when its access token expires (15 minutes): logout, the
 * revocation of a session whose refresh token was reused, and account deletion stop every access token of
 * the session(s) on the next request — on every server process sharing the database, since nothing about a
 * session is kept in one process. Other sessions of the same person go on.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { setupServer } from '../test/helper';

const server = setupServer();
/** A second server process on the same database. */
let other: FastifyInstance;

beforeAll(async () => {
  other = await buildApp({ config: server.config, database: server.database, logger: false });
  await other.ready();
});
afterAll(() => other?.close());

const me = async (token: string) => {
  const here = await server.get('/api/user/me', { token });
  const there = await other.inject({
    method: 'GET',
    url: '/api/user/me',
    headers: { authorization: `Bearer ${token}` },
  });
  return { here: here.status, there: there.statusCode, errorCode: here.body.errorCode as string | undefined };
};
const refresh = (refreshToken: string, device = 'WEB_APP') =>
  server.post('/api/login/refresh', { refreshToken, device });

describe('signing out everywhere takes effect now', () => {
  it('logout stops the access token of that session at once, on every process; another session goes on', async () => {
    const person = await server.signedIn('USER');
    const laptop = await server.signIn(person.account);
    expect(await me(person.token)).toMatchObject({ here: 200, there: 200 });
    const out = await server.post('/api/login/logout', {
      refreshToken: person.refreshToken,
      device: 'WEB_APP',
    });
    expect(out.status).toBe(200);
    expect(await me(person.token)).toEqual({ here: 401, there: 401, errorCode: 'SESSION_REVOKED' });
    expect((await me(laptop.body.data.token)).here).toBe(200);
  });

  it('a reused refresh token stops the access tokens the session ever handed out', async () => {
    const person = await server.signedIn('USER');
    const rotated = await refresh(person.refreshToken);
    expect(rotated.status).toBe(200);
    const newest = await refresh(rotated.body.data.refreshToken);
    expect(newest.status).toBe(200);
    const replay = await refresh(person.refreshToken);
    expect(replay.body.errorCode).toBe('REFRESH_REUSED');
    for (const token of [person.token, rotated.body.data.token as string, newest.body.data.token as string]) {
      expect(await me(token)).toEqual({ here: 401, there: 401, errorCode: 'SESSION_REVOKED' });
    }
  });

  it("account deletion stops every session's access tokens, the extension's included", async () => {
    const person = await server.signedIn('USER');
    const ext = await server.get('/api/login/socket-token', {
      ...person.auth,
      query: { device: 'CHROME_EXTENSION' },
    });
    const extensionToken = ext.body.data.extensionAccessToken as string;
    expect((await me(extensionToken)).here).toBe(200);
    const res = await server.put(
      `/api/user/delete/${person.user._id}`,
      { deleteReason: 'Not useful', isDeleted: true },
      person.auth,
    );
    expect(res.status).toBe(200);
    for (const token of [person.token, extensionToken]) {
      const after = await me(token);
      expect(after.here).toBe(401);
      expect(after.there).toBe(401);
    }
    // signing in again within the grace period cancels the deletion and starts a fresh session
    const back = await server.signIn(person.account);
    expect(back.status).toBe(200);
    expect((await me(back.body.data.token)).here).toBe(200);
    expect((await me(person.token)).here).toBe(401);
  });

  it('refuses an access token whose session the server does not know', async () => {
    const person = await server.signedIn('USER');
    const forged = await server.app.services.tokens.signAccess({
      sub: person.user._id,
      role: 'USER',
      dev: 'WEB_APP',
      fam: '00000000-0000-4000-8000-000000000000',
    });
    expect(await me(forged)).toEqual({ here: 401, there: 401, errorCode: 'SESSION_REVOKED' });
  });
});
