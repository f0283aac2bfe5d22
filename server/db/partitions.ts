/**
 * Time partitions of the raw activity tables (decision 035). The heartbeats are partitioned by UTC day,
 * the spans and the erasures by UTC month (declarative range partitioning, PostgreSQL's own; PGlite runs
 * the same statements). Three things happen here:
 *
 * - **Conversion** (`ensurePartitioned`): a plain table (every database migrated before migration 0023,
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

const DAY_MS = 86_400_000;

/** Days of partitions kept ready ahead of now. */
export const PARTITIONS_AHEAD_DAYS = 7;

/**
 * Days back a write may still land: the oldest heartbeat accepted, a day more for its window (and an
 * erasure is recorded only while such heartbeats may arrive). The least retention there can be.
 */
export const BACK_DAYS = Math.ceil(MAX_HEARTBEAT_AGE_MS / DAY_MS) + 1;

/**
 * How long a conversion's short transaction may wait for a lock before it rolls back and tries again: less
 * than PostgreSQL's deadlock_timeout (1 s). Attaching the old table takes ACCESS EXCLUSIVE on `users` and
 * `resources` too (PostgreSQL moves the foreign keys' triggers there to the parent), which an ingestion
 * holding them and waiting for the table it locked would make a deadlock: giving up first, the conversion is
 * always the one to step back, never a learner's batch.
 */
const SWAP_LOCK_TIMEOUT = '500ms';
const SWAP_TRIES = 20;

const q = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;
const cols = (columns: readonly string[]) => columns.map(q).join(', ');

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
function literal(t: PartitionedTable, ms: number): string {
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
  /** How long detaching and dropping it took. */
  ms: number;
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
    await s.query(`drop table ${q(p.name)}`);
    dropped.push({ name: p.name, from: p.from, to: p.to, ms: performance.now() - started });
  }
  return dropped;
}

interface IndexRow {
  name: string;
  columns: string[];
  unique: boolean;
  valid: boolean;
  constraint: string | null;
}

async function indexesOf(s: Session, table: string): Promise<IndexRow[]> {
  const rows = await s.query<{
    name: string;
    columns: string;
    unique: boolean;
    valid: boolean;
    constraint: string | null;
    exprs: boolean;
  }>(
    `select ic.relname as name, i.indisunique as unique, i.indisvalid as valid,
            (i.indexprs is not null or i.indpred is not null) as exprs,
            (select string_agg(a.attname, ',' order by k.n)
               from unnest(i.indkey) with ordinality k(attnum, n)
               join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum) as columns,
            (select con.conname from pg_constraint con where con.conindid = i.indexrelid
               and con.conrelid = i.indrelid limit 1) as constraint
     from pg_index i join pg_class ic on ic.oid = i.indexrelid
     where i.indrelid = $1::regclass`,
    [q(table)],
  );
  return rows
    .filter((r) => !r.exprs)
    .map((r) => ({
      name: r.name,
      columns: (r.columns ?? '').split(','),
      unique: r.unique,
      valid: r.valid,
      constraint: r.constraint,
    }));
}

const same = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((c, i) => c === b[i]);

async function constraintsOf(s: Session, table: string) {
  return s.query<{ name: string; type: string; valid: boolean; def: string }>(
    `select conname as name, contype as type, convalidated as valid, pg_get_constraintdef(oid) as def
     from pg_constraint where conrelid = $1::regclass`,
    [q(table)],
  );
}

/** The bound T of a conversion: the start of the UTC day after tomorrow, later than every row. */
function conversionBound(now: number, latest: number | null): number {
  const floor = unitStart('day', now) + 2 * DAY_MS;
  return latest === null || latest < floor ? floor : unitStart('day', latest) + DAY_MS;
}

export interface Conversion {
  table: string;
  /** Milliseconds of each step; `swapMs` is the only one holding a lock that stops writes. */
  checkMs: number;
  validateMs: number;
  indexMs: number;
  swapMs: number;
  /** Tries of the swap (each waits at most SWAP_LOCK_TIMEOUT for its lock). */
  swapTries: number;
  bound: number;
  /** The partitions made after it (from T, or for a new database from BACK_DAYS ago, to ahead). */
  made: string[];
}

/**
 * Turns a plain table into a partitioned one with the table itself as its first partition (everything
 * before T), then the partitions ahead; an empty one (a new database) is simply replaced by the partitioned
 * parent. Nothing to do when it is partitioned already. Safe to run again after an interruption at any step
 * (each step looks at what the last one left).
 */
