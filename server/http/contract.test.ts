/**
 * The API document against the real server, so the two cannot drift apart again. For every call:
 * - its documented example request, sent by a caller the call admits (a visitor, a learner, a mentor, a
 *   learner on the extension), is answered with a status the document lists for the call — never a 5xx,
 *   and never a 400 refusing the documented input (a 400 of a business rule carries its code);
 *   the documented success answers with the documented status and a body of the documented schema;
 * - each documented error example is answered as documented (status, message, field and code);
 * - every value the document allows for a query parameter (each enum value, the bounds of a number) is
 *   accepted: `tenant/users/list` documented `limit` as any integer while the server answered 400 for all
 *   but 5, 10 and 15.
 * Examples name made-up ids, so a call about one record is often a documented 404 here; the calls' own
 * tests cover their successes with real records.
 */

import type { CallDef } from '@shared/contract/define';
import { fillPath } from '@shared/contract/define';
import { allCalls } from '@shared/contract/registry';
import { beforeAll, describe, expect, it } from 'vitest';
import { type SignedIn, setupServer } from '../test/helper';
import { buildOpenApi } from './openapi';
import { type ExampleRequest, readExample } from './openapi-docs';
import { API_PREFIX } from './routes';

const server = setupServer({ seed: true, env: { RATE_LIMIT_AUTH: '100000', RATE_LIMIT_STRICT: '100000' } });
const doc = buildOpenApi('http://127.0.0.1:8080');

type Operation = {
  responses: Record<string, unknown>;
  parameters: { name: string; in: string; schema: Record<string, unknown> }[];
};
const operationOf = (call: CallDef) =>
  (doc.paths as Record<string, Record<string, Operation>>)[API_PREFIX + call.path]![
    call.method.toLowerCase()
  ]!;

const TIME_RANGE = ['startTime', 'endTime'];

/**
 * The documented time range moved to end now, its length kept: a range of unix seconds in an example is
 * only valid near the time it was written (today's summary takes the last 36 hours).
 */
function nowRange(request: ExampleRequest): ExampleRequest {
  const q = request.query as { startTime?: number; endTime?: number } | undefined;
  if (typeof q?.startTime !== 'number') return request;
  const end = Math.floor(Date.now() / 1000);
  const length = typeof q.endTime === 'number' ? q.endTime - q.startTime : 3600;
  return {
    ...request,
    query: { ...q, startTime: end - length, ...(typeof q.endTime === 'number' ? { endTime: end } : {}) },
  };
}

/** Calls that end the session or delete what they are given: each gets a caller of its own. */
const DESTRUCTIVE = /logout|delete|remove|cancel/i;

describe('the documented examples against the real server', () => {
  let learner: SignedIn;
  let mentor: SignedIn;
  let extension: SignedIn;
  beforeAll(async () => {
    learner = await server.signedIn('USER', { profile: true });
    mentor = await server.signedIn('TENANT', { profile: true });
    extension = await server.signedIn('USER', { profile: true, device: 'CHROME_EXTENSION' });
  }, 120_000);

  /** A token of a caller the call admits (none for public and optional calls). */
  async function callerFor(name: string, call: CallDef): Promise<string | undefined> {
    if (call.access === 'public' || call.access === 'optional') return undefined;
    const role = Array.isArray(call.access) && call.access.includes('TENANT') ? 'TENANT' : 'USER';
    const device = call.devices?.includes('WEB_APP') === false ? call.devices[0] : undefined;
    if (DESTRUCTIVE.test(name)) return (await server.signedIn(role, { profile: true, device })).token;
    if (device) return extension.token;
    return role === 'TENANT' ? mentor.token : learner.token;
  }

  async function send(call: CallDef, given: ExampleRequest, token: string | undefined) {
    const request = nowRange(given);
    const query = Object.fromEntries(
      Object.entries(request.query ?? {}).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
    );
    const res = await server.app.inject({
      method: call.method,
      url: API_PREFIX + fillPath(call.path, request.params),
      query,
      headers: {
        ...request.headers,
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(request.body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(request.body !== undefined ? { payload: JSON.stringify(request.body) } : {}),
    });
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(res.body);
    } catch {
      // not JSON
    }
    return { status: res.statusCode, body };
  }

  it.each(allCalls())('$name', async ({ name, call }) => {
    const example = readExample(name)!;
    const op = operationOf(call);
    const documented = Object.keys(op.responses).map(Number);
    const token = await callerFor(name, call);
    const problems: string[] = [];

    // the documented request (a documented error is a documented answer to it: a made-up id)
    const res = await send(call, example.request ?? {}, token);
    const documentedError = (example.errors ?? []).some(
      (e) =>
        e.response.status === res.status &&
        (e.response.body as { message?: string }).message === res.body.message,
    );
    if (res.status >= 500) problems.push(`the example answered ${res.status}: ${JSON.stringify(res.body)}`);
    else if (!documented.includes(res.status))
      problems.push(
        `the example answered ${res.status} ${JSON.stringify(res.body)}, which the document does not list (${documented})`,
      );
    if (
      res.status === 400 &&
      res.body.code === undefined &&
      res.body.errorCode === undefined &&
      !documentedError
    )
      problems.push(`the documented request was refused: ${res.body.message} (field ${res.body.field})`);
    if (res.status === example.response.status) {
      const check = call.responses[res.status]!.safeParse(res.body);
      if (!check.success)
        problems.push(`the answer does not match the documented schema: ${check.error.message}`);
    }

    // the documented errors (an entry with a success status documents a second success, such as 201
    // beside 200: its record is made up, so the calls' own tests cover it)
    // (an error that `needs` records the made-up ids cannot name is its call's own tests' to cover)
    for (const e of (example.errors ?? []).filter((e) => e.response.status >= 400 && !e.needs)) {
      const got = await send(call, e.request ?? example.request ?? {}, token);
      const want = e.response.body as Record<string, unknown>;
      const seen = {
        status: got.status,
        message: got.body.message,
        field: got.body.field,
        code: got.body.code,
        errorCode: got.body.errorCode,
      };
      const expected = {
        status: e.response.status,
        message: want.message,
        field: want.field,
        code: want.code,
        errorCode: want.errorCode,
      };
      if (JSON.stringify(seen) !== JSON.stringify(expected))
        problems.push(
          `${e.summary}: answered ${JSON.stringify(seen)}, documented ${JSON.stringify(expected)}`,
        );
    }

    // every value the document allows for a query parameter is accepted
    for (const p of op.parameters.filter((x) => x.in === 'query')) {
      const s = p.schema as { enum?: unknown[]; type?: string; minimum?: number; maximum?: number };
      const values: unknown[] = [...(s.enum ?? [])];
      // the time range's bounds depend on each other and on now (tested with the activity calls)
      if (!s.enum && (s.type === 'integer' || s.type === 'number') && !TIME_RANGE.includes(p.name)) {
        if (s.minimum !== undefined) values.push(s.minimum);
        if (s.maximum !== undefined && s.maximum < 1e9) values.push(s.maximum);
        if (s.minimum === undefined && s.maximum === undefined) values.push(7);
      }
      for (const value of values) {
        const request = { ...example.request, query: { ...example.request?.query, [p.name]: value } };
        const got = await send(call, request, token);
        if (got.status === 400 && got.body.field === p.name)
          problems.push(
            `${p.name}=${value} is allowed by the document, refused by the server: ${got.body.message}`,
          );
      }
    }
    expect(problems).toEqual([]);
  });
});
