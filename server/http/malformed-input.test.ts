/**
 * Every call of the contract, sent malformed input by a visitor, a learner and a mentor: odd path ids
 * (percent-encoded ones among them, which the router decodes once), odd query values, broken and mistyped
 * bodies, and extreme numbers — 9007199254740991, 10^15, negative and fractional — in every numeric field
 * at any depth (alone, and all of a call's at once, so a time range of two extreme ends reaches its
 * handler). None may answer 5xx — bad input is a 4xx naming the field. The learner is one of the mentor's
 * seats and path ids named for a learner are the learner's, so the tenant calls reach their handlers too.
 * Paths outside the contract (stored files, widgets, pages, the API document) get percent-encoded paths.
 * (The calls' own tests check what each answer says; this one sweeps the whole surface for crashes.)
 */

import { allCalls } from '@shared/contract/registry';
import { attemptHeaders, newAttemptToken } from '@shared/rules/attempt-token';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type SignedIn, setupServer } from '../test/helper';
import { API_PREFIX } from './routes';

const server = setupServer({ seed: true, env: { RATE_LIMIT_AUTH: '100000', RATE_LIMIT_STRICT: '100000' } });

const LONG = 'a'.repeat(5000);
/** Path segments as sent on the wire: the router decodes them once. */
const ENCODED_SEGMENTS = [
  '%25',
  '%2525',
  '%2F',
  '..%2F..%2Fetc%2Fpasswd',
  '%C0%AF',
  '%E0%A4%A',
  '%FF',
  '%00',
];
const ODD_SEGMENTS = [
  'not-an-id',
  '00000000-0000-4000-8000-000000000000',
  encodeURIComponent(LONG),
  '-1',
  ...ENCODED_SEGMENTS,
];
const EXTREME_NUMBERS = [9007199254740991, 1e15, -9007199254740991, -1, 1.5, -0.5, 1e308];
const ODD_QUERY = [
  '',
  '%00',
  '-1',
  'abc',
  '1e309',
  encodeURIComponent(LONG),
  '%5B%5D',
  '%25',
  '%C0%AF',
  ...EXTREME_NUMBERS.map(String),
];
const ODD_VALUES: unknown[] = [null, 5, -1, 1.5, 'x', '', [], {}, true, LONG, 'a\u0000b', ...EXTREME_NUMBERS];
/** Paths the contract does not declare, with percent-encoded tails. */
const OTHER_PATHS = [
  '/files/',
  '/files/certificates/',
  '/widgets/',
  '/docs/',
  '/sandbox-checkout/',
  '/',
  '/api/',
];

type Json = Record<string, unknown>;
const inputSchema = (schema: z.ZodType | undefined): Json | null => {
  if (!schema) return null;
  try {
    return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Json;
  } catch {
    return null;
  }
};

/** The field names of an object schema. */
const keysOf = (json: Json | null) => Object.keys((json?.properties as Json | undefined) ?? {});

/**
 * Plausible values for a JSON Schema — one per branch of a union — and the paths of the numbers in each,
 * so that one number at a time (or all of them) can be made extreme while the rest of the body looks right.
 */
function samples(
  schema: Json,
  root: Json = schema,
  known: Record<string, string> = {},
  name = '',
): { value: unknown; numbers: (string | number)[][] }[] {
  if (typeof schema.$ref === 'string') {
    const target = (root.$defs as Record<string, Json> | undefined)?.[schema.$ref.replace('#/$defs/', '')];
    return target ? samples(target, root, known, name) : [{ value: null, numbers: [] }];
  }
  const branches = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  if (branches) return branches.flatMap((b) => samples(b, root, known, name));
  if (schema.const !== undefined) return [{ value: schema.const, numbers: [] }];
  if (Array.isArray(schema.enum)) return [{ value: schema.enum[0], numbers: [] }];
  const type = ([] as unknown[]).concat(schema.type ?? [])[0];
  if (type === 'integer' || type === 'number') return [{ value: 1, numbers: [[]] }];
  if (type === 'boolean') return [{ value: true, numbers: [] }];
  if (type === 'string') {
    const plausible =
      schema.format === 'uuid'
        ? '00000000-0000-4000-8000-000000000000'
        : schema.format === 'email'
          ? 'someone@example.com'
          : schema.format === 'uri'
            ? 'https://example.com/a'
            : 'abcdefghijkl';
    return [{ value: known[name] ?? plausible, numbers: [] }];
  }
  if (type === 'array' && schema.items) {
    return samples(schema.items as Json, root, known).map((s) => ({
      value: [s.value],
      numbers: s.numbers.map((p) => [0, ...p]),
    }));
  }
  if (type === 'object' || schema.properties) {
    let out: { value: Json; numbers: (string | number)[][] }[] = [{ value: {}, numbers: [] }];
    for (const [name, prop] of Object.entries((schema.properties as Record<string, Json>) ?? {})) {
      const options = samples(prop, root, known, name);
      // every branch of the first union met; the first branch for the fields after it
      out = (out.length === 1 ? options : options.slice(0, 1)).flatMap((o) =>
        out.map((base) => ({
          value: { ...base.value, [name]: o.value },
          numbers: [...base.numbers, ...o.numbers.map((p) => [name, ...p])],
        })),
      );
    }
    return out;
  }
  return [{ value: null, numbers: [] }];
}