export async function ensurePartitioned(
  s: Session,
  t: PartitionedTable,
  o: EnsureOptions,
): Promise<Conversion | null> {
  if ((await kindOf(s, t.name)) !== 'plain') return null;
  const check = `${t.name}_before_partitions`;
  const key = `${t.name}_partition_key`;
  const literalOf = (ms: number) => literal(t, ms);
  const timed = async (fn: () => Promise<unknown>) => {
    const started = performance.now();
    await fn();
    return performance.now() - started;
  };

  // 1. a CHECK of the bound, not yet validated (a moment's ACCESS EXCLUSIVE lock, no scan); writes now
  // obey it, so T is two days ahead: no accepted write comes near it before the swap
  let bound = conversionBound(o.now, null);
  // (the lock is asked for with a timeout: waiting behind a long transaction would queue every write)
  const addCheck = () =>
    shortLocked(s, `alter table ${q(t.name)} drop constraint if exists ${q(check)}`, async () => {
      await s.query(
        `alter table ${q(t.name)} add constraint ${q(check)} check (${q(t.column)} < ${literalOf(bound)}) not valid`,
      );
    });
  const checkMs = (await addCheck()).ms;

  // 2. validated beside the writes (SHARE UPDATE EXCLUSIVE); a row past T (a clock far ahead) moves T
  // past it. Any foreign key not validated yet is validated too: only a validated one is adopted as is.
  const validateMs = await timed(async () => {
    try {
      await s.query(`alter table ${q(t.name)} validate constraint ${q(check)}`);
    } catch (err) {
      if ((err as { code?: string }).code !== '23514') throw err;
      const [row] = await s.query<{ latest: string | number | null }>(
        t.keyType === 'ms'
          ? `select max(${q(t.column)}) as latest from ${q(t.name)}`
          : `select (extract(epoch from max(${q(t.column)})) * 1000)::bigint as latest from ${q(t.name)}`,
      );
      bound = conversionBound(o.now, row?.latest == null ? null : Number(row.latest));
      await addCheck();
      await s.query(`alter table ${q(t.name)} validate constraint ${q(check)}`);
    }
    for (const c of await constraintsOf(s, t.name)) {
      if (c.type === 'f' && !c.valid)
        await s.query(`alter table ${q(t.name)} validate constraint ${q(c.name)}`);
    }
  });

  // 3. the new key's unique index, and any other index the parent has that the table lacks, built
  // CONCURRENTLY (reads and writes go on); a build an interruption left invalid is dropped and made again
  const indexMs = await timed(async () => {
    const wanted = [
      { name: key, columns: t.key.columns, unique: true },
      ...t.indexes.map((i) => ({
        name: `${t.name}_${i.name.replace(`${t.name}_`, '')}_part`,
        columns: i.columns,
        unique: false,
      })),
    ];
    for (const w of wanted) {
      const found = await indexesOf(s, t.name);
      const stale = found.find((i) => i.name === w.name && !i.valid);
      if (stale) await s.query(`drop index concurrently ${q(stale.name)}`);
      if (found.some((i) => i.valid && same(i.columns, w.columns) && (!w.unique || i.unique))) continue;
      await s.query(
        `create ${w.unique ? 'unique ' : ''}index concurrently ${q(w.name)} on ${q(t.name)} (${cols(w.columns)})`,
      );
    }
    // the new key as a constraint (no scan, a moment's lock): the parent's key adopts it, while the
    // old key stays with the old rows (its index goes when retention drops them: no file to remove at the
    // swap); the indexes the new key supersedes go CONCURRENTLY
    const found = await indexesOf(s, t.name);
    if (!found.some((i) => i.constraint && i.unique && same(i.columns, t.key.columns))) {
      const built = found.find((i) => i.valid && i.unique && same(i.columns, t.key.columns));
      if (!built) throw new Error(`${t.name}: the unique index on ${t.key.columns.join(', ')} is missing`);
      await shortLocked(
        s,
        `alter table ${q(t.name)} add constraint ${q(key)} unique using index ${q(built.name)}`,
      );
    }
    for (const name of t.superseded) await s.query(`drop index concurrently if exists ${q(name)}`);
  });

  // 4. one short transaction: rename, the parent, attach (no scan, no file removed), the partitions from T on
  const legacy = legacyName(t);
  const swapped = await shortLocked(s, `lock table ${q(t.name)} in access exclusive mode`, () =>
    swap(s, t, legacy, check, literalOf(bound)),
  );
  const made = await ensurePartitions(s, t, o);
  return {
    table: t.name,
    checkMs,
    validateMs,
    indexMs,
    swapMs: swapped.ms,
    swapTries: swapped.tries,
    bound,
    made,
  };
}

