/**
 * The integrations' own calls (issue 28; decision 039): a tenant's API keys — made, listed and revoked by the
 * mentor in person, never by a key — and the activity log (the audit log), read and downloaded. Served by
 * server/integrations/keys and server/integrations/audit.
 */
import { z } from 'zod';
import { envelope, errors, Id } from '../schemas/common';
import { FileBody } from '../schemas/file';
import { ApiKey, AuditEntry, AuditQuery, CreateApiKeyInput, CreatedApiKey } from '../schemas/integrations';
import { defineCall, defineRouter } from './define';

const TENANT = ['TENANT'] as const;

// ---- API keys

export const apiKeyList = defineCall({
  method: 'GET',
  path: '/tenant/api-keys',
  summary:
    "The tenant's API keys, newest first: name, prefix, scopes, expiry, last use (to the minute) and status. Never a key's secret.",
  tags: ['integrations'],
  access: TENANT,
  responses: { 200: envelope(z.array(ApiKey)), ...errors },
});

export const createApiKey = defineCall({
  method: 'POST',
  path: '/tenant/api-keys',
  summary:
    'Makes an API key with a name, its scopes and an optional expiry. The answer holds the whole key (`key`, wm_{prefix}_{secret}) this once: only its hash is kept. A key acts as this tenant within its scopes (Authorization: Bearer wm_…); the activity log records its making.',
  tags: ['integrations'],
  access: TENANT,
  body: CreateApiKeyInput,
  responses: { 201: envelope(CreatedApiKey), ...errors },
});

export const revokeApiKey = defineCall({
  method: 'DELETE',
  path: '/tenant/api-keys/{id}',
  summary:
    'Revokes an API key: its next request is refused (401 API_KEY_REVOKED) on every server process. Revoking a revoked key changes nothing.',
  tags: ['integrations'],
  access: TENANT,
  params: z.object({ id: Id }),
  responses: { 200: envelope(ApiKey), ...errors },
});

// ---- the activity log

/** The largest page of the activity log. */
export const AUDIT_PAGE_MAX = 100;

export const auditLog = defineCall({
  method: 'GET',
  path: '/tenant/audit-log',
  summary:
    "The tenant's activity log, newest first: every change to seats, assignments, assessments and their sharing, API keys, integrations and award revocations, with who made it (a person, an API key, …), when and from where. Filter by action (or its group, `seat`), actor and time; `cursor` (the last answer's nextCursor) reads on. Entries cannot be changed or deleted; they are kept at least a year (AUDIT_RETENTION_DAYS).",
  tags: ['integrations'],
  access: TENANT,
  scopes: ['integrations:manage'],
  query: AuditQuery.safeExtend({
    cursor: z
      .string()
      .max(100)
      .regex(/^[A-Za-z0-9_-]+$/, 'is not a cursor of this log')
      .optional()
      .describe('Where to read on: the nextCursor of the page before'),
    limit: z.coerce
      .number({ error: 'must be a number from 1 to 100' })
      .int('must be a number from 1 to 100')
      .min(1, 'must be a number from 1 to 100')
      .max(AUDIT_PAGE_MAX, 'must be a number from 1 to 100')
      .default(50),
  }),
  responses: {
    200: envelope(z.object({ entries: z.array(AuditEntry), nextCursor: z.string().nullable() })),
    ...errors,
  },
});

/** CSV (UTF-8 with a BOM) or NDJSON, like every table to take away. */
export const AUDIT_FORMATS = ['csv', 'ndjson'] as const;

export const exportAuditLog = defineCall({
  method: 'GET',
  path: '/tenant/export/audit-log',
  summary:
    'The activity log as a file, newest first, with the same filters (Time, Action, Actor kind, Actor, Actor id, Target kind, Target id, Summary, IP address, User agent, Details). All the rows, streamed: CSV is UTF-8 with a byte-order mark, RFC 4180 quoting, and text cells starting with = + - @ prefixed with an apostrophe; NDJSON has one entry a line.',
  tags: ['integrations', 'reports'],
  access: TENANT,
  scopes: ['integrations:manage'],
  query: AuditQuery.safeExtend({
    format: z.enum(AUDIT_FORMATS, { error: 'must be csv or ndjson' }).default('csv'),
  }),
  download: { contentTypes: ['text/csv', 'application/x-ndjson'] },
  responses: { 200: FileBody, ...errors },
});

/** The keys' calls, served by server/integrations/keys/routes.ts. */
export const apiKeysRouter = defineRouter({ apiKeyList, createApiKey, revokeApiKey });

/** The activity log's calls, served by server/integrations/audit/routes.ts. */
export const auditRouter = defineRouter({ auditLog, exportAuditLog });
