import { describe, expect, it } from 'vitest';
import { setupServer } from '../test/helper';

const server = setupServer();

const start = () => server.post('/api/login/cli/start', { deviceInfo: 'waymark-cli test' });
const poll = (deviceCode: string) => server.post('/api/login/cli/poll', { deviceCode });

describe('signing the terminal in (device flow)', () => {
  it('waits for approval, then gives the CLI its own session once', async () => {
    const started = await start();
    expect(started.status).toBe(200);
    const { deviceCode, userCode, verificationUrl, interval, expiresIn } = started.body.data;
    expect(userCode).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/);
    expect(verificationUrl).toContain(`code=${userCode}`);
    expect(interval).toBeGreaterThan(0);
    expect(expiresIn).toBeGreaterThan(0);

    const pending = await poll(deviceCode);
    expect(pending.status).toBe(428);
    expect(pending.body).toMatchObject({ statusCode: 428, errorCode: 'AUTHORIZATION_PENDING' });

    const person = await server.signedIn('TENANT');
    const approved = await server.post(
      '/api/login/cli/approve',
      { userCode: userCode.toLowerCase() },
      person.auth,
    );
    expect(approved.status).toBe(200);

    const collected = await poll(deviceCode);
    expect(collected.status).toBe(200);
    const { user, token, refreshToken } = collected.body.data;
    expect(user).toMatchObject({ _id: person.user._id, role: 'TENANT' });
    expect((await server.get('/api/user/me', { token })).body.data._id).toBe(person.user._id);

    // the session belongs to the CLI device
    expect((await server.post('/api/login/refresh', { refreshToken, device: 'WEB_APP' })).status).toBe(401);
    expect((await server.post('/api/login/refresh', { refreshToken, device: 'CLI' })).status).toBe(200);

    // the tokens are handed out once only
    const again = await poll(deviceCode);
    expect(again.status).toBe(410);
  });

  it('needs a signed-in person to approve', async () => {
    const { userCode } = (await start()).body.data;
    const res = await server.post('/api/login/cli/approve', { userCode });
    expect(res.status).toBe(401);
  });

  it('refuses an unknown or malformed code', async () => {
    const person = await server.signedIn('USER');
    const unknown = await server.post('/api/login/cli/approve', { userCode: 'ZZZZ-9999' }, person.auth);
    expect(unknown.status).toBe(404);
    const malformed = await server.post('/api/login/cli/approve', { userCode: 'hello' }, person.auth);
    expect(malformed.status).toBe(400);
    expect(malformed.body.field).toBe('userCode');
  });

  it('cannot approve the same code twice', async () => {
    const { userCode } = (await start()).body.data;
    const a = await server.signedIn('USER');
    const b = await server.signedIn('USER');
    expect((await server.post('/api/login/cli/approve', { userCode }, a.auth)).status).toBe(200);
    expect((await server.post('/api/login/cli/approve', { userCode }, b.auth)).status).toBe(404);
  });

  it('answers 410 for a device code it never issued', async () => {
    const res = await poll('d'.repeat(43));
    expect(res.status).toBe(410);
  });
});
