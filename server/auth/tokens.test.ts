import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Db } from '../db/client';
import type { TtlCache } from '../lib/ttl-cache';
import { setupServer } from '../test/helper';
import { sha256, TokenService, VERIFIED_CACHE_SIZE } from './tokens';

const server = setupServer();

const refresh = (refreshToken: string, device = 'WEB_APP') =>
  server.post('/api/login/refresh', { refreshToken, device });

describe('the access token', () => {
  it('is required by calls for signed-in people', async () => {
    const res = await server.get('/api/user/me');
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ statusCode: 401, errorCode: 'TOKEN_MISSING' });
  });

  it('is refused when it is not one of ours', async () => {
    const res = await server.get('/api/user/me', { token: 'eyJhbGciOiJIUzI1NiJ9.e30.bad-signature' });
    expect(res.status).toBe(401);
    expect(res.body.errorCode).toBe('TOKEN_INVALID');
  });
});

describe('a verified access token remembered by the process', () => {
  const config = {
    jwtSecret: 'tokens-test-secret-tokens-test-secret-0123',
    accessTokenTtl: 60,
    refreshTokenTtl: 3600,
    publicUrl: 'http://localhost',
  };
  const claims = {
    sub: '11111111-1111-4111-8111-111111111111',
    role: 'USER' as const,
    dev: 'WEB_APP' as const,
    fam: '22222222-2222-4222-8222-222222222222',
  };
  // verifyAccess reads no database: the session is checked by the caller (current-user.ts)
  const service = () => new TokenService(null as unknown as Db, config);
  afterEach(() => vi.useRealTimers());

  it('still expires when its exp passes, though its signature was checked before', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-25T09:00:00Z'));
    const tokens = service();
    const token = await tokens.signAccess(claims);
    expect(await tokens.verifyAccess(token)).toEqual(claims);
    vi.setSystemTime(new Date('2026-11-25T09:00:59Z'));
    expect(await tokens.verifyAccess(token)).toEqual(claims);
    vi.setSystemTime(new Date('2026-11-25T09:01:00Z'));
    await expect(tokens.verifyAccess(token)).rejects.toMatchObject({ extra: { errorCode: 'TOKEN_EXPIRED' } });
  });

  it('never lends its claims to another string: a changed signature or payload is checked and refused', async () => {
    const tokens = service();
    const token = await tokens.signAccess(claims);
    await tokens.verifyAccess(token);
    const [head, body, signature] = token.split('.');
    const flipped = `${signature!.slice(0, -2)}${signature!.endsWith('AA') ? 'BB' : 'AA'}`;
    await expect(tokens.verifyAccess(`${head}.${body}.${flipped}`)).rejects.toMatchObject({
      extra: { errorCode: 'TOKEN_INVALID' },
    });
    const admin = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(body!, 'base64url').toString()), role: 'ADMIN' }),
    ).toString('base64url');
    await expect(tokens.verifyAccess(`${head}.${admin}.${signature}`)).rejects.toMatchObject({
      extra: { errorCode: 'TOKEN_INVALID' },
    });
    // a token of another secret (another deployment) is not one of ours, whatever this process knows
    const elsewhere = await new TokenService(null as unknown as Db, {
      ...config,
      jwtSecret: 'another-secret-another-secret-another-0123',
    }).signAccess(claims);
    await expect(tokens.verifyAccess(elsewhere)).rejects.toMatchObject({
      extra: { errorCode: 'TOKEN_INVALID' },
    });
  });

  it('keeps at most VERIFIED_CACHE_SIZE tokens, forgetting the oldest; a forgotten one still verifies', async () => {
    const tokens = service();
    const first = await tokens.signAccess(claims);
    await tokens.verifyAccess(first);
    const remembered = (tokens as unknown as { verified: TtlCache<string, unknown> }).verified;
    for (let i = 1; remembered.size < VERIFIED_CACHE_SIZE; i++) remembered.set(`filler-${i}`, {}, Infinity);
    const next = await tokens.signAccess({ ...claims, dev: 'CLI' });
    await tokens.verifyAccess(next);
    expect(remembered.size).toBe(VERIFIED_CACHE_SIZE);
    expect(remembered.has(first)).toBe(false);
    expect(remembered.has(next)).toBe(true);
    expect(await tokens.verifyAccess(first)).toEqual(claims);
  });
});

