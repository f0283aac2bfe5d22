/**
 * The API document a client generator can live on: every call has its example file (a new call without
 * one fails here: `npx tsx scripts/openapi-example.ts` writes a starting one), the examples parse by the
 * call's own schemas and show no generator placeholder (a string that is its key's name, the generic
 * url), every parameter is described, every request and response has an example, public
 * calls list no 401/403, rate-limited calls list 429 with Retry-After, and docs/openapi.json is the
 * document the contract makes today.
 */
import { readFileSync } from 'node:fs';
import { successStatus } from '@shared/contract/define';
import { EVENT_CATALOGUE, EVENT_TYPES, eventEnvelope, payloadSchema } from '@shared/contract/events';
import { allCalls } from '@shared/contract/registry';
import { entities } from '@shared/schemas/entities';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildOpenApi } from './openapi';
import { Components } from './openapi-components';
import { exampleFile, exampleFiles, readExample } from './openapi-docs';

type Operation = {
  operationId: string;
  security: unknown[];
  parameters: { name: string; in: string; description?: string; example?: unknown }[];
  requestBody?: { content: Record<string, { example?: unknown }> };
  responses: Record<
    string,
    {
      description?: string;
      headers?: Record<string, unknown>;
      content?: Record<string, { example?: unknown; examples?: object }>;
    }
  >;
};

const doc = buildOpenApi('http://127.0.0.1:8080');
const operations = Object.values(doc.paths).flatMap((p) => Object.values(p) as Operation[]);
const calls = allCalls();

const issuesOf = (
  schema: {
    safeParse(v: unknown): {
      success: boolean;
      error?: { issues: { path: PropertyKey[]; message: string }[] };
    };
  },
  value: unknown,
) => {
  const r = schema.safeParse(value);
  return r.success ? [] : (r.error?.issues ?? []).map((i) => `${i.path.join('.')} ${i.message}`);
};

/** `linkedIn`, `linked_in` and "linked in" alike. */
const bare = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');
/** The address scripts/openapi-example.ts writes for every url-like field, and its bare origin. */
const GENERIC_URLS = ['https://waymark.example.com/roadmap/1', 'https://waymark.example.com/'];

/**
 * Values scripts/openapi-example.ts writes as a start and a partner must never read as what the server
 * answers: a string that is its own key's name (`"currency": "currency"`, `"linkedIn": "linked in"`), or
 * that name padded to a minimum length (`"id": "idxxxxxxxx"`), and the generic url.
 */
function placeholdersIn(value: unknown, key = '', path = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => placeholdersIn(v, key, `${path}[${i}]`));
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => placeholdersIn(v, k, path ? `${path}.${k}` : k));
  if (typeof value !== 'string' || !key) return [];
  const own = bare(key);
  if (own && (bare(value) === own || new RegExp(`^${own}x{2,}$`).test(bare(value))))
    return [`${path} is its key's name: ${JSON.stringify(value)}`];
  if (GENERIC_URLS.includes(value)) return [`${path} is the generic url ${value}`];
  return [];
}

describe('the examples beside the contract', () => {
  it('exist for every call, and only for calls that exist', () => {
    const missing = calls.filter(({ name }) => !readExample(name)).map(({ name }) => exampleFile(name));
    expect(missing, 'write them with: npx tsx scripts/openapi-example.ts').toEqual([]);
    const names = new Set(calls.map((c) => c.name));
    expect(exampleFiles().filter((f) => !names.has(f))).toEqual([]);
  });

  it.each(calls)('$name: parse by its schemas', ({ name, call }) => {
    const example = readExample(name)!;
    const problems: string[] = [];
    const request = example.request ?? {};
    for (const [where, schema] of [
      ['params', call.params],
      ['query', call.query],
      ['headers', call.headers],
      ['body', call.rawBody ? undefined : call.body],
    ] as const) {
      const value = (request as Record<string, unknown>)[where];
      if (
        schema &&
        value === undefined &&
        where !== 'query' &&
        !(where === 'headers' && schema.safeParse({}).success) &&
        !(where === 'body' && schema.safeParse(undefined).success)
      )
        problems.push(`request.${where} is missing`);
      if (schema && value !== undefined)
        problems.push(...issuesOf(schema, value).map((i) => `request.${where}: ${i}`));
    }
    expect(example.response.status).toBe(successStatus(call));
    const schema = call.responses[example.response.status];
    expect(schema, `status ${example.response.status} is declared`).toBeDefined();
    problems.push(...issuesOf(schema!, example.response.body).map((i) => `response: ${i}`));
    for (const e of example.otherSuccesses ?? []) {
      const otherSchema = call.responses[e.response.status];
      if (!otherSchema || e.response.status >= 400)
        problems.push(`otherSuccesses: status ${e.response.status} is not a declared success`);
      else
        problems.push(
          ...issuesOf(otherSchema, e.response.body).map((i) => `otherSuccesses (${e.summary}): ${i}`),
        );
    }
    for (const e of example.errors ?? []) {
      const errorSchema = call.responses[e.response.status];
      if (!errorSchema) problems.push(`errors: status ${e.response.status} is not declared`);
      else problems.push(...issuesOf(errorSchema, e.response.body).map((i) => `errors (${e.summary}): ${i}`));
    }
    expect(problems).toEqual([]);
  });

  it.each(calls)('$name: show real values, not the generator placeholders', ({ name }) => {
    const example = readExample(name)!;
    const problems = placeholdersIn(example);
    // no call answers a success with the generator's "message": "OK" (most send none; a few their own)
    for (const { response } of [example, ...(example.otherSuccesses ?? [])]) {
      if ((response.body as { message?: unknown } | null)?.message === 'OK')
        problems.push(`the ${response.status} body carries the generator's "message": "OK"`);
    }
    expect(problems).toEqual([]);
  });
});

