/**
 * Invitations of the tenant side (seats themselves are `tenant_users` in server/db/schema.ts). An
 * invitation keeps a seat while pending; when the invitee signs up with the tenant's id (sign-up records
 * users.invited_by_tenant_id), the database trigger of migration 0006 turns the pending invitation into a
 * seat in the same transaction.
 */
import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { roadmaps } from '../catalogue/tables';
import { users } from '../db/schema';

export const tenantInvitations = pgTable(
  'tenant_invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Lower-case. */
    email: text('email').notNull(),
    status: text('status', { enum: ['PENDING', 'ACCEPTED', 'EXPIRED', 'CANCELED'] })
      .notNull()
      .default('PENDING'),
    learnerId: uuid('learner_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    uniqueIndex('tenant_invitations_tenant_email_key').on(t.tenantId, t.email),
    index('tenant_invitations_email_idx').on(t.email).where(sql`${t.status} = 'PENDING'`),
  ],
);

/**
 * Cohorts: named groups of a tenant's learners (issue 28 item 2; decision 043) — made in the portal, or a
 * directory's SCIM Groups. The Users page filters by them, and a roadmap assigned to a cohort is assigned to
 * every member, and to each new member when they join.
 */
export const cohorts = pgTable(
  'cohorts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** The directory's id of the group (SCIM externalId), when a directory made it. */
    externalId: text('external_id'),
    /**
     * A directory made or took over this cohort over SCIM: its name and members are the directory's, and the
     * portal and the CLI show it read-only (decision 050).
     */
    scimManaged: boolean('scim_managed').notNull().default(false),
    /** Moves with every change of the cohort or its members (SCIM's ETag). */
    version: integer('version').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('cohorts_tenant_name_key').on(t.tenantId, sql`lower(${t.name})`)],
);

export const cohortMembers = pgTable(
  'cohort_members',
  {
    cohortId: uuid('cohort_id')
      .notNull()
      .references(() => cohorts.id, { onDelete: 'cascade' }),
    learnerId: uuid('learner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    addedAt: timestamp('added_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.cohortId, t.learnerId] }),
    index('cohort_members_learner_idx').on(t.learnerId),
  ],
);

/** A roadmap assigned to a whole cohort: each member has it, and each new member gets it. */
export const cohortRoadmaps = pgTable(
  'cohort_roadmaps',
  {
    cohortId: uuid('cohort_id')
      .notNull()
      .references(() => cohorts.id, { onDelete: 'cascade' }),
    roadmapId: uuid('roadmap_id')
      .notNull()
      .references(() => roadmaps.id, { onDelete: 'cascade' }),
    /** How a roadmap with prerequisites is assigned (the mentor's choice): INCLUDE or WAIVE. */
    prerequisites: text('prerequisites', { enum: ['INCLUDE', 'WAIVE'] }),
    assignedAt: timestamp('assigned_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.cohortId, t.roadmapId] })],
);

/** When a tenant was last told something that should not be repeated every minute (no seat free, …). */
export const tenantNotices = pgTable(
  'tenant_notices',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    lastSentAt: timestamp('last_sent_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.kind] })],
);
