import { allCalls } from '@shared/contract/registry';
import { describe, expect, it } from 'vitest';
import { setupServer } from '../test/helper';
import { API_PREFIX, nulAt, toFastifyPath } from './routes';

const server = setupServer();

describe('the contract and the server', () => {
  it('serves every declared call at its exact method and path', () => {
    const calls = allCalls();
    expect(calls.length).toBeGreaterThan(10);
    const missing = calls
      .filter(
        ({ call }) =>
          !server.app.hasRoute({ method: call.method, url: API_PREFIX + toFastifyPath(call.path) }),
      )
      .map(({ name, call }) => `${name}: ${call.method} ${call.path}`);
    expect(missing).toEqual([]);
  });

  it('declares every path once per method', () => {
    const seen = new Map<string, string>();
    const twice: string[] = [];
    for (const { name, call } of allCalls()) {
      const key = `${call.method} ${call.path}`;
      if (seen.has(key)) twice.push(`${key} (${seen.get(key)} and ${name})`);
      seen.set(key, name);
    }
    expect(twice).toEqual([]);
  });

  it('answers the health check when the database is reachable', async () => {
    const res = await server.get('/api/health');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('ok');
  });

  it('serves the API document generated from the contract', async () => {
    const res = await server.get('/docs/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.paths['/api/login/sign-in-with-firebase'].post.operationId).toBe(
      'auth_signInWithFirebase',
    );
  });

  it('refuses a NUL character anywhere in the input with 400 naming the field (PostgreSQL cannot store it)', async () => {
    const list = await server.get('/api/roadmap/list/no-auth?language=%00');
    expect(list.status).toBe(400);
    expect(list.body).toMatchObject({
      field: 'language',
      message: 'language: must not contain the NUL character',
    });
    const contact = await server.app.inject({
      method: 'POST',
      url: '/api/contact-us/send-email',
      payload: {
        name: 'Asha\u0000',
        email: 'asha@example.com',
        subject: 'Hello',
        message: 'A question for you.',
      },
    });
    expect(contact.statusCode).toBe(400);
    expect(contact.json()).toMatchObject({ field: 'name' });
    // as the JSON escape a client sends (the only way a NUL reaches a string of JSON), in any spelling
    for (const text of ['"Asha\\u0000"', '"Asha\\u0000x"', '"\\u0000"']) {
      const res = await server.request(
        'POST',
        '/api/contact-us/send-email',
        `{"name": ${text}, "email": "asha@example.com", "subject": "Hello", "message": "A question for you."}`,
        { headers: { 'content-type': 'application/json' } },
      );
      expect(res.status, text).toBe(400);
      expect(res.body, text).toMatchObject({
        field: 'name',
        message: 'name: must not contain the NUL character',
      });
    }
    expect(nulAt({ a: [{ b: 'ok' }, { c: 'x\u0000' }] })).toEqual(['a', '1', 'c']);
    expect(nulAt({ a: ['ok', 1, null] })).toBeNull();
  });

  it('parses JSON bodies as Fastify does: a __proto__ or constructor key refused, bad JSON a 400 naming the body', async () => {
    const post = (text: string) =>
      server.request('POST', '/api/login/refresh', text, { headers: { 'content-type': 'application/json' } });
    for (const text of [
      '{"__proto__": {"admin": true}, "refreshToken": "x"}',
      '{"\\u005f_proto__": {"admin": true}, "refreshToken": "x"}',
      '{"constructor": {"prototype": {"admin": true}}, "refreshToken": "x"}',
      '{"refreshToken": ',
      '',
      '[1,',
    ]) {
      const res = await post(text);
      expect(res.status, text).toBe(400);
      expect(res.body.statusCode, text).toBe(400);
      expect(res.body.field, text).not.toBe('refreshToken');
    }
    // the words as values, a byte-order mark, an escape that is no NUL: parsed as any JSON is
    for (const text of [
      '{"refreshToken": "constructor and __proto__ as words", "device": "WEB_APP"}',
      '\ufeff{"refreshToken": "a token that is no token", "device": "WEB_APP"}',
      '{"refreshToken": "a caf\\u00e9 token that is no token", "device": "WEB_APP"}',
    ]) {
      const res = await post(text);
      // past the body's parsing and its check: the refresh token itself is refused
      expect(res.status, text).toBe(401);
    }
  });
});
