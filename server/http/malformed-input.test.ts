/**
 * Every call of the contract, sent malformed input by a visitor, a learner and a mentor: odd path ids,
 * odd query values, broken and mistyped bodies. None may answer 5xx — bad input is a 4xx naming the field.
 * (The calls' own tests check what each answer says; this one sweeps the whole surface for crashes.)
 */
import { allCalls } from '@shared/contract/registry';
import { beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { type SignedIn, setupServer } from '../test/helper';
import { API_PREFIX } from './routes';

const server = setupServer({ seed: true, env: { RATE_LIMIT_AUTH: '100000', RATE_LIMIT_STRICT: '100000' } });

const LONG = 'a'.repeat(5000);
const ODD_SEGMENTS = [
  'not-an-id',
  '00000000-0000-4000-8000-000000000000',
  '%00',
  encodeURIComponent(LONG),
  '-1',
];
const ODD_QUERY = ['', '%00', '-1', 'abc', '1e309', encodeURIComponent(LONG), '%5B%5D'];
const ODD_VALUES: unknown[] = [null, 5, -1, 1.5, 'x', '', [], {}, true, LONG, 'a\u0000b'];

/** The field names of an object schema (or of the object inside a refined one). */
function keysOf(schema: z.ZodType | undefined): string[] {
  // biome-ignore lint/suspicious/noExplicitAny: reading zod's internals to find the object's shape
  const s = schema as any;
  const shape = s?.shape ?? s?._zod?.def?.in?.shape ?? s?._zod?.def?.schema?.shape;
  return shape ? Object.keys(shape) : [];
}

const pathWith = (path: string, segment: string) => API_PREFIX + path.replace(/\{[A-Za-z0-9_]+\}/g, segment);

describe('malformed input never answers 5xx', () => {
  let learner: SignedIn;
  let mentor: SignedIn;
  beforeAll(async () => {
    learner = await server.signedIn('USER', { profile: true });
    mentor = await server.signedIn('TENANT', { profile: true });
  }, 60_000);

  it('on every call, for every caller', async () => {
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    const send = async (method: string, url: string, token: string | undefined, payload?: unknown) => {
      const res = await server.app.inject({
        method: method as 'GET',
        url,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(payload === undefined
          ? {}
          : { payload: typeof payload === 'string' ? payload : JSON.stringify(payload) }),
      });
      if (res.statusCode >= 500)
        failures.push(`${res.statusCode} ${method} ${url.slice(0, 160)} ${String(payload).slice(0, 80)}`);
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
      return res.statusCode;
    };

    let sent = 0;
    for (const { call } of allCalls()) {
      // signing out would end the session the rest of the sweep uses
      if (call.path === '/login/logout') continue;
      const queryKeys = keysOf(call.query as z.ZodType | undefined);
      const bodyKeys = keysOf(call.body as z.ZodType | undefined);
      const withBody = call.method !== 'GET' && call.method !== 'DELETE';
      for (const token of [undefined, learner.token, mentor.token]) {
        for (const segment of ODD_SEGMENTS) {
          await send(call.method, pathWith(call.path, segment), token, withBody ? {} : undefined);
          sent++;
        }
        const base = pathWith(call.path, '00000000-0000-4000-8000-000000000000');
        for (const key of queryKeys) {
          for (const value of ODD_QUERY) {
            await send(call.method, `${base}?${key}=${value}`, token, withBody ? {} : undefined);
            sent++;
          }
        }
        if (withBody) {
          for (const payload of ['{bad', '[]', 'null', '"text"', '{}']) {
            await send(call.method, base, token, payload);
            sent++;
          }
          for (const key of bodyKeys) {
            for (const value of ODD_VALUES) {
              await send(call.method, base, token, { [key]: value });
              sent++;
            }
          }
        }
      }
    }
    expect(sent).toBeGreaterThan(1000);
    // the sweep reached the calls' checks: refused input, unknown ids, missing and wrong roles
    console.log('malformed input sweep:', sent, 'requests;', Object.fromEntries([...statuses].sort()));
    for (const status of [400, 401, 403, 404])
      expect(statuses.get(status), String(status)).toBeGreaterThan(0);
    expect(failures).toEqual([]);
  }, 300_000);
});
