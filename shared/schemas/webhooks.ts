/**
 * Webhooks (issue 29 item 2; decision 042): a tenant's endpoints — an HTTPS address, the event types it
 * wants (shared/contract/events.ts), whether they must arrive in order — and each delivery as the tenant
 * sees it: the event, its status, when, the answer's code, how long it took and the answer's first 2 KB.
 * Deliveries are signed per Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`).
 */
import { z } from 'zod';
import { EVENT_TYPES, type EventType } from '../contract/events';
import { messageKey } from '../i18n/keys';
import { DateTime, Id } from './common';
import { CodedWords } from './credential';
import { entities } from './entities';

export const WebhookEventType = z.enum(EVENT_TYPES as [EventType, ...EventType[]], {
  error: `must be one of ${EVENT_TYPES.join(', ')}`,
});
entities.add(WebhookEventType, { id: 'WebhookEventType' });

/** The type of the event a tenant sends to an endpoint to try it (never written to the outbox). */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

/** The longest address an endpoint may have. */
export const MAX_WEBHOOK_URL = 2000;
/** How many endpoints a tenant may have. */
export const MAX_WEBHOOK_ENDPOINTS = 20;
/** How long the secret before a rotation still signs deliveries, in hours. */
export const PREVIOUS_SECRET_HOURS = 24;
/** How much of an endpoint's answer is kept for the tenant to read, in bytes. */
export const RESPONSE_KEPT_BYTES = 2048;
/** How long delivered and failed deliveries are kept, in days. */
export const DELIVERY_RETENTION_DAYS = 30;

const WebhookUrl = z
  .string({ error: 'Required' })
  .trim()
  .min(1, 'Required')
  .max(MAX_WEBHOOK_URL, `must be at most ${MAX_WEBHOOK_URL} characters`)
  .url('must be an address such as https://example.com/webhooks/waymark')
  .describe(
    'Where the events are POSTed: an https address (plain http only to this machine, in development)',
  );

const Events = z
  .array(WebhookEventType)
  .min(1, messageKey('webhooks.chooseEvent'))
  .max(EVENT_TYPES.length)
  .describe('The event types the endpoint receives');

const Description = z
  .string()
  .trim()
  .max(200, 'must be at most 200 characters')
  .describe('What the endpoint is for, as the list shows it');

/**
 * Why an endpoint is disabled, as `disabledReason` says it in English: the tenant paused it, it answered
 * 410 Gone, or no delivery succeeded for `days` days since `since`. The server writes the English from
 * here; the answer carries it again by code (`disabledWhy`) for the portal to say in the reader's language.
 */
export const DISABLED_REASONS = {
  TENANT: 'Disabled by the tenant.',
  GONE: 'The endpoint answered 410 Gone: it no longer wants events.',
  failing: (since: string, days: number) =>
    `No delivery has succeeded since ${since}: the endpoint failed for ${days} days.`,
} as const;
const FAILING_REASON = /^No delivery has succeeded since (\S+): the endpoint failed for (\d+) days\.$/;

export const DisabledWhy = z.object({
  code: z.enum(['TENANT', 'GONE', 'FAILING']),
  /** FAILING: since when, and for how many days. */
  since: DateTime.nullable(),
  days: z.number().int().nullable(),
});
entities.add(DisabledWhy, { id: 'DisabledWhy' });

/** A stored reason by code (older endpoints' too: the same English), or null for none known. */
export function disabledWhy(reason: string | null): z.infer<typeof DisabledWhy> | null {
  if (reason === DISABLED_REASONS.TENANT) return { code: 'TENANT', since: null, days: null };
  if (reason === DISABLED_REASONS.GONE) return { code: 'GONE', since: null, days: null };
  const failing = reason ? FAILING_REASON.exec(reason) : null;
  return failing ? { code: 'FAILING', since: failing[1]!, days: Number(failing[2]) } : null;
}

export const WebhookEndpoint = z.object({
  _id: Id,
  url: z.string(),
  description: z.string(),
  events: z.array(WebhookEventType),
  /** One delivery at a time in the order of the events: a failing one holds back the next. */
  ordered: z.boolean(),
  /** DISABLED by the tenant, after three days of failures, or when the endpoint answered 410 Gone. */
  status: z.enum(['ACTIVE', 'DISABLED']),
  disabledReason: z.string().nullable(),
  /** `disabledReason` by code, null when not disabled (or for a reason without one). */
  disabledWhy: DisabledWhy.nullable(),
  disabledAt: DateTime.nullable(),
  createdAt: DateTime,
  updatedAt: DateTime,
  /** When the secret was last rotated (null: never). */
  secretRotatedAt: DateTime.nullable(),
  /** Until when the secret before the last rotation also signs (null: only the current one signs). */
  previousSecretUntil: DateTime.nullable(),
  /** The first failure since the last delivery that succeeded (null: not failing). */
  failingSince: DateTime.nullable(),
  lastDeliveredAt: DateTime.nullable(),
});
entities.add(WebhookEndpoint, { id: 'WebhookEndpoint' });
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;

