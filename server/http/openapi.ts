/**
 * The OpenAPI 3.1 document, generated from the contract (shared/contract) and the examples beside it
 * (server/http/openapi-docs.ts): every entity a named schema under components.schemas (the exported zod
 * schemas of shared/schemas and shared/contract, by their export names), every parameter described, an
 * example for every request and response, each error status with its body and the specification's codes,
 * 429 with Retry-After where a call is rate limited, 401/403 only where a token is read.
 * `scripts/openapi.ts` writes docs/openapi.json; the server serves it at /docs/openapi.json.
 */

import { STATUS_CODES } from 'node:http';
import * as activityContract from '@shared/contract/activity';
import * as assessmentsContract from '@shared/contract/assessments';
import * as authContract from '@shared/contract/auth';
import * as authoringContract from '@shared/contract/authoring';
import * as catalogueContract from '@shared/contract/catalogue';
import type { CallDef } from '@shared/contract/define';
import * as profileContract from '@shared/contract/profile';
import { allCalls } from '@shared/contract/registry';
import * as systemContract from '@shared/contract/system';
import * as tenantContract from '@shared/contract/tenant';
import * as activitySchemas from '@shared/schemas/activity';
import * as assessmentSchemas from '@shared/schemas/assessment';
import * as authFormSchemas from '@shared/schemas/auth-forms';
import * as authoringSchemas from '@shared/schemas/authoring';
import * as awardSchemas from '@shared/schemas/award';
import * as catalogueSchemas from '@shared/schemas/catalogue';
import * as commonSchemas from '@shared/schemas/common';
import * as contactSchemas from '@shared/schemas/contact';
import * as listSchemas from '@shared/schemas/lists';
import * as profileFormSchemas from '@shared/schemas/profile-forms';
import * as tenantSchemas from '@shared/schemas/tenant';
import * as userSchemas from '@shared/schemas/user';
import { z } from 'zod';
import {
  type CallExample,
  ERROR_CODES,
  type ExampleRequest,
  readExample,
  sharedParameters,
} from './openapi-docs';
import { API_PREFIX } from './routes';

type JsonSchema = Record<string, unknown>;

/** Modules whose PascalCase zod exports are entities: each becomes components.schemas.<ExportName>. */
const ENTITY_MODULES: Record<string, unknown>[] = [
  commonSchemas,
  userSchemas,
  listSchemas,
  catalogueSchemas,
  activitySchemas,
  assessmentSchemas,
  awardSchemas,
  authoringSchemas,
  tenantSchemas,
  contactSchemas,
  authFormSchemas,
  profileFormSchemas,
  systemContract,
  activityContract,
  assessmentsContract,
  authContract,
  authoringContract,
  catalogueContract,
  profileContract,
  tenantContract,
];

/** The entity registry: zod schema → its name (the first name in alphabetical order, when it has several). */
function entityRegistry() {
  const names = new Map<z.ZodType, string>();
  for (const mod of ENTITY_MODULES) {
    for (const [name, value] of Object.entries(mod)) {
      if (!/^[A-Z][A-Za-z0-9]+$/.test(name) || !(value instanceof z.ZodType)) continue;
      // the params objects of single calls (LinkIdParam, IdParam) are parameters, not entities
      if (/Param$|Query$/.test(name)) continue;
      const known = names.get(value);
      if (!known || name.localeCompare(known) < 0) names.set(value, name);
    }
  }
  const registry = z.registry<{ id: string }>();
  const taken = new Set<string>();
  for (const [schema, name] of [...names].sort(([, a], [, b]) => a.localeCompare(b))) {
    if (taken.has(name)) continue;
    taken.add(name);
    registry.add(schema, { id: name });
  }
  return registry;
}

/**
 * Collects the named schemas met while converting, under components.schemas: `X` is what the server sends
 * (the output side), `XInput` what a caller sends where that differs (defaults, coercion, extra keys).
 * Refs point at placeholders (`#/components/schemas/<io>:X`) until `finish()` names them.
 */
