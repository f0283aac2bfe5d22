/**
 * The learning record store's calls (issue 29 item 3; decision 042): a tenant connects its LRS (statement
 * endpoint, key and secret), chooses what is sent and how learners are named, tries it with a test statement,
 * reads what was sent and sends again what failed. A person or an API key with `integrations:manage`.
 * Published in the `integrations` group; served by server/integrations/xapi/routes.ts.
 */
import { z } from 'zod';
import { envelope, errors } from '../schemas/common';
import {
  ConnectXapiInput,
  XapiConnection,
  XapiQueueEntry,
  XapiQueueStatus,
  XapiTestResult,
} from '../schemas/xapi';
import { defineCall, defineRouter } from './define';

const TENANT = ['TENANT'] as const;
const SCOPES = ['integrations:manage'] as const;
const tags = ['integrations', 'xapi'];

export const xapiConnection = defineCall({
  method: 'GET',
  path: '/tenant/xapi',
  summary:
    "The tenant's learning record store: its statement endpoint, key (never the secret), how learners are named, what is sent, and how many events wait, were sent and failed. null when none is connected.",
  tags,
  access: TENANT,
  scopes: SCOPES,
  responses: { 200: envelope(XapiConnection.nullable()), ...errors },
});

export const connectXapi = defineCall({
  method: 'PUT',
  path: '/tenant/xapi',
  summary:
    'Connects the LRS, or changes its settings: the statement endpoint (https; never a private, loopback or link-local address), the key and secret (the secret is kept sealed and never shown again; left out, the current one is kept), `actorFormat` (`account`: a stable pseudonym per learner at this Waymark’s address; `mbox`: the e-mail address) and which statements are sent. Statements of events from then on are sent, in batches, with retries.',
  tags,
  access: TENANT,
  scopes: SCOPES,
  body: ConnectXapiInput,
  responses: { 200: envelope(XapiConnection), ...errors },
});

export const disconnectXapi = defineCall({
  method: 'DELETE',
  path: '/tenant/xapi',
  summary: 'Disconnects the LRS: nothing more is sent, and what was waiting is dropped.',
  tags,
  access: TENANT,
  scopes: SCOPES,
  responses: { 200: envelope(z.object({ ok: z.boolean() })), ...errors },
});

export const testXapi = defineCall({
  method: 'POST',
  path: '/tenant/xapi/test',
  summary:
    "Sends the connected LRS one statement (the tenant `interacted` with Waymark's connection) and answers what the LRS said: whether it stored it, its status code, how long it took. XAPI_NOT_CONNECTED (409) when there is no LRS.",
  tags,
  access: TENANT,
  scopes: SCOPES,
  responses: { 200: envelope(XapiTestResult), ...errors },
});

export const xapiStatementQueue = defineCall({
  method: 'GET',
  path: '/tenant/xapi/statements',
  summary:
    'What went, goes or failed to go to the LRS, newest first: one entry per event with its statements’ ids, status, attempts, the LRS’s last status code and error. Filter by status; `cursor` reads on.',
  tags,
  access: TENANT,
  scopes: SCOPES,
  query: z.object({
    status: XapiQueueStatus.optional().describe('Only entries in this status'),
    cursor: z
      .string()
      .max(100)
      .regex(/^[A-Za-z0-9_-]+$/, 'is not a cursor of this list')
      .optional()
      .describe('Where to read on: the nextCursor of the page before'),
    limit: z.coerce
      .number({ error: 'must be a number from 1 to 100' })
      .int('must be a number from 1 to 100')
      .min(1, 'must be a number from 1 to 100')
      .max(100, 'must be a number from 1 to 100')
      .default(50),
  }),
  responses: {
    200: envelope(z.object({ entries: z.array(XapiQueueEntry), nextCursor: z.string().nullable() })),
    ...errors,
  },
});

export const resendXapiStatements = defineCall({
  method: 'POST',
  path: '/tenant/xapi/statements/resend',
  summary:
    'Sends again every entry that failed (the same statements, the same ids: an LRS stores each once); answers how many. XAPI_NOT_CONNECTED (409) when there is no LRS.',
  tags,
  access: TENANT,
  scopes: SCOPES,
  idempotent: true,
  responses: { 200: envelope(z.object({ resent: z.number().int() })), ...errors },
});

/** The LRS's calls, served by server/integrations/xapi/routes.ts. */
export const xapiRouter = defineRouter({
  xapiConnection,
  connectXapi,
  disconnectXapi,
  testXapi,
  xapiStatementQueue,
  resendXapiStatements,
});
