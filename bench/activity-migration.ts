/**
 * Converting a live database's raw activity to time partitions (issue 33, decision 035): a PostgreSQL
 * database as a release before migration 0023 left it — plain tables with --rows heartbeats (default
 * 10,000,000) over 40 days, a tenth as many spans, some erasures — is converted by the step a server's
 * start runs after the migrations (server/db/partitions.ts, under the migration lock), while writers insert
 * heartbeats (batches of 4, as the ingestion does) and readers read a learner's stretch the whole time.
 *
 * It prints each table's steps (the CHECK added, validated, the new key built CONCURRENTLY, the one short
 * transaction that swaps), the longest wait any write or read saw during the swap and overall, errors,
 * and the rows before and after (every row kept). Target: no lock on the live table held longer than 1 s.
 *
 *   npx tsx bench/activity-migration.ts [--rows 10000000] [--writers 4] [--readers 2] [--json]
 *
 * A throwaway cluster (scripts/pg.mjs, fsync off); the writers and readers are this process's own
 * connections (no HTTP: what is measured is the database's locks).
 */
import { cpus, totalmem } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase } from '../server/db/client';
import { rowsOf } from '../server/db/helpers';
import { type Conversion, preparePartitions } from '../server/db/partition-conversion';
import { kindOf, PARTITIONED } from '../server/db/partitions';
import { benchCatalogue, benchLearners } from './support/catalogue';
import { helpOnRequest, latency, loadNow, progressLog, round1, runBench } from './support/figures';
import { startPostgres, stopOnInterrupt } from './support/server';