class Components {
  private readonly defs = { input: new Map<string, JsonSchema>(), output: new Map<string, JsonSchema>() };
  private readonly registry = entityRegistry();

  /** The JSON Schema of `schema`, its named parts as $refs to components.schemas. */
  toJson(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
    let json: JsonSchema;
    try {
      json = z.toJSONSchema(schema, {
        io,
        unrepresentable: 'any',
        target: 'draft-2020-12',
        metadata: this.registry,
        reused: 'inline',
        cycles: 'ref',
      }) as JsonSchema;
    } catch {
      return {};
    }
    const { $schema: _s, $defs, ...rest } = json as JsonSchema & { $defs?: Record<string, JsonSchema> };
    const place = (v: unknown): unknown => {
      if (Array.isArray(v)) return v.map(place);
      if (v && typeof v === 'object') {
        const o = v as Record<string, unknown>;
        if (typeof o.$ref === 'string' && o.$ref.startsWith('#/$defs/')) {
          return { ...o, $ref: `#/components/schemas/${io}:${o.$ref.slice('#/$defs/'.length)}` };
        }
        return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, place(x)]));
      }
      return v;
    };
    for (const [id, def] of Object.entries($defs ?? {})) {
      if (!this.defs[io].has(id)) this.defs[io].set(id, place(stripIds(def)) as JsonSchema);
    }
    return place(stripIds(rest)) as JsonSchema;
  }

  /** The JSON Schema of an object of parameters: inline (its properties become the parameters). */
  plainJson(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
    try {
      const { $schema: _s, ...rest } = z.toJSONSchema(schema, {
        io,
        unrepresentable: 'any',
        target: 'draft-2020-12',
        metadata: z.registry<{ id: string }>(),
      }) as JsonSchema;
      return rest;
    } catch {
      return {};
    }
  }

  /** Names every schema met and rewrites the placeholder refs of `doc` (the schemas included). */
  finish<T>(doc: T): { doc: T; schemas: Record<string, JsonSchema> } {
    const names = new Map<string, string>();
    const schemas: Record<string, JsonSchema> = {};
    for (const [id, def] of this.defs.output) {
      names.set(`output:${id}`, id);
      schemas[id] = def;
    }
    for (const [id, def] of this.defs.input) {
      const output = this.defs.output.get(id);
      // the same schema both ways once its refs say the same thing
      const sameAsOutput =
        output && same(output, JSON.parse(JSON.stringify(def).replaceAll('/input:', '/output:')));
      const name = !output ? id : sameAsOutput ? id : `${id}Input`;
      names.set(`input:${id}`, name);
      if (!sameAsOutput) schemas[name] = def;
    }
    const rename = (v: unknown): unknown => {
      if (Array.isArray(v)) return v.map(rename);
      if (v && typeof v === 'object') {
        const o = v as Record<string, unknown>;
        if (typeof o.$ref === 'string' && o.$ref.startsWith('#/components/schemas/')) {
          const key = o.$ref.slice('#/components/schemas/'.length);
          return { ...o, $ref: `#/components/schemas/${names.get(key) ?? key}` };
        }
        return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, rename(x)]));
      }
      return v;
    };
    const sorted = Object.fromEntries(
      Object.entries(schemas)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, v]) => [k, rename(v) as JsonSchema]),
    );
    return { doc: rename(doc) as T, schemas: sorted };
  }
}

const stripIds = (def: JsonSchema): JsonSchema => {
  const { id: _id, ...rest } = def;
  return rest;
};
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** What each status means, for every call that may answer it. */
/**
 * A public call reads no access token, so its own 401 or 403 (shown by its examples) is never about one:
 * it refuses the credential the request carries.
 */
const PUBLIC_REFUSAL_TEXT: Record<number, string> = {
  401: 'The credential in the request (an ID token, a refresh token) was refused: `errorCode` says why. This call reads no access token.',
  403: 'The signed address or credential in the request is not valid for this (expired, altered, or for another file): `errorCode` says why. This call reads no access token.',
};

