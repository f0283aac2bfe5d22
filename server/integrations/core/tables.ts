/**
 * What every integration stands on (decision 039): API keys (stored hashed, with a visible prefix), the
 * audit log (append-only: a trigger refuses every change but the retention's, migration 0020), the events
 * outbox (written in the change's own transaction) and the identities other systems give a Waymark user.
 */
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from '../../db/schema';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * A tenant's API key: `wm_{prefix}_{secret}`. Only the SHA-256 of the secret is kept; the prefix is shown and
 * finds the row. A key acts as its tenant within its scopes until it expires or is revoked.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The person who made it. */
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    /** SHA-256 of the secret part, hex. */
    secretHash: text('secret_hash').notNull(),
    scopes: text('scopes').array().notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    expiresAt: ts('expires_at'),
    /** Recorded at most once a minute (the authentication's statement writes it when older). */
    lastUsedAt: ts('last_used_at'),
    revokedAt: ts('revoked_at'),
  },
  (t) => [uniqueIndex('api_keys_prefix_key').on(t.prefix), index('api_keys_tenant_idx').on(t.tenantId)],
);

/**
 * The audit log: who (a person, an API key, a SCIM token, an LTI platform, or Waymark on a schedule) changed
 * what of a tenant's, when and from where. Written in the transaction of the change; never updated; deleted
 * only by the retention job, and only past AUDIT_RETENTION_DAYS (at least 365). No foreign keys: an entry
 * outlives the records it names, and the account of its actor.
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id').notNull(),
    occurredAt: ts('occurred_at').notNull().defaultNow(),
    actorKind: text('actor_kind', {
      enum: ['person', 'apiKey', 'scimToken', 'ltiPlatform', 'system'],
    }).notNull(),
    actorId: text('actor_id'),
    actorLabel: text('actor_label').notNull(),
    action: text('action').notNull(),
    targetKind: text('target_kind').notNull(),
    targetId: text('target_id'),
    summary: text('summary').notNull(),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (t) => [
    index('audit_events_tenant_time_idx').on(t.tenantId, sql`${t.occurredAt} desc`, sql`${t.id} desc`),
    index('audit_events_time_idx').on(t.occurredAt),
  ],
);

/**
 * The outbox of events (shared/contract/events.ts): one row per event and tenant, written in the same
 * transaction as the change it reports. Deliveries (webhooks, xAPI, LTI grades) are rows of their own that
 * name it. `dedupe_key` makes an event that a job derives (a learning day closed) once per tenant.
 */
export const events = pgTable(
  'events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /**
     * No foreign key: every event of a tenant's learners would take a share lock on the tenant's row, which
     * seat changes lock for update (and thousands of evaluations a second would share it).
     */
    tenantId: uuid('tenant_id').notNull(),
    type: text('type').notNull(),
    version: integer('version').notNull(),
    occurredAt: ts('occurred_at').notNull().defaultNow(),
    /** The learner the event is about, when it is about one (their events go with their account). */
    subjectUserId: uuid('subject_user_id').references(() => users.id, { onDelete: 'cascade' }),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    dedupeKey: text('dedupe_key'),
  },
  (t) => [
    // one index of time, per tenant: every evaluation of a tenant's learner inserts here (what the
    // deliveries read is theirs to index)
    index('events_tenant_time_idx').on(t.tenantId, t.occurredAt),
    uniqueIndex('events_dedupe_key')
      .on(t.tenantId, t.type, t.dedupeKey)
      .where(sql`${t.dedupeKey} is not null`),
  ],
);

/**
 * An identity another system gives a Waymark user, per tenant: an LTI platform's `sub`, a SCIM `externalId`,
 * an SSO provider's subject. Every integration finds its people through it, so one person reached three ways
 * is one learner.
 */
export const externalIdentities = pgTable(
  'external_identities',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    issuer: text('issuer').notNull(),
    subject: text('subject').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    source: text('source', { enum: ['lti', 'scim', 'sso'] }).notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    lastSeenAt: ts('last_seen_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('external_identities_key').on(t.tenantId, t.issuer, t.subject),
    index('external_identities_user_idx').on(t.userId),
  ],
);