describe('refreshing a session', () => {
  it('gives a new pair that works, and the new refresh token rotates again', async () => {
    const person = await server.signedIn('USER');
    const first = await refresh(person.refreshToken);
    expect(first.status).toBe(200);
    const { token, refreshToken } = first.body.data;
    expect(refreshToken).not.toBe(person.refreshToken);
    expect((await server.get('/api/user/me', { token })).status).toBe(200);

    const second = await refresh(refreshToken);
    expect(second.status).toBe(200);
    expect((await server.get('/api/user/me', { token: second.body.data.token })).status).toBe(200);
  });

  it('keeps the session when a reload lost the answer: the old token once more gives a new pair, once', async () => {
    const person = await server.signedIn('USER');
    // the answer to this refresh never reaches the page (it reloaded meanwhile)
    const lost = await refresh(person.refreshToken);
    expect(lost.status).toBe(200);
    const retry = await refresh(person.refreshToken);
    expect(retry.status, retry.text).toBe(200);
    expect((await server.get('/api/user/me', { token: retry.body.data.token })).status).toBe(200);
    // only once: a third time is reuse, and ends the session, the retry's tokens included
    const third = await refresh(person.refreshToken);
    expect(third.status).toBe(401);
    expect(third.body.errorCode).toBe('REFRESH_REUSED');
    expect((await refresh(retry.body.data.refreshToken)).body.errorCode).toBe('REFRESH_REVOKED');
  });

  it('ends the whole session when an old token comes back after its grace or after the newest was used', async () => {
    for (const late of ['grace', 'used'] as const) {
      const person = await server.signedIn('USER');
      const lost = await refresh(person.refreshToken);
      expect(lost.status).toBe(200);
      if (late === 'grace')
        await server.db.execute(sql`update refresh_tokens set rotated_at = now() - interval '31 seconds'
          where token_hash = ${sha256(person.refreshToken)}`);
      else expect((await refresh(lost.body.data.refreshToken)).status).toBe(200);
      const replay = await refresh(person.refreshToken);
      expect(replay.status, late).toBe(401);
      expect(replay.body.errorCode, late).toBe('REFRESH_REUSED');
    }
  });

  it('ends the whole session when a rotated refresh token is used again', async () => {
    const person = await server.signedIn('USER');
    const rotated = await refresh(person.refreshToken);
    // the rightful owner goes on with the newest token
    const went = await refresh(rotated.body.data.refreshToken);
    expect(went.status).toBe(200);
    const newest = went.body.data.refreshToken as string;

    // someone replays the old token (a copy stolen before it was rotated)
    const replay = await refresh(person.refreshToken);
    expect(replay.status).toBe(401);
    expect(replay.body.errorCode).toBe('REFRESH_REUSED');

    // the family is revoked: the legitimate newest token no longer works either
    const legit = await refresh(newest);
    expect(legit.status).toBe(401);
    expect(legit.body.errorCode).toBe('REFRESH_REVOKED');
  });

  it('leaves other sessions of the same person alone when one family is revoked', async () => {
    const person = await server.signedIn('USER');
    const other = await server.signIn(person.account);
    await refresh(person.refreshToken);
    await refresh(person.refreshToken); // replay: revokes the first family only
    expect((await refresh(other.body.data.refreshToken)).status).toBe(200);
  });

  it('refuses a refresh token presented by another device', async () => {
    const person = await server.signedIn('USER');
    const res = await refresh(person.refreshToken, 'CHROME_EXTENSION');
    expect(res.status).toBe(401);
    expect(res.body.errorCode).toBe('REFRESH_DEVICE');
    // the rightful device can still use it
    expect((await refresh(person.refreshToken, 'WEB_APP')).status).toBe(200);
  });

  it('refuses an unknown refresh token and bad input', async () => {
    expect((await refresh('x'.repeat(43))).status).toBe(401);
    const bad = await server.post('/api/login/refresh', { refreshToken: 'x'.repeat(43), device: 'TOASTER' });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('device');
  });
});

describe('signing out', () => {
  it('revokes the refresh token of this device', async () => {
    const person = await server.signedIn('USER');
    const res = await server.post('/api/login/logout', {
      refreshToken: person.refreshToken,
      device: 'WEB_APP',
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ ok: true });
    expect((await refresh(person.refreshToken)).status).toBe(401);
  });

  it('answers ok for a token it does not know, without revealing anything', async () => {
    const res = await server.post('/api/login/logout', { refreshToken: 'y'.repeat(43), device: 'WEB_APP' });
    expect(res.status).toBe(200);
  });
});

describe('tokens for the browser extension (socket-token)', () => {
  it('gives a learner a session bound to the extension', async () => {
    const learner = await server.signedIn('USER');
    const res = await server.get('/api/login/socket-token', {
      ...learner.auth,
      query: { device: 'CHROME_EXTENSION', deviceInfo: JSON.stringify({ browserType: 'chrome' }) },
    });
    expect(res.status).toBe(200);
    const { extensionAccessToken, extensionRefreshToken, uuid } = res.body.data;
    expect(uuid).toBe(learner.user._id);
    expect((await server.get('/api/user/me', { token: extensionAccessToken })).status).toBe(200);
    // its refresh token belongs to the extension, not to the web app
    expect((await refresh(extensionRefreshToken, 'WEB_APP')).status).toBe(401);
    expect((await refresh(extensionRefreshToken, 'CHROME_EXTENSION')).status).toBe(200);
  });

  it('is not for mentors', async () => {
    const mentor = await server.signedIn('TENANT');
    const res = await server.get('/api/login/socket-token', {
      ...mentor.auth,
      query: { device: 'CHROME_EXTENSION' },
    });
    expect(res.status).toBe(403);
  });

  it('needs an extension device and JSON device info', async () => {
    const learner = await server.signedIn('USER');
    const noDevice = await server.get('/api/login/socket-token', learner.auth);
    expect(noDevice.status).toBe(400);
    expect(noDevice.body.field).toBe('device');
    const badInfo = await server.get('/api/login/socket-token', {
      ...learner.auth,
      query: { device: 'FIREFOX_EXTENSION', deviceInfo: 'not json' },
    });
    expect(badInfo.status).toBe(400);
    expect(badInfo.body.field).toBe('deviceInfo');
  });
});

describe('checking whether an e-mail address is registered', () => {
  it('says yes for a registered address in any letter case, no otherwise', async () => {
    const person = await server.signedIn('USER');
    const yes = await server.post('/api/user/check-email-exist', {
      email: person.account.email.toUpperCase(),
    });
    expect(yes.status).toBe(200);
    expect(yes.body.data).toEqual({ isExist: true });
    const no = await server.post('/api/user/check-email-exist', { email: 'nobody-here@example.com' });
    expect(no.body.data).toEqual({ isExist: false });
  });

  it('refuses something that is not an e-mail address, naming the field', async () => {
    const res = await server.post('/api/user/check-email-exist', { email: 'not-an-address' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      field: 'email',
      message: expect.stringContaining('Invalid email address'),
    });
  });
});