const STATUS_TEXT: Record<number, string> = {
  200: 'Success.',
  201: 'Created.',
  202: 'Accepted.',
  204: 'No content.',
  400: 'Bad input. `field` names the first invalid field (`limit`, `email`, `answers.0.questionId`…), `fields` every invalid one with its message; a rule of the call may also answer 400 with a `code` or `errorCode`.',
  401: 'No valid access token: sign in, or refresh the token (`POST /api/login/refresh`) and repeat the call once.',
  403: 'Signed in, but this caller may not do this (another role, another device, or not theirs).',
  404: 'No such record — or one the caller may not see.',
  409: 'Conflicts with what exists: a duplicate carries `code` 11000 and `keyPattern`.',
  410: 'Gone: the link or request expired or was already used.',
  413: 'The body is too large.',
  415: 'Wrong content type.',
  428: 'Not yet: repeat the call later.',
  429: 'Too many requests from this address: wait for the seconds in `Retry-After`, then repeat.',
  503: 'The server is not ready or is busy: try again shortly.',
};

/** The 403 of a test's calls that take its attempt token (decision 031). */
const ATTEMPT_REFUSAL_TEXT =
  "Not this caller's (another person's test), or not this test's attempt: a write of a started test without its attempt token answers `errorCode` ATTEMPT_TOKEN_REQUIRED, with another token ATTEMPT_TOKEN_INVALID.";

/** A generic error example for a status (the call's own examples come first). */
function genericError(status: number): Record<string, unknown> {
  const message: Record<number, string> = {
    400: 'limit: must be 5, 10 or 15',
    401: 'Please sign in again.',
    403: 'Not permitted',
    404: 'Not found',
    409: 'name is already used',
    410: 'This link is no longer valid.',
    429: 'Too many requests, please wait a minute and try again.',
    503: 'The server is busy, please try again.',
  };
  return {
    statusCode: status,
    error: STATUS_CODES[status] ?? 'Error',
    message: message[status] ?? STATUS_CODES[status] ?? 'Error',
    ...(status === 400 ? { field: 'limit', fields: { limit: 'must be 5, 10 or 15' } } : {}),
    ...(status === 409 ? { code: 11000, field: 'name', keyPattern: { name: 1 } } : {}),
  };
}

function accessText(call: CallDef): string {
  if (call.access === 'public') return 'Public: no token is read.';
  if (call.access === 'optional')
    return 'Public; with a valid access token the server knows the caller (an invalid token is refused with 401).';
  const who = Array.isArray(call.access) ? `signed-in ${call.access.join(' or ')}` : 'any signed-in person';
  return `For ${who}${call.devices ? ` on ${call.devices.join(', ')}` : ''}: send \`Authorization: Bearer <access token>\`.`;
}

/** The object schema's properties (looking through a refined object). */
function parametersOf(
  components: Components,
  schema: z.ZodType | undefined,
  where: 'path' | 'query' | 'header',
  descriptions: Record<string, string>,
  example: Record<string, unknown> | undefined,
) {
  if (!schema) return [];
  // whether a parameter is required is the input's (a default makes it optional); what values it takes is
  // the output's, after coercion from the URL's text (`limit` → one of 5, 10, 15, not any text)
  const input = components.plainJson(schema, 'input') as {
    properties?: Record<string, JsonSchema>;
    required?: string[];
  };
  const output = components.plainJson(schema, 'output') as { properties?: Record<string, JsonSchema> };
  const json = { properties: { ...input.properties, ...output.properties }, required: input.required };
  return Object.entries(json.properties ?? {}).map(([name, s]) => {
    const { description: own, ...rest } = s;
    const description = descriptions[name] ?? (typeof own === 'string' ? own : undefined);
    return {
      name,
      in: where,
      required: where === 'path' || (json.required ?? []).includes(name),
      ...(description ? { description } : {}),
      schema: rest,
      ...(example?.[name] !== undefined ? { example: example[name] } : {}),
    };
  });
}

