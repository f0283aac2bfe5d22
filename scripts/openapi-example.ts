/**
 * Writes a starting example file (shared/contract/examples/<group>/<call>.json) for every contract call
 * that has none: a request and a success response made from the call's schemas with plausible values, and
 * a description of each `id`-like path parameter from the path. Then edit it to be true to life — the
 * OpenAPI document publishes it and server/http/contract.test.ts sends it to the real server.
 * Its strings that only repeat their key's name ("currency": "currency") and its generic url
 * (https://waymark.example.com/roadmap/1) are placeholders: server/http/openapi.unit.test.ts fails until
 * each is replaced by what the server answers for that request.
 *   npx tsx scripts/openapi-example.ts            every call without an example
 *   npx tsx scripts/openapi-example.ts group.call  that call (overwrites)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { CallDef } from '@shared/contract/define';
import { successStatus } from '@shared/contract/define';
import { allCalls } from '@shared/contract/registry';
import { z } from 'zod';
import { exampleFile, readExample } from '../server/http/openapi-docs';

type Json = Record<string, unknown>;

const toJson = (schema: z.ZodType, io: 'input' | 'output'): Json => {
  try {
    return z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Json;
  } catch {
    return {};
  }
};

const UUIDS: Record<string, string> = {};
function uuidFor(name: string) {
  if (!UUIDS[name]) {
    let h = 0;
    for (const c of name) h = (h * 31 + c.charCodeAt(0)) >>> 0;
    const hex = h.toString(16).padStart(8, '0');
    UUIDS[name] = `${hex}-4e1f-4a2b-9c3d-${hex.slice(0, 4)}a1b2c3d4`;
  }
  return UUIDS[name]!;
}

const WORDS: [RegExp, unknown][] = [
  [/^email$/i, 'asha.learner@example.com'],
  [/password/i, 'Str0ng!Pass'],
  [/^phoneNumber$/, '9876543210'],
  [/^phoneCountry$/, 'IN'],
  [/^(roadmapName|name)$/, 'JavaScript Foundations'],
  [/^(learner|learnerName|userName|fullName)$/, 'Asha Learner'],
  [/^(token|idToken|accessToken)$/, 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhc2hhIn0.c2lnbmF0dXJl'],
  [/^refreshToken$/, 'rt_8f14e45fceea167a5a36dedd4bea2543'],
  [/^linkId$|^testLinkId$/, 'hHmNU4pIjn34jsi16PDBEA'],
  [/^(deviceCode)$/, 'dc_4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c'],
  [/^userCode$/, 'ABCD-1234'],
  [/^(language)$/, 'English'],
  [/^(subject)$/, 'Programming'],
  [/^(topic)$/, 'JavaScript'],
  [/^searchText$/, 'asha'],
  [/^(message)$/, 'OK'],
  [/^question$/, 'What does typeof null return?'],
  [/^(description|shortDescription|longDescription|about)$/, 'A short description.'],
  [/^(title|actualTitle)$/, 'Closures'],
  [/^startTime$/, 1772496000],
  [/^endTime$/, 1773100800],
  [/(Url|url|href|Uri|link)$/, 'https://waymark.example.com/roadmap/1'],
  [/(At|Date|date|createdAt|updatedAt)$/, '2026-03-03T10:00:00.000Z'],
  [/^(page|skip)$/, 1],
  [/^limit$/, 5],
  [/^shortId$/, 'r1a2b3'],
];

function byName(name: string): unknown {
  for (const [re, v] of WORDS) if (re.test(name)) return v;
  return undefined;
}

function sample(s: Json, name: string, defs: Record<string, Json>): unknown {
  if (typeof s.$ref === 'string') return sample(defs[s.$ref.split('/').pop()!] ?? {}, name, defs);
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0];
  if (s.default !== undefined && s.type !== 'object') return s.default;
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = s[key] as Json[] | undefined;
    if (options) {
      const first = options.find((o) => o.type !== 'null') ?? options[0]!;
      return sample(first, name, defs);
    }
  }
  if (Array.isArray(s.allOf)) return sample((s.allOf as Json[])[0]!, name, defs);
  const type = Array.isArray(s.type) ? (s.type as string[]).find((t) => t !== 'null') : (s.type as string);
  switch (type) {
    case 'object': {
      const out: Json = {};
      const props = (s.properties ?? {}) as Record<string, Json>;
      for (const [k, v] of Object.entries(props)) out[k] = sample(v, k, defs);
      return out;
    }
    case 'array':
      return [sample((s.items ?? {}) as Json, name.replace(/s$/, ''), defs)];
    case 'integer':
    case 'number': {
      const known = byName(name);
      if (typeof known === 'number') return known;
      const min = (s.minimum as number | undefined) ?? (s.exclusiveMinimum as number | undefined);
      return min !== undefined ? Math.max(min, 1) : 1;
    }
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'string': {
      if (s.format === 'uuid' || /(^_id$|Id$)/.test(name)) {
        const known = byName(name);
        return typeof known === 'string' && s.format !== 'uuid' ? known : uuidFor(name);
      }
      if (s.format === 'email') return 'asha.learner@example.com';
      if (s.format === 'date-time') return '2026-03-03T10:00:00.000Z';
      if (s.format === 'uri') return 'https://waymark.example.com/';
      const known = byName(name);
      if (typeof known === 'string') return known;
      const min = (s.minLength as number | undefined) ?? 0;
      const text = name ? name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase() : 'text';
      return text.length >= min ? text : text.padEnd(min, 'x');
    }
    default:
      return {};
  }
}

function exampleOf(schema: z.ZodType | undefined, io: 'input' | 'output') {
  if (!schema) return undefined;
  const json = toJson(schema, io);
  return sample(json, '', (json.$defs ?? {}) as Record<string, Json>);
}

/** `/roadmap/{id}/no-auth` → "The roadmap's id." */
function idDescription(path: string, param: string): string {
  const segments = path.split('/').filter((s) => s && !s.startsWith('{'));
  const noun = (
    segments.find((s) => !['api', 'list', 'get', 'no-auth', 'v2'].includes(s)) ?? 'record'
  ).replace(/-/g, ' ');
  return param === 'id'
    ? `The ${noun}'s id.`
    : `The id of the ${param
        .replace(/Id$/, '')
        .replace(/([A-Z])/g, ' $1')
        .toLowerCase()}.`;
}

