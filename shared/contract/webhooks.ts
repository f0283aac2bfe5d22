/**
 * Webhook endpoints' calls (issue 29 item 2; decision 042): a tenant adds, lists, changes and removes its
 * endpoints, rotates an endpoint's signing secret, sends it a test event, reads its deliveries and
 * redelivers one, or every failed one of a period. A person or an API key with `integrations:manage`.
 * Published in the `integrations` group; served by server/integrations/webhooks/routes.ts.
 */
import { z } from 'zod';
import { envelope, errors, Id } from '../schemas/common';
import {
  CreatedWebhookEndpoint,
  CreateWebhookInput,
  RedeliverInput,
  UpdateWebhookInput,
  WebhookDelivery,
  WebhookDeliveryQuery,
  WebhookEndpoint,
} from '../schemas/webhooks';
import { defineCall, defineRouter } from './define';

const TENANT = ['TENANT'] as const;
const SCOPES = ['integrations:manage'] as const;
const tags = ['integrations', 'webhooks'];

export const webhookList = defineCall({
  method: 'GET',
  path: '/tenant/webhooks',
  summary:
    "The tenant's webhook endpoints, oldest first: address, event types, order, status (and why one is disabled), when the secret was rotated, when the last delivery succeeded. Never a secret.",
  tags,
  access: TENANT,
  scopes: SCOPES,
  responses: { 200: envelope(z.array(WebhookEndpoint)), ...errors },
});

export const createWebhook = defineCall({
  method: 'POST',
  path: '/tenant/webhooks',
  summary:
    'Adds a webhook endpoint: an https address (plain http only to this machine, in development; never a private, loopback or link-local address), the event types it receives, and whether they must arrive in order. The answer holds its signing secret (`secret`, whsec_…) this once. Deliveries are signed per Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature). At most 20 endpoints.',
  tags,
  access: TENANT,
  scopes: SCOPES,
  body: CreateWebhookInput,
  responses: { 201: envelope(CreatedWebhookEndpoint), ...errors },
});

const EndpointParams = z.object({ id: Id });

export const updateWebhook = defineCall({
  method: 'PATCH',
  path: '/tenant/webhooks/{id}',
  summary:
    'Changes an endpoint: its address, description, event types, order; `enabled: false` disables it, `enabled: true` enables it again (its failures forgotten). Events happening while it is disabled are kept as failed deliveries, to redeliver.',
  tags,
  access: TENANT,
  scopes: SCOPES,
  params: EndpointParams,
  body: UpdateWebhookInput,
  responses: { 200: envelope(WebhookEndpoint), ...errors },
});

export const removeWebhook = defineCall({
  method: 'DELETE',
  path: '/tenant/webhooks/{id}',
  summary:
    'Removes an endpoint with its deliveries: nothing more is sent to it (an attempt already under way when it is removed still ends).',
  tags,
  access: TENANT,
  scopes: SCOPES,
  params: EndpointParams,
  responses: { 200: envelope(z.object({ ok: z.boolean() })), ...errors },
});

export const rotateWebhookSecret = defineCall({
  method: 'POST',
  path: '/tenant/webhooks/{id}/rotate-secret',
  summary:
    'Gives the endpoint a new signing secret, shown this once (`secret`). For 24 hours every delivery is signed with both the new and the previous secret (two signatures in webhook-signature), then with the new one only.',
  tags,
  access: TENANT,
  scopes: SCOPES,
  params: EndpointParams,
  responses: { 200: envelope(CreatedWebhookEndpoint), ...errors },
});

export const testWebhook = defineCall({
  method: 'POST',
  path: '/tenant/webhooks/{id}/test',
  summary:
    'Sends the endpoint a test event (`webhook.test`), signed as every delivery; the answer is the delivery, to follow in the deliveries list. ENDPOINT_DISABLED (409) for a disabled endpoint.',
  tags,
  access: TENANT,
  scopes: SCOPES,
  params: EndpointParams,
  responses: { 202: envelope(WebhookDelivery), ...errors },
});

/** The largest page of deliveries. */
export const DELIVERY_PAGE_MAX = 100;

export const webhookDeliveries = defineCall({
  method: 'GET',
  path: '/tenant/webhooks/{id}/deliveries',
  summary:
    "An endpoint's deliveries, newest first: the event, status, attempts, when, the answer's status code, how long it took and its first 2 KB, and why the last attempt failed. Filter by status and time; `cursor` (the last answer's nextCursor) reads on. Deliveries are kept 30 days.",
  tags,
  access: TENANT,
  scopes: SCOPES,
  params: EndpointParams,
  query: WebhookDeliveryQuery.safeExtend({
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
      .max(DELIVERY_PAGE_MAX, 'must be a number from 1 to 100')
      .default(50),
  }),
  responses: {
    200: envelope(z.object({ deliveries: z.array(WebhookDelivery), nextCursor: z.string().nullable() })),
    ...errors,
  },
});

export const redeliverWebhook = defineCall({
  method: 'POST',
  path: '/tenant/webhooks/{id}/deliveries/{deliveryId}/redeliver',
  summary:
    'Sends a delivery again (a failed one, or one delivered): the same event, the same webhook-id, a fresh timestamp and signature, with its retries. DELIVERY_IN_PROGRESS (409) while it is being sent; ENDPOINT_DISABLED (409) for a disabled endpoint.',
  tags,
  access: TENANT,
  scopes: SCOPES,
  params: z.object({ id: Id, deliveryId: Id }),
  responses: { 200: envelope(WebhookDelivery), ...errors },
});

export const redeliverFailedWebhooks = defineCall({
  method: 'POST',
  path: '/tenant/webhooks/{id}/redeliver',
  summary:
    'Sends again every failed delivery of the endpoint whose event happened in the period (`from` included, `to` excluded), in their order; answers how many. ENDPOINT_DISABLED (409) for a disabled endpoint.',
  tags,
  access: TENANT,
  scopes: SCOPES,
  params: EndpointParams,
  body: RedeliverInput,
  responses: { 200: envelope(z.object({ redelivered: z.number().int() })), ...errors },
});

/** The webhooks' calls, served by server/integrations/webhooks/routes.ts. */
export const webhooksRouter = defineRouter({
  webhookList,
  createWebhook,
  updateWebhook,
  removeWebhook,
  rotateWebhookSecret,
  testWebhook,
  webhookDeliveries,
  redeliverWebhook,
  redeliverFailedWebhooks,
});
