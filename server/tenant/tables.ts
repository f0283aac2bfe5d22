/**
 * Invitations of the tenant side (seats themselves are `tenant_users` in server/db/schema.ts). An
 * invitation keeps a seat while pending; when the invitee signs up with the tenant's id (sign-up records
 * users.invited_by_tenant_id), the database trigger of migration 0006 turns the pending invitation into a
 * seat in the same transaction.
 */
import { sql } from 'drizzle-orm';
import { index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
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