function withValueAt(value: unknown, path: (string | number)[], leaf: unknown): unknown {
  if (path.length === 0) return leaf;
  const [head, ...rest] = path;
  const copy = (Array.isArray(value) ? [...value] : { ...(value as Json) }) as Record<
    string | number,
    unknown
  >;
  copy[head!] = withValueAt(copy[head!], rest, leaf);
  return copy;
}

/** The sample with every one of its numbers, and then each number alone, set to each extreme value. */
function extremeBodies(json: Json | null, known: Record<string, string>): unknown[] {
  if (!json) return [];
  const out: unknown[] = [];
  for (const s of samples(json, json, known)) {
    if (s.numbers.length === 0) continue;
    for (const n of EXTREME_NUMBERS) {
      out.push(s.numbers.reduce((v, p) => withValueAt(v, p, n), s.value));
      if (s.numbers.length > 1) for (const p of s.numbers) out.push(withValueAt(s.value, p, n));
    }
  }
  return out;
}

/** The path with each {param} replaced by `segment`, or by a real id when `known` has one for its name. */
const pathWith = (path: string, segment: string, known: Record<string, string> = {}) =>
  API_PREFIX + path.replace(/\{([A-Za-z0-9_]+)\}/g, (_, name: string) => known[name] ?? segment);

describe('malformed input never answers 5xx', () => {
  let learner: SignedIn;
  let mentor: SignedIn;
  /** Real ids by parameter or field name. */
  let known: Record<string, string> = {};
  beforeAll(async () => {
    learner = await server.signedIn('USER', { profile: true });
    mentor = await server.signedIn('TENANT', { profile: true });
    // the learner is one of the mentor's seats: the mentor's calls about a learner reach their handlers
    const added = await server.post(
      '/api/tenant/users/add-user-v2',
      { email: learner.account.email },
      mentor.auth,
    );
    expect(added.status).toBe(200);
    // and has a started test: calls about a test link reach their handlers with its id
    const roadmaps = await server.get('/api/roadmap/list/no-auth');
    const assigned = await server.post(
      '/api/roadmap/assign-roadmap',
      { roadmapId: roadmaps.body.data[0]._id },
      learner.auth,
    );
    expect(assigned.status).toBe(201);
    const link = await server.post(
      '/api/testlink/create',
      { type: 'ROADMAP', assignedRoadmapId: assigned.body.data.assignedRoadmapId },
      learner.auth,
    );
    expect(link.status).toBe(200);
    const linkId = link.body.data.testLinkId as string;
    const started = await server.put(`/api/testlink/verify/${linkId}`, undefined, {
      ...learner.auth,
      headers: attemptHeaders(newAttemptToken()),
    });
    expect(started.status).toBe(200);
    known = { userId: learner.user._id, learnerId: learner.user._id, linkId, testLinkId: linkId, id: linkId };
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
        failures.push(
          `${res.statusCode} ${method} ${url.slice(0, 160)} ${JSON.stringify(payload)?.slice(0, 120)}`,
        );
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
      return res.statusCode;
    };

    let sent = 0;
    // calls that end what the others use (a test evaluated, the learner's account deleted) go last
    const ending = [
      'assessments.evaluateTest',
      'catalogue.evaluateAndCreateRoadmap',
      'profile.deleteAccount',
    ];
    const calls = allCalls().sort(
      (a, b) => Number(ending.includes(a.name)) - Number(ending.includes(b.name)),
    );
    for (const { call } of calls) {
      // signing out would end the session the rest of the sweep uses
      if (call.path === '/login/logout') continue;
      const query = inputSchema(call.query as z.ZodType | undefined);
      const body = call.rawBody ? null : inputSchema(call.body as z.ZodType | undefined);
      const queryKeys = keysOf(query);
      const bodyKeys = keysOf(body);
      const numericQueryKeys = queryKeys.filter((k) =>
        samples((query!.properties as Record<string, Json>)[k]!, query!).some((x) => x.numbers.length > 0),
      );
      const withBody = call.method !== 'GET' && call.method !== 'DELETE';
      const emptyBody = withBody ? {} : undefined;
      for (const token of [undefined, learner.token, mentor.token]) {
        for (const segment of ODD_SEGMENTS) {
          await send(call.method, pathWith(call.path, segment), token, emptyBody);
          sent++;
        }
        for (const base of [
          pathWith(call.path, '00000000-0000-4000-8000-000000000000'),
          ...(call.path.includes('{')
            ? [pathWith(call.path, '00000000-0000-4000-8000-000000000000', known)]
            : []),
        ]) {
          for (const key of queryKeys) {
            for (const value of ODD_QUERY) {
              await send(call.method, `${base}?${key}=${value}`, token, emptyBody);
              sent++;
            }
          }
          // every number of the query at once: a range with both ends extreme passes its own checks
          if (numericQueryKeys.length > 1) {
            for (const n of EXTREME_NUMBERS) {
              await send(
                call.method,
                `${base}?${numericQueryKeys.map((k) => `${k}=${n}`).join('&')}`,
                token,
                emptyBody,
              );
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
            for (const payload of extremeBodies(body, known)) {
              await send(call.method, base, token, payload);
              sent++;
            }
          }
        }
      }
    }
    for (const prefix of OTHER_PATHS) {
      for (const segment of ENCODED_SEGMENTS) {
        for (const method of ['GET', 'HEAD']) {
          await send(method, `${prefix}${segment}`, undefined);
          await send(method, `${prefix}${segment}.png`, undefined);
          sent += 2;
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