describe('the OpenAPI document', () => {
  it('describes every parameter and has an example for every request and response', () => {
    const problems: string[] = [];
    for (const op of operations) {
      for (const p of op.parameters) {
        if (!p.description) problems.push(`${op.operationId}: parameter ${p.name} has no description`);
        if (p.example === undefined) problems.push(`${op.operationId}: ${p.name} has no example`);
      }
      for (const [type, media] of Object.entries(op.requestBody?.content ?? {})) {
        if (type === 'application/json' && media.example === undefined)
          problems.push(`${op.operationId}: the request body has no example`);
      }
      for (const [status, response] of Object.entries(op.responses)) {
        const media = response.content?.['application/json'];
        if (media && media.example === undefined && !Object.keys(media.examples ?? {}).length)
          problems.push(`${op.operationId}: response ${status} has no example`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('names a component schema for the entities', () => {
    const names = Object.keys(doc.components.schemas);
    for (const entity of [
      'Roadmap',
      'RoadmapSummary',
      'User',
      'TestLink',
      'TakerTest',
      'ErrorBody',
      'TenantUserRow',
    ]) {
      expect(names).toContain(entity);
    }
  });

  it('lists no 401 or 403 on public calls (but their own), and 429 with Retry-After on rate-limited ones', () => {
    for (const { name, call } of calls) {
      const op = operations.find((o) => o.operationId === name.replace('.', '_'))!;
      if (call.access === 'public') {
        // none reads a token; a 401 or 403 of the call's own (a forged ID token) is shown by its examples
        const own = new Set((readExample(name)?.errors ?? []).map((e) => String(e.response.status)));
        for (const status of ['401', '403']) {
          if (!own.has(status)) expect(Object.keys(op.responses), `${name} ${status}`).not.toContain(status);
          // its own is the credential it was given, never an access token it does not read
          else
            expect(op.responses[status]?.description, `${name} ${status}`).not.toMatch(
              /access token:|Signed in/,
            );
        }
        expect(op.security, name).toEqual([]);
      }
      if (call.rateLimit) expect(op.responses['429']?.headers?.['Retry-After'], name).toBeDefined();
    }
  });

  it('carries its license, contact and how to get a token', () => {
    expect(doc.info.license.name).toBeTruthy();
    expect(doc.info.contact.email).toMatch(/@/);
    expect(doc.info.description).toContain('/api/login/cli/start');
    expect(doc.info.description).toContain('/api/login/sign-in-with-firebase');
  });

  it('is what docs/openapi.json holds (npx tsx scripts/openapi.ts writes it)', () => {
    const committed = JSON.parse(readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8'));
    expect(committed).toEqual(JSON.parse(JSON.stringify(doc)));
  });

  it('names its entities by their ids in the registry, and refuses two schemas of one id', () => {
    // a schema is named where it is registered (shared/schemas/entities.ts), whatever it is exported as
    expect(Object.keys(doc.components.schemas)).toContain('User');
    const first = z.object({ a: z.string() });
    const second = z.object({ b: z.number() });
    entities.add(first, { id: 'NamedTwice' }).add(second, { id: 'NamedTwice' });
    try {
      const components = new Components();
      expect(components.toJson(z.object({ x: first }), 'output')).toEqual(
        expect.objectContaining({
          properties: { x: { $ref: '#/components/schemas/output:NamedTwice' } },
        }),
      );
      // in two conversions (two calls' bodies), as in one (zod's own check)
      expect(() => components.toJson(z.object({ y: second }), 'output')).toThrow(
        'Two schemas are registered as the entity NamedTwice',
      );
      expect(() => new Components().toJson(z.object({ x: first, y: second }), 'output')).toThrow(
        /NamedTwice/,
      );
    } finally {
      entities.remove(first).remove(second);
    }
  });

  it('lists the scopes each call needs: an apiKey requirement naming them, and none where keys are refused', () => {
    const problems: string[] = [];
    for (const { name, call } of calls) {
      const op = doc.paths[`/api${call.path}` as keyof typeof doc.paths]?.[
        call.method.toLowerCase() as never
      ] as Operation | undefined;
      const keys = (op?.security ?? []).filter(
        (r): r is { apiKey: string[] } => typeof r === 'object' && r !== null && 'apiKey' in r,
      );
      const listed = keys.flatMap((r) => r.apiKey);
      if (JSON.stringify(listed) !== JSON.stringify([...(call.scopes ?? [])]))
        problems.push(
          `${name}: apiKey ${JSON.stringify(listed)}, scopes ${JSON.stringify(call.scopes ?? [])}`,
        );
    }
    expect(problems).toEqual([]);
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('describes every event under webhooks: its envelope, its payload and an example that parses', () => {
    const hooks = doc.webhooks as Record<
      string,
      { post: { requestBody: { content: { 'application/json': { example: unknown; schema: object } } } } }
    >;
    expect(Object.keys(hooks).sort()).toEqual([...EVENT_TYPES].sort());
    for (const type of EVENT_TYPES) {
      const version = EVENT_CATALOGUE[type].current;
      const body = hooks[type]!.post.requestBody.content['application/json'];
      const schema = eventEnvelope(type, version, payloadSchema(type, version)!);
      expect(issuesOf(schema, body.example), type).toEqual([]);
      expect(JSON.stringify(body.schema)).toContain('"data"');
    }
  });
});
