import { describe, expect, it } from 'vitest';
import { setupServer, TestServer, uniqueEmail } from '../test/helper';
import { NOT_REGISTERED_MESSAGE } from './sign-in';

const server = setupServer();

const exists = async (email: string) =>
  (await server.post('/api/user/check-email-exist', { email })).body.data.isExist as boolean;

/** An unsigned token shaped like the emulator's, made by hand. */
function forgeUnsignedToken(projectId: string, email: string) {
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  return `${part({ alg: 'none', typ: 'JWT' })}.${part({
    iss: `https://securetoken.google.com/${projectId}`,
    aud: projectId,
    sub: 'forged-uid-0001',
    email,
    email_verified: true,
    iat: now,
    exp: now + 3600,
    firebase: { sign_in_provider: 'password' },
  })}.`;
}

describe('signing in with a Firebase ID token', () => {
  it('refuses a person who never registered and gives no role, and registers nobody', async () => {
    const account = await server.emulator.createAccount({ verified: true });
    const res = await server.signIn(account);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({
      statusCode: 404,
      errorCode: 'NOT_REGISTERED',
      message: NOT_REGISTERED_MESSAGE,
    });
    expect(NOT_REGISTERED_MESSAGE).toBe('You are not Existing User, Please login after registration');
    expect(res.body.token).toBeUndefined();
    expect(await exists(account.email)).toBe(false);
  });

  it('registers a learner on the first sign-in with role USER and answers with Waymark tokens', async () => {
    const account = await server.emulator.createAccount({ verified: true, displayName: 'Asha' });
    const res = await server.signIn(account, { role: 'USER' });
    expect(res.status).toBe(200);
    const { user, token, refreshToken, deletionCanceled } = res.body.data;
    expect(user).toMatchObject({
      email: account.email,
      role: 'USER',
      name: 'Asha',
      isFirstLogin: true,
      isProfileCompleted: false,
      emailVerified: true,
      isDeleted: false,
    });
    expect(deletionCanceled).toBe(false);
    expect(refreshToken).toEqual(expect.any(String));

    const me = await server.get('/api/user/me', { token });
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({ _id: user._id, email: account.email, role: 'USER' });
  });

  it('registers a mentor with role TENANT', async () => {
    const account = await server.emulator.createAccount({ verified: true });
    const res = await server.signIn(account, { role: 'TENANT' });
    expect(res.status).toBe(200);
    expect(res.body.data.user.role).toBe('TENANT');
  });

  it('signs a registered person in without a role, keeping the role they registered with', async () => {
    const account = await server.emulator.createAccount({ verified: true });
    const first = await server.signIn(account, { role: 'TENANT' });
    const again = await server.signIn(account);
    expect(again.status).toBe(200);
    expect(again.body.data.user._id).toBe(first.body.data.user._id);
    expect(again.body.data.user.role).toBe('TENANT');
    // a different role on a later sign-in does not change it
    const other = await server.signIn(account, { role: 'USER' });
    expect(other.body.data.user.role).toBe('TENANT');
  });

  it('registers a person whose e-mail is not verified but gives no tokens until it is', async () => {
    const account = await server.emulator.createAccount({ verified: false });
    const refused = await server.signIn(account, { role: 'USER' });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ statusCode: 403, errorCode: 'EMAIL_NOT_VERIFIED' });
    expect(refused.body.data).toBeUndefined();
    expect(refused.text).not.toMatch(/refreshToken/);
    expect(await exists(account.email)).toBe(true);

    // the person follows the link of the verification e-mail
    await server.emulator.sendVerificationEmail(account);
    await server.emulator.verifyEmail(account.email);

    const after = await server.signIn(account);
    expect(after.status).toBe(200);
    expect(after.body.data.user).toMatchObject({ email: account.email, role: 'USER', emailVerified: true });
  });

  it('refuses a token that is not an ID token, naming the field', async () => {
    const res = await server.post('/api/login/sign-in-with-firebase', { token: 'short' });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('token');

    const garbage = await server.post('/api/login/sign-in-with-firebase', {
      token: 'not-a-jwt-at-all-but-long-enough',
    });
    expect(garbage.status).toBe(401);
  });

  it('refuses an unknown role, naming the field', async () => {
    const account = await server.emulator.createAccount({ verified: true });
    const token = await server.emulator.idToken(account);
    const res = await server.post('/api/login/sign-in-with-firebase', { token, role: 'ADMIN' });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('role');
    expect(await exists(account.email)).toBe(false);
  });

  it('refuses a token issued for another Firebase project', async () => {
    const forged = forgeUnsignedToken('demo-someone-else', uniqueEmail('other'));
    const res = await server.post('/api/login/sign-in-with-firebase', { token: forged, role: 'USER' });
    expect(res.status).toBe(401);
  });
});

describe('a server configured for a real Firebase project (no emulator)', () => {
  const real = new TestServer({
    env: { FIREBASE_PROJECT_ID: 'waymark-production', FIREBASE_AUTH_EMULATOR_HOST: undefined },
  });

  it('refuses a forged unsigned (alg none) token and registers nobody', async () => {
    await real.start();
    try {
      expect(real.config.firebase.emulatorHost).toBeNull();
      const email = uniqueEmail('forger');
      const forged = forgeUnsignedToken('waymark-production', email);
      const res = await real.post('/api/login/sign-in-with-firebase', { token: forged, role: 'USER' });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ statusCode: 401, errorCode: 'ID_TOKEN_INVALID' });
      expect(res.body.data).toBeUndefined();
      const check = await real.post('/api/user/check-email-exist', { email });
      expect(check.body.data.isExist).toBe(false);
    } finally {
      await real.close();
    }
  });
});

describe('rate limits on the sign-in calls', () => {
  const limited = new TestServer({ env: { RATE_LIMIT_AUTH: '3' } });

  it('answers 429 once an address has used up its sign-ins for the minute', async () => {
    await limited.start();
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        const res = await limited.post('/api/login/sign-in-with-firebase', {
          token: 'not-a-jwt-at-all-but-long-enough',
        });
        statuses.push(res.status);
      }
      expect(statuses).toEqual([401, 401, 401, 429]);
    } finally {
      await limited.close();
    }
  });
});
