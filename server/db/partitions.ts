/**
 * Time partitions of the raw activity tables (decision 035). The heartbeats are partitioned by UTC day,
 * the spans and the erasures by UTC month (declarative range partitioning, PostgreSQL's own; PGlite runs
 * the same statements). Three things happen here:
 *
 * - **Conversion** (`ensurePartitioned`, in partition-conversion.ts): a plain table (every database migrated before migration 0023,
 *   and a fresh one, whose migrations create the plain tables) becomes the first partition of a new
 *   partitioned table of the same name, covering everything before a bound T two days ahead, without
 *   copying a row and without a long lock: the long work (a CHECK constraint validated, the new key's
 *   unique index built CONCURRENTLY) runs beside reads and writes, then one short transaction renames the
 *   table, creates the partitioned parent and attaches the table under it (no scan: the validated CHECK
 *   proves the bound, the built indexes and the validated foreign keys are adopted as they are).
 * - **Partitions ahead** (`ensurePartitions`): every unit from the oldest a late write may still reach
 *   (`back`) to `ahead` from now has a partition, each made beside the table and attached (a lock that does
 *   not stop reads or writes).
 * - **Retention** (`dropExpired`): a partition of a retained table wholly older than the retention is
 *   detached (CONCURRENTLY on PostgreSQL) and dropped: no row is deleted one by one.
 *
 * Every function takes a `Session`, one connection of its own (PostgreSQL: the caller holds the migration
 * advisory lock on it, so two processes never do this at once; PGlite: the one process), and runs each
 * statement on its own (the concurrent ones cannot run in a transaction block).
 */
import { MAX_HEARTBEAT_AGE_MS } from '@shared/rules/heartbeats';
import { isoDayOf } from '@shared/rules/learning-days';

export interface Session {
  query<R = Record<string, unknown>>(text: string, params?: unknown[]): Promise<R[]>;
}

export type Unit = 'day' | 'month';

export interface PartitionedTable {
  name: string;
  /** The partition key: unix milliseconds (bigint) or a date. */
  column: string;
  keyType: 'ms' | 'date';
  unit: Unit;
  /**
   * The parent's key, a UNIQUE constraint (it must hold the partition key). Not a PRIMARY KEY: the old
   * table's own primary key stays with it as its first partition (dropping it there would remove its index
   * file — a second of ftruncate at 10 million rows — while holding the lock), and a table has one primary
   * key, while a partition's unique constraint can be the part of its parent's.
   */
  key: { name: string; columns: readonly string[] };
  /** Its other indexes. */
  indexes: readonly { name: string; columns: readonly string[] }[];
  /** Indexes of the plain table the new key makes redundant: dropped from it when it becomes a partition. */
  superseded: readonly string[];
  /** Whether whole partitions past the retention are dropped (raw data); false: kept for ever. */
  retained: boolean;
}

/**
 * The tables, as server/activity/tables.ts declares them to Drizzle (a unit test holds the two to each
 * other): the keys lead with the learner, so one index serves the reads and the duplicate check.
 */
export const PARTITIONED: readonly PartitionedTable[] = [
  {
    name: 'activity_heartbeats',
    column: 'at',
    keyType: 'ms',
    unit: 'day',
    key: { name: 'activity_heartbeats_key', columns: ['user_id', 'at', 'client_id'] },
    indexes: [],
    superseded: ['activity_heartbeats_user_at_idx'],
    retained: true,
  },
  {
    name: 'activity_spans',
    column: 'day',
    keyType: 'date',
    unit: 'month',
    key: { name: 'activity_spans_key', columns: ['user_id', 'day', 'id'] },
    indexes: [
      { name: 'activity_spans_user_start_idx', columns: ['user_id', 'start_at'] },
      { name: 'activity_spans_resource_idx', columns: ['resource_id'] },
    ],
    superseded: ['activity_spans_user_day_idx'],
    retained: false,
  },
  {
    name: 'activity_erasures',
    column: 'end_at',
    keyType: 'ms',
    unit: 'month',
    key: { name: 'activity_erasures_key', columns: ['user_id', 'end_at', 'id'] },
    indexes: [],
    superseded: ['activity_erasures_user_idx'],
    retained: true,
  },
];

