/**
 * Learning time. Raw heartbeats (kept ACTIVITY_RETENTION_DAYS, 31 by default: long enough to fold in late
 * ones from an offline queue), the spans they were credited as (kept as long as the account: what the
 * learner's "What was tracked" page lists and deletes), the erased stretches that late heartbeats may not
 * fill again, and the rollups every report reads: per user, resource and UTC day, and per user and resource
 * overall. The rollups are always the sums of the spans (ingestion and deletion change both in one
 * transaction). Times in milliseconds are unix milliseconds (bigint).
 *
 * The heartbeats, spans and erasures are partitioned by time (server/db/partitions.ts, decision 035: the
 * heartbeats by UTC day of `at`, the spans by month of `day`, the erasures by month of `end_at`); Drizzle
 * does not describe partitioning, so these declarations are the parent tables' columns and keys. A
 * partitioned table's unique key holds its partition key: each leads with the learner, so the one index
 * serves the learner's reads and the duplicate check. The keys are UNIQUE constraints on NOT NULL columns
 * rather than primary keys: a table converted from before keeps its old primary key on its first
 * partition (decision 035).
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { resources } from '../catalogue/tables';
import { users } from '../db/schema';

export const heartbeats = pgTable(
  'activity_heartbeats',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The extension's id for the heartbeat: a resent one is the same heartbeat. */
    clientId: text('client_id').notNull(),
    /** Deleting a resource scans this table (no index: ingestion matters more than that rare delete). */
    resourceId: uuid('resource_id')
      .notNull()
      .references(() => resources.id, { onDelete: 'cascade' }),
    at: bigint('at', { mode: 'number' }).notNull(),
    tabActive: boolean('tab_active').notNull(),
    audible: boolean('audible').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    // a resent heartbeat has the same id and time: the key refuses it (ON CONFLICT DO NOTHING)
    unique('activity_heartbeats_key').on(t.userId, t.at, t.clientId),
  ],
);

/** Milliseconds learnt per user, UTC day and resource. */
export const dailyTime = pgTable(
  'activity_daily',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    resourceId: uuid('resource_id')
      .notNull()
      .references(() => resources.id, { onDelete: 'cascade' }),
    ms: bigint('ms', { mode: 'number' }).notNull().default(0),
  },
  (t) => [
    primaryKey({ name: 'activity_daily_pkey', columns: [t.userId, t.day, t.resourceId] }),
    index('activity_daily_resource_idx').on(t.resourceId),
  ],
);

/**
 * Milliseconds learnt per user and UTC day, all resources together: the sums of activity_daily, kept by its
 * triggers (migration 0031, decision 049) for the reports over many learners. A day whose time was deleted
 * stays with 0.
 */
export const userDayTime = pgTable(
  'activity_user_days',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    ms: bigint('ms', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ name: 'activity_user_days_pkey', columns: [t.userId, t.day] })],
);

/**
 * Each learner's learning time overall and the number of days with some (activity_user_days with ms > 0),
 * kept by the same triggers: the mentor's statistics read one row per seat instead of every day of each.
 */
export const learningTotals = pgTable('activity_learning_totals', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  ms: bigint('ms', { mode: 'number' }).notNull().default(0),
  days: integer('days').notNull().default(0),
});

/** Milliseconds learnt per user and resource, and when the learner was last on it. */
export const resourceTime = pgTable(
  'activity_resource_totals',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    resourceId: uuid('resource_id')
      .notNull()
      .references(() => resources.id, { onDelete: 'cascade' }),
    ms: bigint('ms', { mode: 'number' }).notNull().default(0),
    /** The latest engaged heartbeat, unix milliseconds. */
    lastAt: bigint('last_at', { mode: 'number' }).notNull().default(0),
  },
  (t) => [
    primaryKey({ name: 'activity_resource_totals_pkey', columns: [t.userId, t.resourceId] }),
    index('activity_resource_totals_recent_idx').on(t.userId, sql`${t.lastAt} desc`),
    index('activity_resource_totals_resource_idx').on(t.resourceId),
  ],
);

/**
 * Credited time: one stretch on one resource, within one UTC day, either with its tab in front or only
 * playing media. Neighbouring stretches of the same resource, kind and day are one row.
 */
export const spans = pgTable(
  'activity_spans',
  {
    id: uuid('id').notNull().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    resourceId: uuid('resource_id')
      .notNull()
      .references(() => resources.id, { onDelete: 'cascade' }),
    /** The UTC day the span is in (a stretch across midnight is two spans). */
    day: date('day', { mode: 'string' }).notNull(),
    startAt: bigint('start_at', { mode: 'number' }).notNull(),
    endAt: bigint('end_at', { mode: 'number' }).notNull(),
    /** The tab was in front and the learner active; false: the tab only played media. */
    tabActive: boolean('tab_active').notNull(),
    /**
     * False for time recorded before spans were kept: the day's total per resource, with no time of day
     * (shown as such; deleted with its day).
     */
    timesKnown: boolean('times_known').notNull().default(true),
  },
  (t) => [
    unique('activity_spans_key').on(t.userId, t.day, t.id),
    index('activity_spans_user_start_idx').on(t.userId, t.startAt),
    index('activity_spans_resource_idx').on(t.resourceId),
  ],
);

/**
 * Stretches the learner deleted: a heartbeat inside one is refused and no credit is recomputed into one,
 * so deleted time never comes back from a late offline queue. Recorded and kept only while such heartbeats
 * can arrive (its month's partition is dropped with the retention).
 */
export const erasures = pgTable(
  'activity_erasures',
  {
    id: uuid('id').notNull().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Null: every resource (a deleted day). */
    resourceId: uuid('resource_id').references(() => resources.id, { onDelete: 'cascade' }),
    startAt: bigint('start_at', { mode: 'number' }).notNull(),
    endAt: bigint('end_at', { mode: 'number' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [unique('activity_erasures_key').on(t.userId, t.endAt, t.id)],
);

/** 'Sorry to see you go': why someone removed the extension. */
export const uninstallFeedback = pgTable('activity_uninstall_feedback', {
  id: uuid('id').primaryKey().defaultRandom(),
  emailId: text('email_id').notNull(),
  reasons: text('reasons').array().notNull(),
  other: text('other'),
  message: text('message'),
  userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
