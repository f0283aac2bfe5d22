/** The OpenAPI document, generated from the contract. */

import { allCalls } from '@shared/contract/registry';
import { z } from 'zod';
import { API_PREFIX } from './routes';

type JsonSchema = Record<string, unknown>;

const toJson = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema => {
  try {
    const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, {
      io,
      unrepresentable: 'any',
      target: 'draft-2020-12',
    }) as JsonSchema;
    return rest;
  } catch {
    return {};
  }
};

function parametersOf(schema: z.ZodType | undefined, where: 'path' | 'query') {
  if (!schema) return [];
  const json = toJson(schema, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, s]) => ({
    name,
    in: where,
    required: where === 'path' || (json.required ?? []).includes(name),
    schema: s,
    ...(typeof s.description === 'string' ? { description: s.description } : {}),
  }));
}

export function buildOpenApi(serverUrl: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const { name, call } of allCalls()) {
    const path = API_PREFIX + call.path;
    const responses: Record<string, unknown> = {};
    for (const [status, schema] of Object.entries(call.responses)) {
      responses[status] = {
        description: Number(status) < 300 ? 'Success' : 'Error',
        content: { 'application/json': { schema: toJson(schema, 'output') } },
      };
    }
    const security =
      call.access === 'public' ? [] : call.access === 'optional' ? [{}, { bearer: [] }] : [{ bearer: [] }];
    paths[path] ??= {};
    paths[path][call.method.toLowerCase()] = {
      operationId: name,
      summary: call.summary,
      tags: call.tags,
      description: `${call.description ? `${call.description}\n\n` : ''}Who may call: ${Array.isArray(call.access) ? `signed-in ${call.access.join(' or ')}` : call.access}${call.devices ? `; devices ${call.devices.join(', ')}` : ''}.${call.rateLimit ? ` Rate limited (${call.rateLimit}).` : ''}`,
      security,
      parameters: [...parametersOf(call.params, 'path'), ...parametersOf(call.query, 'query')],
      ...(call.body && !call.rawBody
        ? {
            requestBody: {
              required: true,
              content: { 'application/json': { schema: toJson(call.body, 'input') } },
            },
          }
        : {}),
      ...(call.rawBody
        ? {
            requestBody: {
              required: true,
              content: Object.fromEntries(
                call.rawBody.contentTypes.map((t) => [t, { schema: { type: 'string', format: 'binary' } }]),
              ),
            },
          }
        : {}),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Waymark API',
      version: '1.0.0',
      description:
        'Every call of the Waymark portal, widgets, CLI and extension. Success bodies are `{ data }`; errors are `{ statusCode, error, message, code?, errorCode?, field? }`.',
    },
    servers: [{ url: serverUrl }],
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    paths,
  };
}