/** Most calls answer a success with no `message` (the envelope's is optional): add it by hand where one does. */
function withoutMessage(body: unknown) {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
  const { message: _message, ...rest } = body as Json;
  return rest;
}

function write(name: string, call: CallDef) {
  const params = exampleOf(call.params, 'input') as Json | undefined;
  const parameters: Record<string, string> = {};
  for (const p of Object.keys(params ?? {})) {
    if (p === 'id' || /Id$/.test(p)) parameters[p] = idDescription(call.path, p);
  }
  const request = {
    ...(params ? { params } : {}),
    ...(call.query ? { query: exampleOf(call.query, 'input') } : {}),
    ...(call.body && !call.rawBody ? { body: exampleOf(call.body, 'input') } : {}),
  };
  const status = successStatus(call);
  const example = {
    ...(Object.keys(parameters).length ? { parameters } : {}),
    ...(Object.keys(request).length ? { request } : {}),
    response: { status, body: withoutMessage(exampleOf(call.responses[status], 'output')) },
  };
  const problems: string[] = [];
  const check = (schema: z.ZodType | undefined, value: unknown, what: string) => {
    if (!schema || value === undefined) return;
    const r = schema.safeParse(value);
    if (!r.success)
      problems.push(`${what}: ${r.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`);
  };
  check(call.params, request.params, 'params');
  check(call.query, request.query, 'query');
  check(call.body, (request as { body?: unknown }).body, 'body');
  check(call.responses[status], example.response.body, 'response');
  const file = exampleFile(name);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(example, null, 2)}\n`);
  console.log(
    `${problems.length ? '!' : '✓'} ${name}${problems.length ? `: fix by hand — ${problems.join(' | ')}` : ''}`,
  );
}

const only = process.argv.slice(2);
for (const { name, call } of allCalls()) {
  if (only.length ? only.includes(name) : !readExample(name)) write(name, call);
}
