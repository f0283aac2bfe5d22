/**
 * Awards that expire (issue 30, decision 037): the validity periods a test's awards get, each from the moment
 * it was set (so nothing expires retroactively), and the awards that have an end, with their reminder.
 */
import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { testLinks } from '../assessments/tables';
import { users } from '../db/schema';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * The validity period of the awards of a test, from `effectiveFrom` on: `testKey` is a test key
 * (`CUSTOM-TEST:{assessmentId}`) or `SUBJECT:*` for every subject test (the platform's setting). `months`
 * null: awards earned from then on do not expire. An award gets the period in force when it was earned.
 */
export const awardValidityPeriods = pgTable(
  'award_validity_periods',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    testKey: text('test_key').notNull(),
    months: integer('months'),
    effectiveFrom: ts('effective_from').notNull().defaultNow(),
    setBy: uuid('set_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [index('award_validity_periods_key_idx').on(t.testKey, t.effectiveFrom)],
);

/**
 * An earned award that has an end (registered when its attempt is folded), and when its learner was
 * reminded: the reminder job claims `remindedAt` in the statement that picks it, so it is sent once.
 */
export const awardExpiries = pgTable(
  'award_expiries',
  {
    /** The award id: its test link's public id. */
    awardId: text('award_id').primaryKey(),
    testLinkId: uuid('test_link_id')
      .notNull()
      .references(() => testLinks.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    testKey: text('test_key').notNull(),
    earnedAt: ts('earned_at').notNull(),
    validUntil: ts('valid_until').notNull(),
    remindedAt: ts('reminded_at'),
    /** The renewal test the reminder offered (a custom test's link id). */
    renewalLinkId: text('renewal_link_id'),
  },
  (t) => [
    index('award_expiries_due_idx').on(t.validUntil),
    index('award_expiries_learner_idx').on(t.userId, t.testKey),
  ],
);
