/**
 * The conversion of a raw activity table from plain to partitioned (decision 035; partitions.ts says how
 * the partitions are laid out), and the migration's part after the SQL files that runs it once per table.
 * A plain table (every database migrated before migration 0023, and a fresh one, whose migrations create the
 * plain tables) becomes the first partition of a new partitioned table of the same name, covering
 * everything before a bound T two days ahead, without copying a row and without a long lock: the long work
 * (a CHECK constraint validated, the new key's unique index built CONCURRENTLY) runs beside reads and
 * writes, then one short transaction renames the table, creates the partitioned parent and attaches the
 * table under it (no scan: the validated CHECK proves the bound, the built indexes and the validated
 * foreign keys are adopted as they are). Every function takes a `Session` (see partitions.ts).
 */
import {
  cols,
  DAY_MS,
  type EnsureOptions,
  ensurePartitions,
  kindOf,
  legacyName,
  literal,
  PARTITIONED,
  type PartitionedTable,
  q,
  type Session,
  unitStart,
} from './partitions';

/**
 * How long a conversion's short transaction may wait for a lock before it rolls back and tries again: less
 * than PostgreSQL's deadlock_timeout (1 s). Attaching the old table takes ACCESS EXCLUSIVE on `users` and
 * `resources` too (PostgreSQL moves the foreign keys' triggers there to the parent), which an ingestion
 * holding them and waiting for the table it locked would make a deadlock: giving up first, the conversion is
 * always the one to step back, never a learner's batch.
 */
const SWAP_LOCK_TIMEOUT = '500ms';
const SWAP_TRIES = 20;

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