export const CreatedWebhookEndpoint = WebhookEndpoint.extend({
  /** The signing secret, `whsec_` + base64: shown this once. */
  secret: z.string(),
});
entities.add(CreatedWebhookEndpoint, { id: 'CreatedWebhookEndpoint' });

export const CreateWebhookInput = z.object({
  url: WebhookUrl,
  description: Description.optional(),
  events: Events,
  ordered: z
    .boolean()
    .optional()
    .describe('Deliver one at a time, in the order of the events (default false)'),
});
entities.add(CreateWebhookInput, { id: 'CreateWebhookInput' });
export type CreateWebhookInput = z.input<typeof CreateWebhookInput>;

export const UpdateWebhookInput = z.object({
  url: WebhookUrl.optional(),
  description: Description.optional(),
  events: Events.optional(),
  ordered: z.boolean().optional(),
  enabled: z
    .boolean()
    .optional()
    .describe('false disables the endpoint; true enables it again (its failures are forgotten)'),
});
entities.add(UpdateWebhookInput, { id: 'UpdateWebhookInput' });
export type UpdateWebhookInput = z.input<typeof UpdateWebhookInput>;

export const WEBHOOK_DELIVERY_STATUSES = ['PENDING', 'SENDING', 'DELIVERED', 'FAILED'] as const;
export const WebhookDeliveryStatus = z.enum(WEBHOOK_DELIVERY_STATUSES, {
  error: `must be one of ${WEBHOOK_DELIVERY_STATUSES.join(', ')}`,
});
entities.add(WebhookDeliveryStatus, { id: 'WebhookDeliveryStatus' });

export const WebhookDelivery = z.object({
  _id: Id,
  /** The event's id: the body's `id` and the `webhook-id` header of every attempt. */
  eventId: Id,
  eventType: z.string(),
  /** PENDING (waiting for its next attempt), SENDING, DELIVERED (a 2xx answer) or FAILED (given up). */
  status: WebhookDeliveryStatus,
  attempts: z.number().int(),
  createdAt: DateTime,
  lastAttemptAt: DateTime.nullable(),
  /** PENDING: when it is tried next. */
  nextAttemptAt: DateTime.nullable(),
  deliveredAt: DateTime.nullable(),
  /** The HTTP status of the last answer (null: no answer — refused, unreachable, too slow). */
  responseStatus: z.number().int().nullable(),
  /** Milliseconds the last attempt took. */
  responseMs: z.number().int().nullable(),
  /** The first 2 KB of the last answer. */
  responseBody: z.string().nullable(),
  /** Why the last attempt failed, in words. */
  error: z.string().nullable(),
  errorParts: z
    .array(CodedWords)
    .nullable()
    .describe(
      '`error` by code, sentence by sentence (`deliveries.error.…`, `xapi.result.…`; their words joined by a space are `error`); null with no error, or for an error older than its codes.',
    ),
});
entities.add(WebhookDelivery, { id: 'WebhookDelivery' });
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

/** A time a caller sends as ISO 8601 text, with its offset. */
const IsoTime = z.iso
  .datetime({ offset: true, error: 'must be an ISO 8601 time such as 2026-03-02T09:30:00Z' })
  .max(40, 'must be an ISO 8601 time such as 2026-03-02T09:30:00Z');

export const WebhookDeliveryQuery = z.object({
  status: WebhookDeliveryStatus.optional().describe('Only deliveries in this status'),
  from: IsoTime.optional().describe('Deliveries of events from this time (ISO 8601), included'),
  to: IsoTime.optional().describe('Until this time (ISO 8601), excluded'),
});

export const RedeliverInput = z
  .object({
    from: IsoTime.describe('The period’s start (ISO 8601), included'),
    to: IsoTime.describe('Its end (ISO 8601), excluded'),
  })
  .refine((p) => Date.parse(p.to) > Date.parse(p.from), { message: 'must be after from', path: ['to'] });

/** The body of the test event: what it says, and when and by whom it was asked for. */
export const WebhookTestData = z.object({
  message: z.string(),
  endpointId: Id,
  requestedAt: DateTime,
});
entities.add(WebhookTestData, { id: 'WebhookTestData' });
entities.add(RedeliverInput, { id: 'RedeliverInput' });
