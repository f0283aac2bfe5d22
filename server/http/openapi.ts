/**
 * The OpenAPI 3.1 document, generated from the contract's routers (shared/contract/registry.ts) and the
 * examples beside them (server/http/openapi-docs.ts): every entity a named schema under components.schemas
 * (the schemas registered in shared/schemas/entities.ts, by their ids; openapi-components.ts), every
 * parameter described, an example for every request and response, each error status with its body and the
 * specification's codes, 429 with Retry-After where a call is rate limited, 401/403 only where a token is
 * read. `scripts/openapi.ts` writes docs/openapi.json; the server serves it at /docs/openapi.json.
 */

import type { CallDef } from '@shared/contract/define';
import { EVENT_CATALOGUE, EVENT_TYPES, eventEnvelope } from '@shared/contract/events';
import { allCalls } from '@shared/contract/registry';
import { ErrorBody } from '@shared/schemas/common';
import type { z } from 'zod';
import { Components, type JsonSchema } from './openapi-components';
import {
  type CallExample,
  ERROR_CODES,
  type ExampleRequest,
  readExample,
  sharedParameters,
} from './openapi-docs';
import {
  ATTEMPT_REFUSAL_TEXT,
  accessText,
  firstSentence,
  genericError,
  INFO_DESCRIPTION,
  keyRefusal,
  PUBLIC_REFUSAL_TEXT,
  STATUS_TEXT,
  TAG_TEXT,
} from './openapi-text';
import { API_PREFIX } from './routes';

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
  // any call that reads a token refuses an API key it does not admit (decision 039)
  const mayBeForbidden = readsToken;
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
  for (const { name, call } of allCalls()) {
    const path = API_PREFIX + call.path;
    paths[path] ??= {};
    paths[path][call.method.toLowerCase()] = operation(components, shared, name, call);
  }
  const hooks = webhooks(components);
  const finished = components.finish({ paths, hooks });
  const tags = [...new Set([...allCalls().flatMap(({ call }) => call.tags), 'events'])]
    .sort()
    .map((name) => ({
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
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'wm_{prefix}_{secret}',
          description:
            "A tenant's API key, sent as `Authorization: Bearer wm_…`. A call's requirement lists the scopes that admit a key (any one of them); calls without an `apiKey` requirement refuse keys.",
        },
      },
      schemas: finished.schemas,
    },
    paths: finished.doc.paths,
    webhooks: finished.doc.hooks,
  };
}

/**
 * The events Waymark sends (shared/contract/events.ts), as OpenAPI's `webhooks`: each type's current
 * version, the body a consumer receives (the envelope with the payload) and an example.
 */
function webhooks(components: Components) {
  return Object.fromEntries(
    EVENT_TYPES.map((type) => {
      const entry = EVENT_CATALOGUE[type];
      const version = entry.current;
      const { payload, example } = entry.versions[version as keyof typeof entry.versions] as {
        payload: z.ZodType;
        example: unknown;
      };
      return [
        type,
        {
          post: {
            operationId: `event_${type.replace(/\./g, '_')}`,
            summary: firstSentence(entry.summary),
            description: `${entry.summary}\n\nVersion ${version} of \`${type}\`. Sent to each tenant the change concerns, as JSON in the body of a POST; the same event (\`id\`) may come more than once, and is never sent for a change that was rolled back.`,
            tags: ['events'],
            // Waymark calls the consumer: how it signs the request is the webhook's own (issue 29)
            security: [],
            requestBody: {
              required: true,
              content: {
                'application/json': {
                  schema: components.toJson(eventEnvelope(type, version, payload), 'output'),
                  example: {
                    id: '3f2c9d1e-7a4b-4c8d-9e0f-1a2b3c4d5e6f',
                    type,
                    version,
                    timestamp: '2026-03-02T10:14:05.120Z',
                    tenantId: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
                    data: example,
                  },
                },
              },
            },
            responses: { '200': { description: 'Received: any 2xx answer acknowledges the event.' } },
          },
        },
      ];
    }),
  );
}

