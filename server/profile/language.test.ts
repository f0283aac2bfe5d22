/**
 * The language a person reads Waymark in (decision 040): a new account starts in the one its browser asks
 * for, the person changes it, and it comes back with every read of the profile.
 */
import { describe, expect, it } from 'vitest';
import { setupServer } from '../test/helper';

const server = setupServer();

async function signUp(acceptLanguage?: string) {
  const account = await server.emulator.createAccount({ verified: true });
  const token = await server.emulator.idToken(account);
  const res = await server.post(
    '/api/login/sign-in-with-firebase',
    { token, role: 'USER' },
    { headers: acceptLanguage ? { 'accept-language': acceptLanguage } : {} },
  );
  expect(res.status).toBe(200);
  return { account, user: res.body.data.user, token: res.body.data.token as string };
}

describe("a person's language", () => {
  it('starts in the language the browser asks for, English when it asks for none Waymark speaks', async () => {
    expect((await signUp('es-MX,es;q=0.9,en;q=0.8')).user.language).toBe('es');
    expect((await signUp('fr-FR, ar;q=0.7')).user.language).toBe('ar');
    expect((await signUp('de-DE')).user.language).toBe('en');
    expect((await signUp()).user.language).toBe('en');
  });

  it('keeps the language of an account that exists whatever a later sign-in asks for', async () => {
    const { account } = await signUp('ar');
    const token = await server.emulator.idToken(account);
    const again = await server.post(
      '/api/login/sign-in-with-firebase',
      { token },
      { headers: { 'accept-language': 'es' } },
    );
    expect(again.body.data.user.language).toBe('ar');
  });

  it('is changed by the person, and read back with the profile', async () => {
    const { token } = await signUp('en');
    const res = await server.put('/api/user/language', { language: 'ar' }, { token });
    expect(res.status).toBe(200);
    expect(res.body.data.language).toBe('ar');
    expect((await server.get('/api/user/me', { token })).body.data.language).toBe('ar');
  });

  it('is one Waymark speaks: anything else is a 400 naming the field, and nothing changes', async () => {
    const { token } = await signUp('es');
    for (const language of ['fr', 'en-XA', '', 42]) {
      const res = await server.put('/api/user/language', { language }, { token });
      expect(res.status).toBe(400);
      expect(res.body.field).toBe('language');
    }
    expect((await server.get('/api/user/me', { token })).body.data.language).toBe('es');
    expect((await server.put('/api/user/language', { language: 'es' })).status).toBe(401);
  });
});

describe("the server's messages", () => {
  it('come in the language the request asks for, English by default', async () => {
    const say = async (acceptLanguage?: string) =>
      (
        await server.put(
          '/api/user/language',
          { language: 'es' },
          { headers: acceptLanguage ? { 'accept-language': acceptLanguage } : {} },
        )
      ).body.message;
    expect(await say()).toBe('Please sign in.');
    expect(await say('es-ES,es;q=0.9')).toBe('Inicia sesión.');
    expect(await say('ar')).toBe('يُرجى تسجيل الدخول.');
    expect(await say('de')).toBe('Please sign in.');
  });

  it("say a form's own message in the request's language, and name the field", async () => {
    const res = await server.post(
      '/api/feedback-question/create',
      { feedback: 'short', testLinkId: 'x', questionId: '00000000-0000-4000-8000-000000000000' },
      { headers: { 'accept-language': 'es' }, token: (await signUp('en')).token },
    );
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('feedback');
    expect(res.body.message).toBe('feedback: Los comentarios deben tener al menos 10 caracteres');
    expect(res.body.fields.feedback).toBe('Los comentarios deben tener al menos 10 caracteres');
  });
});