const { values: opts } = parseArgs({
  options: {
    rows: { type: 'string', default: '10000000' },
    writers: { type: 'string', default: '4' },
    readers: { type: 'string', default: '2' },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});
helpOnRequest(opts.help, import.meta.url);
const ROWS = Number(opts.rows);
const LEARNERS = Math.max(100, Math.round(ROWS / 1000));
const PER_LEARNER = Math.round(ROWS / LEARNERS);
const log = progressLog(opts.json);
const DAY_MS = 86_400_000;

interface Op {
  at: number;
  ms: number;
  ok: boolean;
}

async function main() {
  const started = performance.now();
  const loadBefore = loadNow();
  const cluster = await startPostgres({
    database: 'waymark_bench',
    settings: {
      shared_buffers: '1GB',
      maintenance_work_mem: '512MB',
      max_wal_size: '4GB',
      checkpoint_timeout: '30min',
    },
  });
  stopOnInterrupt(() => cluster.stop());
  try {
    // the release before: migrations applied, the tables left plain
    const database = await openDatabase({ databaseUrl: cluster.url, poolSize: 4, partitions: false });
    const exec = (q: ReturnType<typeof sql>) =>
      database.db.transaction(async (tx) => {
        await tx.execute(sql`set local statement_timeout = 0`);
        return tx.execute(q);
      });
    for (const t of PARTITIONED) {
      if ((await database.structural((s) => kindOf(s, t.name))) !== 'plain')
        throw new Error(`${t.name} is not plain`);
    }
    log(`${LEARNERS} learners × ${PER_LEARNER} heartbeats over 40 days in the plain tables …`);
    const t0 = performance.now();
    await benchCatalogue(exec, { roadmaps: 1, sections: 5, perSection: 10 });
    await benchLearners(exec, LEARNERS);
    const now = Date.now();
    // the old table's keys as the old migrations made them, built after the rows (a bulk load)
    await exec(sql`alter table activity_heartbeats drop constraint activity_heartbeats_user_client_key`);
    await exec(sql`drop index activity_heartbeats_user_at_idx`);
    await exec(sql`
      insert into activity_heartbeats (user_id, client_id, resource_id, at, tab_active, audible)
      select u.id, 'old-' || k, r.id, ${now} - 40 * ${DAY_MS}::bigint + k * (40 * ${DAY_MS}::bigint / ${PER_LEARNER}) + u.idx * 1000,
             k % 40 <> 39, false
      from bench_users u cross join generate_series(0, ${PER_LEARNER - 1}) k
      join bench_resources r on r.idx = (u.idx + k / 40) % 50`);
    await exec(
      sql`alter table activity_heartbeats add constraint activity_heartbeats_user_client_key primary key (user_id, client_id)`,
    );
    await exec(sql`create index activity_heartbeats_user_at_idx on activity_heartbeats (user_id, at)`);
    await exec(sql`
      insert into activity_spans (user_id, resource_id, day, start_at, end_at, tab_active)
      select u.id, r.id, to_timestamp((${now} - d * ${DAY_MS}::bigint) / 1000)::date,
             ${now} - d * ${DAY_MS}::bigint - 3600000 * (s + 1), ${now} - d * ${DAY_MS}::bigint - 3600000 * s - 60000, true
      from bench_users u cross join generate_series(1, 40) d cross join generate_series(0, ${Math.max(0, Math.round(PER_LEARNER / 400) - 1)}) s
      join bench_resources r on r.idx = (u.idx + d) % 50`);
    await exec(sql`
      insert into activity_erasures (user_id, resource_id, start_at, end_at)
      select u.id, null, ${now} - (u.idx % 40) * ${DAY_MS}::bigint - 3600000, ${now} - (u.idx % 40) * ${DAY_MS}::bigint
      from bench_users u`);
    {
      const c = new pg.Client({ connectionString: cluster.url });
      await c.connect();
      await c.query('vacuum analyze');
      await c.end();
    }
    const count = async () =>
      rowsOf<{ h: string; s: string; e: string }>(
        await exec(sql`select (select count(*) from activity_heartbeats)::text as h,
          (select count(*) from activity_spans)::text as s, (select count(*) from activity_erasures)::text as e`),
      )[0]!;
    const before = await count();
    const sizeMB = Number(
      rowsOf<{ b: string }>(
        await exec(sql`select pg_total_relation_size('activity_heartbeats')::text as b`),
      )[0]!.b,
    );
    log(
      `  ${before.h} heartbeats (${Math.round(sizeMB / 2 ** 20)} MB with indexes), ${before.s} spans, ${before.e} erasures in ${round1((performance.now() - t0) / 1000)} s`,
    );
    const users = rowsOf<{ id: string }>(await exec(sql`select id from bench_users order by idx`)).map(
      (r) => r.id,
    );
    const resource = rowsOf<{ id: string }>(await exec(sql`select id from bench_resources where idx = 0`))[0]!
      .id;

    // the live load: writers (4 heartbeats a statement, as a batch) and readers (a learner's stretch)
    const pool = new pg.Pool({
      connectionString: cluster.url,
      max: Number(opts.writers) + Number(opts.readers) + 2,
    });
    const writes: Op[] = [];
    const reads: Op[] = [];
    let running = true;
    /** What the failed operations said. */
    const errors = new Set<string>();
    let written = 0;
    let seq = 0;
    const loop = async (ops: Op[], op: (n: number) => Promise<unknown>) => {
      while (running) {
        const n = seq++;
        const t = performance.now();
        try {
          await op(n);
          ops.push({ at: t, ms: performance.now() - t, ok: true });
        } catch (err) {
          ops.push({ at: t, ms: performance.now() - t, ok: false });
          errors.add(
            [(err as Error).message, (err as { detail?: string }).detail].filter(Boolean).join(': '),
          );
        }
      }
    };
    const writer = (n: number) => {
      const user = users[n % users.length]!;
      const at = Date.now();
      return pool
        .query(
          `insert into activity_heartbeats (user_id, client_id, resource_id, at, tab_active, audible)
           select $1, 'live-' || $2 || '-' || k, $3, $4::bigint + k * 30000, true, false from generate_series(0, 3) k
           on conflict do nothing`,
          [user, n, resource, at],
        )
        .then((r) => {
          written += r.rowCount ?? 0;
        });
    };
    const reader = (n: number) =>
      pool.query('select count(*) from activity_heartbeats where user_id = $1 and at between $2 and $3', [
        users[(n * 7919) % users.length]!,
        now - 2 * DAY_MS,
        now,
      ]);
    const live = [
      ...Array.from({ length: Number(opts.writers) }, () => loop(writes, writer)),
      ...Array.from({ length: Number(opts.readers) }, () => loop(reads, reader)),
    ];
    await new Promise((r) => setTimeout(r, 2000));

    log('converting, as a server start does, while they run …');
    const c0 = performance.now();
    const done = await database.structural((s) => preparePartitions(s, { now: Date.now() }));
    const c1 = performance.now();
    await new Promise((r) => setTimeout(r, 2000));
    running = false;
    await Promise.all(live);
    await pool.end();
    const after = await count();
    for (const t of PARTITIONED) {
      if ((await database.structural((s) => kindOf(s, t.name))) !== 'partitioned')
        throw new Error(`${t.name} not converted`);
    }
    // the relations a failed operation names, by name
    const oids = [
      ...new Set([...errors].flatMap((e) => [...e.matchAll(/relation (\d+)/g)].map((m) => Number(m[1])))),
    ];
    const named = oids.length
      ? rowsOf<{ oid: number; relname: string }>(
          await exec(
            sql`select oid::int as oid, relname from pg_class where oid = any(${sql.param(oids)}::oid[])`,
          ),
        )
      : [];
    const relations = Object.fromEntries(named.map((r) => [r.oid, r.relname]));
    await database.close();

    const heartbeats = done.conversions.find((c) => c.table === 'activity_heartbeats');
    // the swap is the conversion's last part for each table: the window its transaction held the lock in
    const swapWindow = (c: Conversion | undefined) => (c ? c.swapMs : 0);
    const during = (ops: Op[], from: number, to: number) =>
      ops.filter((o) => o.at + o.ms >= from && o.at <= to);
    const summary = (ops: Op[]) => ({
      ops: ops.length,
      errors: ops.filter((o) => !o.ok).length,
      ...latency(ops.map((o) => o.ms)),
    });
    const result = {
      machine: {
        cpus: cpus().length,
        cpu: cpus()[0]?.model,
        memoryGB: Math.round(totalmem() / 2 ** 30),
        node: process.version,
        load: `${loadBefore} → ${loadNow()}`,
      },
      postgres: 'PostgreSQL 15, fsync off (throwaway cluster)',
      before: {
        heartbeats: Number(before.h),
        spans: Number(before.s),
        erasures: Number(before.e),
        heartbeatsMB: Math.round(sizeMB / 2 ** 20),
      },
      conversion: {
        seconds: round1((c1 - c0) / 1000),
        tables: done.conversions.map((c) => ({
          table: c.table,
          checkMs: round1(c.checkMs),
          validateMs: round1(c.validateMs),
          indexMs: round1(c.indexMs),
          swapMs: round1(c.swapMs),
          swapTries: c.swapTries,
        })),
        partitionsMade: done.made.length,
        longestLockMs: round1(Math.max(...done.conversions.map((c) => Math.max(c.checkMs, swapWindow(c))))),
      },
      writes: { all: summary(writes), duringConversion: summary(during(writes, c0, c1)) },
      reads: { all: summary(reads), duringConversion: summary(during(reads, c0, c1)) },
      after: {
        heartbeats: Number(after.h),
        spans: Number(after.s),
        erasures: Number(after.e),
        heartbeatsWrittenMeanwhile: written,
        everyRowKept:
          Number(after.h) === Number(before.h) + written && after.s === before.s && after.e === before.e,
      },
      heartbeatsSwapMs: heartbeats ? round1(heartbeats.swapMs) : null,
      errors: [...errors],
      relations,
      totalSeconds: Math.round((performance.now() - started) / 1000),
    };
    console.log(JSON.stringify(result, null, 2));
  } finally {
    await cluster.stop();
  }
}

runBench(main);
