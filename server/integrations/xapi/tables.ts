/**
 * xAPI to a learning record store (issue 29 item 3; decision 042): a tenant's LRS and the queue of what goes
 * to it — one row per event, made in the event's own transaction by the trigger on `events` (migration 0026),
 * turned into its statements when first sent and kept as they were, so a re-send is the same statements.
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

/** A tenant's learning record store: where statements go, as whom, and which of them. */
export const xapiConnections = pgTable('xapi_connections', {
  tenantId: uuid('tenant_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** The LRS's statement endpoint (`…/xapi/`, statements are POSTed to `{endpoint}statements`). */
  endpoint: text('endpoint').notNull(),
  /** The LRS key (HTTP Basic user name). */
  username: text('username').notNull(),
  /** The LRS secret (HTTP Basic password), sealed. */
  secret: text('secret').notNull(),
  /** How learners are named: an `account` with a per-tenant pseudonym, or their `mbox` (e-mail address). */
  actorFormat: text('actor_format', { enum: ['account', 'mbox'] })
    .notNull()
    .default('account'),
  /** Which statements are sent: studied, assessments, awards, roadmaps (shared/schemas/xapi.ts). */
  statements: text('statements').array().notNull(),
  enabled: boolean('enabled').notNull().default(true),
  /** The key of the learners' pseudonyms for this tenant (random, sealed): stable while the LRS is connected. */
  pseudonymKey: text('pseudonym_key').notNull(),
  createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
  lastSentAt: ts('last_sent_at'),
  /** The first failure since the LRS last accepted a batch; null while it accepts them. */
  failingSince: ts('failing_since'),
});

/** One event's statements for a tenant's LRS: PENDING, SENDING (its claim's lease in next_attempt_at), SENT, FAILED. */
export const xapiStatements = pgTable(
  'xapi_statements',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The order the events were written in (the tenant's list reads by it, newest first). */
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity().notNull(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => xapiConnections.tenantId, { onDelete: 'cascade' }),
    /** The event (`events.id`; no foreign key, as the webhook deliveries). */
    eventId: uuid('event_id').notNull(),
    eventType: text('event_type').notNull(),
    /** The statements, built when first sent and kept: every re-send is the same statements, with the same ids. */
    statements: jsonb('statements').$type<Record<string, unknown>[]>(),
    status: text('status', { enum: ['PENDING', 'SENDING', 'SENT', 'FAILED'] })
      .notNull()
      .default('PENDING'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at').defaultNow(),
    claim: uuid('claim'),
    createdAt: ts('created_at').notNull().defaultNow(),
    lastAttemptAt: ts('last_attempt_at'),
    sentAt: ts('sent_at'),
    responseStatus: integer('response_status'),
    lastError: text('last_error'),
    /** `last_error` by code, sentence by sentence (shared/rules/delivery-words.ts); null on older rows. */
    lastErrorParts: jsonb('last_error_parts').$type<DeliveryWords[]>(),
  },
  (t) => [
    uniqueIndex('xapi_statements_event_key').on(t.tenantId, t.eventId),
    index('xapi_statements_due_idx')
      .on(t.tenantId, t.nextAttemptAt)
      .where(sql`${t.status} in ('PENDING', 'SENDING')`),
    index('xapi_statements_tenant_seq_idx').on(t.tenantId, t.seq),
    index('xapi_statements_time_idx').on(t.createdAt),
  ],
);