/**
 * Error statuses a call may answer, by who may call it: public calls read no token, so they answer no 401
 * or 403 — unless the call's examples show one of its own (a forged ID token at the sign-in exchange, a bad
 * signature of an upload address).
 */
function errorStatuses(call: CallDef, example: CallExample | null): number[] {
  const declared = Object.keys(call.responses)
    .map(Number)
    .filter((s) => s >= 400);
  const readsToken = call.access !== 'public';
  const mayBeForbidden = Array.isArray(call.access) || call.devices !== undefined;
  const shown = new Set((example?.errors ?? []).map((e) => e.response.status));
  return declared.filter((s) => {
    if (shown.has(s)) return true;
    if (s === 401) return readsToken;
    if (s === 403) return mayBeForbidden || declaresCode(call, 403);
    if (s === 400)
      return !!(call.params || call.query || call.body || call.rawBody) || declaresCode(call, 400);
    return true;
  });
}

/** Whether the call's summary names a code of this status (ASSESSMENT_NOT_YET_STARTED is a 403). */
function declaresCode(call: CallDef, status: number): boolean {
  return Object.entries(ERROR_CODES).some(
    ([code, e]) =>
      e.status === status && (call.summary.includes(code) || call.summary.includes(String(e.body.code))),
  );
}

function codeExamples(name: string, call: CallDef, status: number) {
  return Object.entries(ERROR_CODES).filter(
    ([code, e]) =>
      e.status === status &&
      (e.calls?.includes(name) ||
        call.summary.includes(code) ||
        (e.body.code !== undefined && call.summary.includes(String(e.body.code)))),
  );
}

/** The `format` query value that asks for a download's content type (text/csv: csv). */
const formatOf = (contentType: string) => contentType.split('/')[1]!.replace(/^x-/, '');

