/**
 * A tenant's sandbox (decision 041): a space of its own beside the tenant's real learners, to build
 * against. Its demo learners are accounts marked `users.sandbox_of` (no seat, no sign-in, never billed);
 * its test links are marked `test_links.sandbox`. This row says that the tenant has one, and when its
 * attempts were last reset.
 */
import { integer, pgTable, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from '../db/schema';

export const sandboxes = pgTable('sandboxes', {
  tenantId: uuid('tenant_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  /** The last reset of its attempts; null until the first. */
  resetAt: timestamp('reset_at', { withTimezone: true, mode: 'date' }),
  /** How many times its attempts were reset. */
  resets: integer('resets').notNull().default(0),
});
