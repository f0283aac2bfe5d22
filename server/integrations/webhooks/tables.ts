/**
 * Webhooks (issue 29 item 2; decision 042): a tenant's endpoints and one delivery row per (event, endpoint).
 * The delivery rows are made in the event's own transaction by a trigger on `events` (migration 0026:
 * `waymark_events_fan_out`), so an event has its deliveries exactly when it was committed; pg-boss jobs send
 * them (server/integrations/webhooks/deliver.ts).
 */

import type { DeliveryWords } from '@shared/rules/delivery-words';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from '../../db/schema';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Where a tenant wants its events: an HTTPS address, the event types it asked for, its signing secret. */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    description: text('description').notNull().default(''),
    /** The event types it receives (shared/contract/events.ts). */
    eventTypes: text('event_types').array().notNull(),
    /** One delivery at a time, in the order of the events; a failing one holds back the next. */
    ordered: boolean('ordered').notNull().default(false),
    /** DISABLED: by the tenant, after three days of failures, or when it answered 410 Gone. */
    status: text('status', { enum: ['ACTIVE', 'DISABLED'] })
      .notNull()
      .default('ACTIVE'),
    disabledReason: text('disabled_reason'),
    disabledAt: ts('disabled_at'),
    /** The signing secret (`whsec_…`), sealed (server/integrations/core/sealed.ts). */
    secret: text('secret').notNull(),
    /** The secret before the last rotation, sealed: deliveries are signed with it too until `previous_secret_until`. */
    previousSecret: text('previous_secret'),
    previousSecretUntil: ts('previous_secret_until'),
    secretRotatedAt: ts('secret_rotated_at'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    /** The first failure since the last delivery that succeeded; null while it succeeds. */
    failingSince: ts('failing_since'),
    lastDeliveredAt: ts('last_delivered_at'),
  },
  (t) => [index('webhook_endpoints_tenant_idx').on(t.tenantId, t.createdAt)],
);

/**
 * One event for one endpoint: waiting (PENDING, with the time of its next attempt), in hand (SENDING, its
 * claim's lease in `next_attempt_at`), DELIVERED (a 2xx) or FAILED (given up after the retries, or its
 * endpoint disabled). The answer of the last attempt is kept: status, time taken, the first 2 KB.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The order of the deliveries of one endpoint (the order the events were written in). */
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity().notNull(),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    tenantId: uuid('tenant_id').notNull(),
    /**
     * The event (`events.id`; no foreign key: the outbox may be partitioned and pruned on its own), and the
     * body's `id` and `webhook-id` of every attempt. A test delivery's id is its own.
     */
    eventId: uuid('event_id').notNull(),
    eventType: text('event_type').notNull(),
    /** The body of a test delivery; null: the event's, read from `events` when it is sent. */
    payload: jsonb('payload').$type<Record<string, unknown>>(),
    status: text('status', { enum: ['PENDING', 'SENDING', 'DELIVERED', 'FAILED'] })
      .notNull()
      .default('PENDING'),
    attempts: integer('attempts').notNull().default(0),
    /** PENDING: when it is next tried; SENDING: when the claim's lease ends (a worker that died). */
    nextAttemptAt: ts('next_attempt_at').defaultNow(),
    /** The attempt in hand: only the worker holding it records its outcome. */
    claim: uuid('claim'),
    createdAt: ts('created_at').notNull().defaultNow(),
    lastAttemptAt: ts('last_attempt_at'),
    deliveredAt: ts('delivered_at'),
    responseStatus: integer('response_status'),
    responseMs: integer('response_ms'),
    /** The first 2 KB of the last answer. */
    responseBody: text('response_body'),
    lastError: text('last_error'),
    /** `last_error` by code, sentence by sentence (shared/rules/delivery-words.ts); null on older rows. */
    lastErrorParts: jsonb('last_error_parts').$type<DeliveryWords[]>(),
  },
  (t) => [
    // exactly one delivery per event and endpoint
    uniqueIndex('webhook_deliveries_event_key').on(t.endpointId, t.eventId),
    // what is due, per endpoint; and the head of an ordered endpoint's queue
    index('webhook_deliveries_due_idx')
      .on(t.endpointId, t.nextAttemptAt)
      .where(sql`${t.status} in ('PENDING', 'SENDING')`),
    index('webhook_deliveries_open_idx')
      .on(t.endpointId, t.seq)
      .where(sql`${t.status} in ('PENDING', 'SENDING')`),
    // the tenant's list, newest first (keyset on seq), and the retention's sweep
    index('webhook_deliveries_endpoint_seq_idx').on(t.endpointId, t.seq),
    index('webhook_deliveries_time_idx').on(t.createdAt),
  ],
);