export function buildOpenApi(serverUrl: string) {
  const components = new Components();
  const shared = sharedParameters();
  const paths: Record<string, Record<string, unknown>> = {};
  let errorBodyRef: JsonSchema | null = null;
  for (const { name, call } of allCalls()) {
    const path = API_PREFIX + call.path;
    const example: CallExample | null = readExample(name);
    const request: ExampleRequest = example?.request ?? {};
    const descriptions = { ...shared, ...(example?.parameters ?? {}) };
    const responses: Record<string, unknown> = {};
    const success = Object.keys(call.responses)
      .map(Number)
      .filter((s) => s < 400);
    for (const status of success) {
      const schema = components.toJson(call.responses[status]!, 'output');
      const others = (example?.otherSuccesses ?? []).filter((e) => e.response.status === status);
      if (call.download) {
        // a file to download (a CSV report): its body is the file, not a JSON envelope
        responses[status] = {
          description: 'The file, as an attachment (Content-Disposition names it).',
          content: Object.fromEntries(
            call.download.contentTypes.map((t) => [
              t,
              {
                schema: { type: 'string', format: 'binary' },
                // the example file's body is the file, in the format it requests
                ...(example?.response.status === status &&
                example.response.body !== undefined &&
                ((request.query as { format?: string } | undefined)?.format ??
                  formatOf(call.download!.contentTypes[0]!)) === formatOf(t)
                  ? {
                      // the file's bytes: a JSON file's example is its text, as the binary schema says
                      example:
                        typeof example.response.body === 'string'
                          ? example.response.body
                          : JSON.stringify(example.response.body, null, 2),
                    }
                  : {}),
              },
            ]),
          ),
        };
        continue;
      }
      responses[status] = {
        description: STATUS_TEXT[status] ?? 'Success.',
        content: {
          'application/json': {
            schema,
            ...(example?.response.status === status && example.response.body !== undefined
              ? { example: example.response.body }
              : others.length
                ? {
                    examples: Object.fromEntries(
                      others.map((e, i) => [
                        `example${i + 1}`,
                        { summary: e.summary, value: e.response.body },
                      ]),
                    ),
                  }
                : {}),
          },
        },
      };
    }
    const statuses = errorStatuses(call, example);
    if (call.rateLimit && !statuses.includes(429)) statuses.push(429);
    for (const status of statuses.sort((a, b) => a - b)) {
      const schema = call.responses[status] ?? commonSchemas.ErrorBody;
      const json = components.toJson(schema, 'output');
      if (schema === commonSchemas.ErrorBody) errorBodyRef = json;
      const examples: Record<string, { summary: string; value: unknown }> = {};
      for (const e of example?.errors ?? []) {
        if (e.response.status === status) {
          examples[`example${Object.keys(examples).length + 1}`] = {
            summary: e.summary,
            value: e.response.body,
          };
        }
      }
      for (const [code, e] of codeExamples(name, call, status)) {
        examples[code.replace(/[^A-Za-z0-9_]/g, '_')] = { summary: e.summary, value: e.body };
      }
      if (status === 409 && call.summary.includes('11000') && !examples.duplicate) {
        examples.duplicate = { summary: ERROR_CODES.duplicate!.summary, value: ERROR_CODES.duplicate!.body };
      }
      // a call's own error body (EmailNotFoundBody) needs the call's own example
      if (!Object.keys(examples).length && schema.safeParse(genericError(status)).success) {
        examples.error = { summary: STATUS_TEXT[status] ?? 'Error', value: genericError(status) };
      }
      responses[status] = {
        description:
          (call.access === 'public' ? PUBLIC_REFUSAL_TEXT[status] : undefined) ??
          (status === 403 && call.summary.includes('ATTEMPT_TOKEN') ? ATTEMPT_REFUSAL_TEXT : undefined) ??
          STATUS_TEXT[status] ??
          'Error.',
        ...(status === 429
          ? {
              headers: {
                'Retry-After': {
                  description: 'Seconds to wait before repeating the call.',
                  schema: { type: 'integer', minimum: 0 },
                  example: 42,
                },
              },
            }
          : {}),
        content: { 'application/json': { schema: json, examples } },
      };
    }
    const security =
      call.access === 'public' ? [] : call.access === 'optional' ? [{}, { bearer: [] }] : [{ bearer: [] }];
    const description = [
      call.description ? `${call.summary}\n\n${call.description}` : call.summary,
      '',
      accessText(call),
      call.rateLimit
        ? `Rate limited per address (${call.rateLimit === 'auth' ? 'sign-in calls' : 'strict calls'}, a count per minute that every server process shares): over it, 429 with Retry-After.`
        : '',
    ]
      .filter((l, i) => l || i === 1)
      .join('\n')
      .trim();
    paths[path] ??= {};
    paths[path][call.method.toLowerCase()] = {
      operationId: name.replace('.', '_'),
      summary: firstSentence(call.summary),
      description,
      tags: call.tags,
      security,
      parameters: [
        ...parametersOf(components, call.params, 'path', descriptions, request.params),
        ...parametersOf(components, call.query, 'query', descriptions, request.query),
        ...parametersOf(components, call.headers, 'header', descriptions, request.headers),
      ],
      ...(call.body && !call.rawBody
        ? {
            requestBody: {
              required: true,
              content: {
                'application/json': {
                  schema: components.toJson(call.body, 'input'),
                  ...(request.body !== undefined ? { example: request.body } : {}),
                },
              },
            },
          }
        : {}),
      ...(call.rawBody
        ? {
            requestBody: {
              required: true,
              content: Object.fromEntries(
                call.rawBody.contentTypes.map((t) => [
                  t,
                  {
                    schema: t === 'application/json' ? {} : { type: 'string', format: 'binary' },
                    ...(request.body !== undefined && t === 'application/json'
                      ? { example: request.body }
                      : {}),
                  },
                ]),
              ),
            },
          }
        : {}),
      responses,
    };
  }
  void errorBodyRef;
  const finished = components.finish(paths);
  const tags = [...new Set(allCalls().flatMap(({ call }) => call.tags))].sort().map((name) => ({
    name,
    description: TAG_TEXT[name] ?? `Calls about ${name}.`,
  }));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Waymark API',
      version: '1.0.0',
      summary: 'Learning roadmaps, time tracking, assessments and shareable awards.',
      description: INFO_DESCRIPTION,
      license: { name: 'Proprietary', identifier: 'LicenseRef-Waymark' },
      contact: {
        name: 'Waymark support',
        email: 'support@waymark.example.com',
        url: `${serverUrl}/contact-us`,
      },
    },
    servers: [{ url: serverUrl, description: 'This Waymark server' }],
    tags,
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description:
            "Waymark's access token (short-lived). Get one with the CLI's device flow or the sign-in exchange: see the document's description.",
        },
      },
      schemas: finished.schemas,
    },
    paths: finished.doc,
  };
}

