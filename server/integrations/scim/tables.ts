/**
 * SCIM 2.0 provisioning (issue 28 item 2; decision 043): a tenant's bearer tokens, kept as the SHA-256 of the
 * secret with a visible prefix like API keys, and the users a directory has provisioned — the SCIM resource
 * as the directory sees it, beside the Waymark learner it stands for. A user set inactive or deleted keeps
 * the learner and their history; only the seat goes.
 */
import { sql } from 'drizzle-orm';
import {
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

/** A tenant's SCIM bearer token: `wmscim_{prefix}_{secret}`, only the secret's hash kept. */
export const scimTokens = pgTable(
  'scim_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    secretHash: text('secret_hash').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    lastUsedAt: ts('last_used_at'),
    revokedAt: ts('revoked_at'),
    /** The token this one replaced (rotation): the old one stops when this one is made. */
    replaces: uuid('replaces'),
  },
  (t) => [uniqueIndex('scim_tokens_prefix_key').on(t.prefix), index('scim_tokens_tenant_idx').on(t.tenantId)],
);

/**
 * A user a tenant's directory provisioned: what SCIM says of them (userName, externalId, names, e-mail
 * addresses, active) and the learner it is. `version` moves with every change (the ETag).
 */
export const scimUsers = pgTable(
  'scim_users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    userName: text('user_name').notNull(),
    externalId: text('external_id'),
    displayName: text('display_name'),
    /** name.givenName, name.familyName, name.formatted, emails, title, … as the directory sent them. */
    attributes: jsonb('attributes').$type<Record<string, unknown>>().notNull().default({}),
    active: boolean('active').notNull().default(true),
    /** The Waymark account was made for this user (its name follows the directory's). */
    madeAccount: boolean('made_account').notNull().default(false),
    version: integer('version').notNull().default(1),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    // userName is unique per tenant, case-insensitively (RFC 7643 §4.1.1: caseExact false)
    uniqueIndex('scim_users_user_name_key').on(t.tenantId, sql`lower(${t.userName})`),
    uniqueIndex('scim_users_user_key').on(t.tenantId, t.userId),
    index('scim_users_external_idx').on(t.tenantId, t.externalId),
  ],
);