export const DAY_MS = 86_400_000;

/** Days of partitions kept ready ahead of now. */
export const PARTITIONS_AHEAD_DAYS = 7;

/**
 * Days back a write may still land: the oldest heartbeat accepted, a day more for its window (and an
 * erasure is recorded only while such heartbeats may arrive). The least retention there can be.
 */
export const BACK_DAYS = Math.ceil(MAX_HEARTBEAT_AGE_MS / DAY_MS) + 1;

export const q = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;
export const cols = (columns: readonly string[]) => columns.map(q).join(', ');

/** The start of the unit holding `ms` (UTC). */
export function unitStart(unit: Unit, ms: number): number {
  if (unit === 'day') return Math.floor(ms / DAY_MS) * DAY_MS;
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}

/** The start of the unit after the one starting at `start`. */
function nextUnit(unit: Unit, start: number): number {
  if (unit === 'day') return start + DAY_MS;
  const d = new Date(start);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

/** A bound as SQL: the key's literal. */
export function literal(t: PartitionedTable, ms: number): string {
  return t.keyType === 'ms' ? `'${Math.round(ms)}'` : `'${isoDayOf(ms)}'`;
}

/** A partition's name: the table's and the day its range starts. */
export const partitionName = (t: PartitionedTable, start: number) =>
  `${t.name}_p${isoDayOf(start).replace(/-/g, '')}`;

export const legacyName = (t: PartitionedTable) => `${t.name}_legacy`;

export interface Partition {
  name: string;
  /** Unix ms; -Infinity for MINVALUE. */
  from: number;
  to: number;
  /** A DETACH … CONCURRENTLY that did not finish. */
  detachPending: boolean;
}

function boundOf(t: PartitionedTable, text: string): number {
  const raw = text.trim().replace(/^'|'$/g, '');
  if (/^minvalue$/i.test(raw)) return Number.NEGATIVE_INFINITY;
  if (/^maxvalue$/i.test(raw)) return Number.POSITIVE_INFINITY;
  return t.keyType === 'ms' ? Number(raw) : Date.parse(`${raw}T00:00:00Z`);
}

/** How the table is now: partitioned, plain (still to convert) or missing. */
export async function kindOf(s: Session, table: string): Promise<'partitioned' | 'plain' | 'missing'> {
  const [row] = await s.query<{ relkind: string }>(
    `select c.relkind from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = current_schema() and c.relname = $1`,
    [table],
  );
  if (!row) return 'missing';
  return row.relkind === 'p' ? 'partitioned' : 'plain';
}

/** The table's partitions, oldest first. */
export async function partitionsOf(s: Session, t: PartitionedTable): Promise<Partition[]> {
  const rows = await s.query<{ name: string; bound: string; pending: boolean }>(
    `select c.relname as name, pg_get_expr(c.relpartbound, c.oid) as bound, i.inhdetachpending as pending
     from pg_inherits i join pg_class c on c.oid = i.inhrelid
     where i.inhparent = $1::regclass`,
    [q(t.name)],
  );
  return rows
    .map((r) => {
      const m = /FROM \((.+?)\) TO \((.+?)\)/i.exec(r.bound);
      if (!m) throw new Error(`${r.name}: a partition bound this code does not read: ${r.bound}`);
      return { name: r.name, from: boundOf(t, m[1]!), to: boundOf(t, m[2]!), detachPending: r.pending };
    })
    .sort((a, b) => a.from - b.from);
}

/** [from, to) less the ranges already covered, as disjoint pieces in order. */
function uncovered(from: number, to: number, covered: readonly { from: number; to: number }[]) {
  const pieces: [number, number][] = [];
  let at = from;
  for (const c of covered) {
    if (c.to <= at || c.from >= to) continue;
    if (c.from > at) pieces.push([at, c.from]);
    at = Math.max(at, c.to);
    if (at >= to) break;
  }
  if (at < to) pieces.push([at, to]);
  return pieces;
}

export interface EnsureOptions {
  now: number;
  /** How far back a write may still land, in days (BACK_DAYS). */
  backDays?: number;
  aheadDays?: number;
}

/**
 * Creates the missing partitions from the unit holding `now - backDays` to the one holding
 * `now + aheadDays`; returns their names. Each is made beside the table and then attached (SHARE UPDATE
 * EXCLUSIVE on the parent: reads and writes go on).
 */
export async function ensurePartitions(s: Session, t: PartitionedTable, o: EnsureOptions): Promise<string[]> {
  const existing = await partitionsOf(s, t);
  const made: string[] = [];
  const end = nextUnit(t.unit, unitStart(t.unit, o.now + (o.aheadDays ?? PARTITIONS_AHEAD_DAYS) * DAY_MS));
  for (
    let a = unitStart(t.unit, o.now - (o.backDays ?? BACK_DAYS) * DAY_MS);
    a < end;
    a = nextUnit(t.unit, a)
  ) {
    for (const [from, to] of uncovered(a, nextUnit(t.unit, a), existing)) {
      const name = partitionName(t, from);
      await s.query(`create table if not exists ${q(name)} (like ${q(t.name)} including defaults)`);
      await s.query(
        `alter table ${q(t.name)} attach partition ${q(name)} for values from (${literal(t, from)}) to (${literal(t, to)})`,
      );
      made.push(name);
    }
  }
  return made;
}

export interface Dropped {
  name: string;
  from: number;
  to: number;
  /** How long detaching and dropping it took, and each apart. */
  ms: number;
  detachMs: number;
  dropMs: number;
}

/**
 * Drops the partitions of a retained table whose whole range is older than `now - retentionDays`: each is
 * detached (CONCURRENTLY on PostgreSQL, which waits for the queries that may still read it without stopping
 * anybody) and dropped. A detach left pending by an interrupted run is finished first.
 */
export async function dropExpired(
  s: Session,
  t: PartitionedTable,
  o: { now: number; retentionDays: number; concurrently: boolean },
): Promise<Dropped[]> {
  if (!t.retained) return [];
  const cutoff = o.now - o.retentionDays * DAY_MS;
  const dropped: Dropped[] = [];
  for (const p of await partitionsOf(s, t)) {
    if (p.to > cutoff) continue;
    const started = performance.now();
    const how = p.detachPending ? 'finalize' : o.concurrently ? 'concurrently' : '';
    await s.query(`alter table ${q(t.name)} detach partition ${q(p.name)} ${how}`);
    const detached = performance.now();
    await s.query(`drop table ${q(p.name)}`);
    const done = performance.now();
    dropped.push({
      name: p.name,
      from: p.from,
      to: p.to,
      ms: done - started,
      detachMs: detached - started,
      dropMs: done - detached,
    });
  }
  return dropped;
}

export interface Maintenance {
  made: string[];
  dropped: Dropped[];
}

/**
 * The partitions' daily care (the activity-partitions job): the units ahead made, the raw tables' units past
 * `retentionDays` dropped whole.
 */
export async function maintainPartitions(
  s: Session,
  o: { now: number; retentionDays: number; concurrently: boolean },
): Promise<Maintenance> {
  const made: string[] = [];
  const dropped: Dropped[] = [];
  for (const t of PARTITIONED) {
    if ((await kindOf(s, t.name)) !== 'partitioned') continue;
    made.push(...(await ensurePartitions(s, t, { now: o.now })));
    dropped.push(...(await dropExpired(s, t, o)));
  }
  return { made, dropped };
}