/** One call's operation: who may call it, its parameters, its body and every answer, with examples. */
function operation(components: Components, shared: Record<string, string>, name: string, call: CallDef) {
  const example: CallExample | null = readExample(name);
  const request: ExampleRequest = example?.request ?? {};
  const descriptions = { ...shared, ...(example?.parameters ?? {}) };
  const responses: Record<string, unknown> = {
    ...successResponses(components, call, example),
    ...errorResponses(components, name, call, example),
  };
  const keys = call.scopes?.length ? [{ apiKey: [...call.scopes] }] : [];
  const security =
    call.access === 'public'
      ? []
      : call.access === 'optional'
        ? [{}, { bearer: [] }, ...keys]
        : [{ bearer: [] }, ...keys];
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
  const body = requestBody(components, call, request);
  return {
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
    ...(body ? { requestBody: body } : {}),
    responses,
  };
}

/** The request body: JSON by the call's schema, or a raw body of its content types (an image, a webhook). */
function requestBody(components: Components, call: CallDef, request: ExampleRequest) {
  if (call.rawBody) {
    return {
      required: true,
      content: Object.fromEntries(
        call.rawBody.contentTypes.map((t) => [
          t,
          {
            schema: t === 'application/json' ? {} : { type: 'string', format: 'binary' },
            ...(request.body !== undefined && t === 'application/json' ? { example: request.body } : {}),
          },
        ]),
      ),
    };
  }
  if (!call.body) return null;
  return {
    required: true,
    content: {
      'application/json': {
        schema: components.toJson(call.body, 'input'),
        ...(request.body !== undefined ? { example: request.body } : {}),
      },
    },
  };
}

/** The success answers, by status: the example's own body, or the other successes' examples. */
function successResponses(components: Components, call: CallDef, example: CallExample | null) {
  const responses: Record<string, unknown> = {};
  const success = Object.keys(call.responses)
    .map(Number)
    .filter((s) => s < 400);
  for (const status of success) {
    // a file's body is not JSON: its schema is not converted (it would name a component nothing uses)
    if (call.download) {
      responses[status] = downloadResponse(call.download.contentTypes, status, example);
      continue;
    }
    const schema = components.toJson(call.responses[status]!, 'output');
    const others = (example?.otherSuccesses ?? []).filter((e) => e.response.status === status);
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
                    others.map((e, i) => [`example${i + 1}`, { summary: e.summary, value: e.response.body }]),
                  ),
                }
              : {}),
        },
      },
    };
  }
  return responses;
}

/** A file to download (a CSV report): its body is the file, not a JSON envelope. */
function downloadResponse(contentTypes: readonly string[], status: number, example: CallExample | null) {
  // the example file's body is the file, in the format it requests
  const body = example?.response.status === status ? example.response.body : undefined;
  const requested =
    (example?.request?.query as { format?: string } | undefined)?.format ?? formatOf(contentTypes[0]!);
  return {
    description: 'The file, as an attachment (Content-Disposition names it).',
    content: Object.fromEntries(
      contentTypes.map((t) => [
        t,
        {
          schema: { type: 'string', format: 'binary' },
          ...(body !== undefined && requested === formatOf(t)
            ? // the file's bytes: a JSON file's example is its text, as the binary schema says
              { example: typeof body === 'string' ? body : JSON.stringify(body, null, 2) }
            : {}),
        },
      ]),
    ),
  };
}

/** The error answers, by status: the call's own examples, the specification's codes it names, or a generic one. */
function errorResponses(components: Components, name: string, call: CallDef, example: CallExample | null) {
  const responses: Record<string, unknown> = {};
  const statuses = errorStatuses(call, example);
  if ((call.rateLimit || call.scopes) && !statuses.includes(429)) statuses.push(429);
  for (const status of statuses.sort((a, b) => a - b)) {
    const schema = call.responses[status] ?? ErrorBody;
    const json = components.toJson(schema, 'output');
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
    if (status === 403 && call.access !== 'public') {
      examples[call.scopes ? 'API_KEY_SCOPE' : 'API_KEY_NOT_ALLOWED'] = keyRefusal(call);
    }
    if (status === 429 && call.scopes && !call.rateLimit) {
      examples.RATE_LIMITED = {
        summary: "RATE_LIMITED: the API key's requests this minute are used up",
        value: {
          statusCode: 429,
          error: 'Too Many Requests',
          message: 'This API key made more than 600 requests in a minute: wait 42 s.',
          errorCode: 'RATE_LIMITED',
        },
      };
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
            ...(call.scopes && !call.rateLimit
              ? {
                  description:
                    'Too many requests with this API key: wait for the seconds in `Retry-After`, then repeat.',
                }
              : {}),
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
  return responses;
}