async function swap(s: Session, t: PartitionedTable, legacy: string, check: string, bound: string) {
  const [{ rows } = { rows: false }] = await s.query<{ rows: boolean }>(
    `select exists (select 1 from ${q(t.name)}) as rows`,
  );
  await s.query(`alter table ${q(t.name)} rename to ${q(legacy)}`);
  if (!rows) {
    // nothing to keep (a new database): the parent alone, its partitions made after
    const foreign = (await constraintsOf(s, legacy)).filter((c) => c.type === 'f');
    await s.query(
      `create table ${q(t.name)} (like ${q(legacy)} including defaults) partition by range (${q(t.column)})`,
    );
    await s.query(`drop table ${q(legacy)}`);
    await parentKeys(s, t, foreign);
    return;
  }
  // the names the parent's keys and indexes take are the old table's to give up (catalogue renames only)
  for (const c of await constraintsOf(s, legacy)) {
    if (c.name === t.key.name) {
      await s.query(`alter table ${q(legacy)} rename constraint ${q(c.name)} to ${q(`${legacy}_key`)}`);
    }
  }
  for (const i of await indexesOf(s, legacy)) {
    if (i.constraint) continue;
    const spec = t.indexes.find((x) => same(x.columns, i.columns));
    const want = spec ? `${legacy}_${spec.name.replace(`${t.name}_`, '')}` : null;
    if (want && i.name !== want) await s.query(`alter index ${q(i.name)} rename to ${q(want)}`);
  }
  await s.query(
    `create table ${q(t.name)} (like ${q(legacy)} including defaults) partition by range (${q(t.column)})`,
  );
  await parentKeys(
    s,
    t,
    (await constraintsOf(s, legacy)).filter((c) => c.type === 'f'),
  );
  await s.query(
    `alter table ${q(t.name)} attach partition ${q(legacy)} for values from (minvalue) to (${bound})`,
  );
  await s.query(`alter table ${q(legacy)} drop constraint ${q(check)}`);
}

/**
 * Runs `first` (a statement taking a lock on the live table) and then `rest` in one transaction that waits
 * at most SWAP_LOCK_TIMEOUT for its lock; a long transaction on the table in the way makes it roll back,
 * wait and try again (up to SWAP_TRIES times). Returns how long the committed try took and the tries.
 */
async function shortLocked(s: Session, first: string, rest?: () => Promise<void>) {
  for (let tries = 1; ; tries++) {
    const started = performance.now();
    await s.query('begin');
    try {
      await s.query(`set local lock_timeout = '${SWAP_LOCK_TIMEOUT}'`);
      await s.query(first);
      await rest?.();
      await s.query('commit');
      return { ms: performance.now() - started, tries };
    } catch (err) {
      await s.query('rollback').catch(() => undefined);
      // the lock not granted in time (55P03: a long transaction in the way) or a deadlock all the same
      // (40P01): wait and try again
      const code = (err as { code?: string }).code;
      if ((code !== '55P03' && code !== '40P01') || tries >= SWAP_TRIES) throw err;
      await new Promise((r) => setTimeout(r, 250 * tries));
    }
  }
}

/** The partitioned parent's key, indexes and foreign keys (the plain table's, as they were). */
async function parentKeys(
  s: Session,
  t: PartitionedTable,
  foreign: readonly { name: string; def: string }[],
) {
  await s.query(`alter table ${q(t.name)} add constraint ${q(t.key.name)} unique (${cols(t.key.columns)})`);
  for (const i of t.indexes) await s.query(`create index ${q(i.name)} on ${q(t.name)} (${cols(i.columns)})`);
  for (const c of foreign) await s.query(`alter table ${q(t.name)} add constraint ${q(c.name)} ${c.def}`);
}

/** The migration's part after the SQL files: each table partitioned (converted once), and its partitions ahead. */
export async function preparePartitions(s: Session, o: EnsureOptions) {
  const conversions: Conversion[] = [];
  const made: string[] = [];
  for (const t of PARTITIONED) {
    const kind = await kindOf(s, t.name);
    if (kind === 'missing') continue;
    if (kind === 'plain') {
      const c = await ensurePartitioned(s, t, o);
      if (c) {
        conversions.push(c);
        made.push(...c.made);
      }
    }
    made.push(...(await ensurePartitions(s, t, o)));
  }
  return { conversions, made };
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
