/**
 * Item analysis's aggregates (issue 30, decision 037): what the fold job (fold.ts) has added up of the evaluated
 * attempts, per test and question, so that a test's figures are read from a few small rows rather than
 * recomputed from every answer. A test is named by its test key (`CUSTOM-TEST:{assessmentId}`,
 * `SUBJECT:{subjectId}`, … — test_links.test_key). Each attempt is folded once: its row in item_attempts is
 * the claim, inserted in the transaction that adds it to the sums.
 */
import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  doublePrecision,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from '../db/schema';
import { questions } from '../questions/tables';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const sum = (name: string) => doublePrecision(name).notNull().default(0);
const count = (name: string) => integer(name).notNull().default(0);

/**
 * One row per evaluated attempt folded into the sums: the claim that it is counted once, and what a test's
 * score figures read (the score, the time taken, the taker). No key to the test link: the figures keep an
 * attempt, without its taker, when the link goes with its learner's account.
 */
export const itemAttempts = pgTable(
  'item_attempts',
  {
    testLinkId: uuid('test_link_id').primaryKey(),
    testKey: text('test_key').notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The questions received, and the sum of their item scores (0 to k). */
    k: integer('k').notNull(),
    raw: doublePrecision('raw').notNull(),
    /** raw / k as a percentage. */
    percentage: numeric('percentage', { precision: 6, scale: 2, mode: 'number' }).notNull(),
    /** Whether it earned its award (the pass mark). */
    passed: boolean('passed').notNull(),
    /** Seconds taken. */
    completedIn: integer('completed_in'),
    completedAt: ts('completed_at').notNull(),
    foldedAt: ts('folded_at').notNull().defaultNow(),
  },
  (t) => [index('item_attempts_test_idx').on(t.testKey, t.percentage)],
);

/** A question's additive sums in one test (shared/rules/item-sums.ts ItemSums). */
export const itemSums = pgTable(
  'item_sums',
  {
    testKey: text('test_key').notNull(),
    questionId: uuid('question_id')
      .notNull()
      .references(() => questions.id, { onDelete: 'cascade' }),
    n: count('n'),
    sx: sum('sx'),
    sxx: sum('sxx'),
    nr: count('nr'),
    rx: sum('rx'),
    rxx: sum('rxx'),
    sr: sum('sr'),
    srr: sum('srr'),
    sxr: sum('sxr'),
    timed: count('timed'),
    seconds: sum('seconds'),
  },
  (t) => [
    primaryKey({ columns: [t.testKey, t.questionId] }),
    index('item_sums_question_idx').on(t.questionId),
  ],
);

/**
 * How many takers in each score bucket (whole percentage points) received a question (`option` 'all') and
 * chose each of its options ('none': no option) — the upper and lower groups are read from these.
 */
export const itemBuckets = pgTable(
  'item_buckets',
  {
    testKey: text('test_key').notNull(),
    questionId: uuid('question_id')
      .notNull()
      .references(() => questions.id, { onDelete: 'cascade' }),
    bucket: smallint('bucket').notNull(),
    option: text('option').notNull(),
    n: count('n'),
  },
  (t) => [primaryKey({ columns: [t.testKey, t.questionId, t.bucket, t.option] })],
);

/** A question's attempts by the day they were evaluated (UTC), for a sudden rise in facility. */
export const itemDays = pgTable(
  'item_days',
  {
    testKey: text('test_key').notNull(),
    questionId: uuid('question_id')
      .notNull()
      .references(() => questions.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    n: count('n'),
    sx: sum('sx'),
    sxx: sum('sxx'),
    nr: count('nr'),
    sr: sum('sr'),
  },
  (t) => [primaryKey({ columns: [t.testKey, t.questionId, t.day] })],
);

/** How far the fold has looked: every attempt evaluated before `through` (less a margin) is folded. */
export const itemFoldState = pgTable('item_fold_state', {
  name: text('name').primaryKey(),
  through: ts('through').notNull(),
  updatedAt: ts('updated_at').notNull().default(sql`now()`),
});