const firstSentence = (text: string) => {
  const m = text.match(/^(.+?[.!?])(\s|$)/);
  const s = (m?.[1] ?? text).trim();
  return s.length > 120 ? `${s.slice(0, 117)}…` : s;
};

const TAG_TEXT: Record<string, string> = {
  login: 'Signing in: the Firebase ID-token exchange, refresh, sign-out and the CLI device flow.',
  system: 'Health, public configuration and the local mailbox.',
  lists: 'Subjects, topics, languages and countries.',
  tenant: "A mentor's or organisation's learners, seats, subscription and reports (TENANT callers only).",
  testlink: 'Test links: creating, taking and evaluating tests.',
};

const INFO_DESCRIPTION = `Every call of the Waymark portal, widgets, CLI and extension, generated from the contract in \`shared/contract\`.

Success bodies are \`{ data, message? }\`. Errors have one shape, \`ErrorBody\`: \`{ statusCode, error, message, code?, errorCode?, field?, fields?, keyPattern? }\` — \`field\` names the invalid input (\`limit\`, \`email\`), \`code\` carries 11000 for a duplicate and ERR001 for a refused name change, \`errorCode\` carries LINK_EXPIRED, TEST_COMPLETED, ASSESSMENT_NOT_YET_STARTED, ATTEMPT_TOKEN_REQUIRED, ATTEMPT_TOKEN_INVALID, EMAIL_NOT_VERIFIED, NOT_REGISTERED, ROADMAP_LIMIT and the device flow's AUTHORIZATION_PENDING and EXPIRED_TOKEN.

## Getting a token for a script

Calls marked with the \`bearer\` security scheme need Waymark's access token in \`Authorization: Bearer <token>\`. Access tokens live minutes; the refresh token that comes with them is exchanged at \`POST /api/login/refresh\` (one use each: keep the new one).

**The CLI's device flow** (no password in the script):

1. \`POST /api/login/cli/start\` → \`{ deviceCode, userCode, verificationUrl, interval, expiresIn }\`;
2. the person opens \`verificationUrl\` (\`/cli-login\` on this server), signs in and approves \`userCode\` (\`POST /api/login/cli/approve\`);
3. \`POST /api/login/cli/poll\` with \`{ deviceCode }\` every \`interval\` seconds: 428 \`AUTHORIZATION_PENDING\` until approved, then \`{ token, refreshToken, user }\` (410 \`EXPIRED_TOKEN\` once \`expiresIn\` has passed).

\`waymark login\` does exactly this and keeps the tokens (in the CLI's configuration folder), refreshing them as it goes.

**The sign-in exchange**: sign in with Firebase Authentication (e-mail and password, Google, Microsoft…), then \`POST /api/login/sign-in-with-firebase\` with \`{ token: <Firebase ID token>, device }\` → \`{ token, refreshToken, user }\`.

Rate-limited calls answer 429 with \`Retry-After\` (seconds). Public calls read no access token and never answer 401 or 403 for the lack of one; the few that take a credential in the request answer 401 or 403 when it is refused (\`POST /api/login/sign-in-with-firebase\` an ID token, \`POST /api/login/refresh\` a refresh token, \`PUT /api/storage/upload\` its signed address), with an \`errorCode\`.`;
