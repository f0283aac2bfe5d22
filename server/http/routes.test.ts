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
    expect(nulAt({ a: [{ b: 'ok' }, { c: 'x\u0000' }] })).toEqual(['a', '1', 'c']);
    expect(nulAt({ a: ['ok', 1, null] })).toBeNull();
  });
});
