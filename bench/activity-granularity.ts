/**
 * Day or week partitions for the heartbeats (decision 035): PostgreSQL's time per ingestion batch (4
 * heartbeats, in process through `ingestHeartbeats`, no HTTP) with the heartbeats partitioned by day (the
 * 40 partitions a 31-day retention keeps with a week ahead), by week (7) and by day over a year (373), each
 * table swapped in by name in turn, --rounds times, so all three share the machine's minutes. Planning and
 * execution come from pg_stat_statements.
 *
 *   npx tsx bench/activity-granularity.ts [--batches 600] [--rounds 4] [--json]
 *
 * A throwaway cluster (scripts/pg.mjs, fsync off) with pg_stat_statements.
 */
import { cpus } from 'node:os';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { ingestHeartbeats } from '../server/activity/ingest';
import { openDatabase } from '../server/db/client';
import { rowsOf } from '../server/db/helpers';
import { benchCatalogue, benchLearners } from './support/catalogue';
import { helpOnRequest, loadNow, progressLog, round2, runBench } from './support/figures';
import { STATEMENT_STATS, startPostgres, stopOnInterrupt } from './support/server';

const { values: opts } = parseArgs({
  options: {
    batches: { type: 'string', default: '600' },
    rounds: { type: 'string', default: '4' },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});
helpOnRequest(opts.help, import.meta.url);
const BATCHES = Number(opts.batches);
const ROUNDS = Number(opts.rounds);
const LEARNERS = 500;
const D = 86_400_000;
const log = progressLog(opts.json);

async function main() {
  const loadBefore = loadNow();
  const cluster = await startPostgres({
    database: 'waymark_bench',
    settings: STATEMENT_STATS,
  });
  stopOnInterrupt(() => cluster.stop());
  try {
    const database = await openDatabase({ databaseUrl: cluster.url, poolSize: 2 });
    const db = database.db;
    const exec = (q: ReturnType<typeof sql>) => db.execute(q);
    await exec(sql`create extension pg_stat_statements`);
    await benchCatalogue(exec, { roadmaps: 1, sections: 1, perSection: 10 });
    await benchLearners(exec, LEARNERS);
    await exec(sql`
      with a as (
        insert into assigned_roadmaps (user_id, roadmap_id, status)
        select id, (select id from bench_roadmaps), 'ONGOING' from bench_users returning id
      ) insert into assigned_sections (assigned_roadmap_id, section_id, position)
        select id, (select id from bench_sections), 0 from a`);
    const users = rowsOf<{ id: string }>(await exec(sql`select id from bench_users order by idx`));
    const resources = rowsOf<{ id: string; idx: number }>(
      await exec(sql`select id, idx from bench_resources`),
    );
    const today = Math.floor(Date.now() / D) * D;
    const shapes: Record<string, [number, number][]> = {
      'by day, 31 days kept': Array.from({ length: 40 }, (_, i) => [
        today - 32 * D + i * D,
        today - 31 * D + i * D,
      ]),
      'by week, 31 days kept': Array.from({ length: 7 }, (_, i) => [
        today - 35 * D + i * 7 * D,
        today - 28 * D + i * 7 * D,
      ]),
      'by day, a year kept': Array.from({ length: 373 }, (_, i) => [
        today - 365 * D + i * D,
        today - 364 * D + i * D,
      ]),
    };
    const names = Object.keys(shapes);
    for (const [k, name] of names.entries()) {
      await exec(
        sql.raw(
          `create table bench_hb_${k} (like activity_heartbeats including defaults) partition by range (at)`,
        ),
      );
      await exec(sql.raw(`alter table bench_hb_${k} add unique (user_id, at, client_id)`));
      await exec(
        sql.raw(
          `alter table bench_hb_${k} add foreign key (user_id) references users (id) on delete cascade`,
        ),
      );
      await exec(
        sql.raw(
          `alter table bench_hb_${k} add foreign key (resource_id) references resources (id) on delete cascade`,
        ),
      );
      for (const [a, b] of shapes[name]!) {
        await exec(
          sql.raw(
            `create table bench_hb_${k}_${a} partition of bench_hb_${k} for values from (${a}) to (${b})`,
          ),
        );
      }
    }
    await exec(sql`alter table activity_heartbeats rename to bench_hb_made`);
    const figures = new Map(
      names.map((n) => [n, { pg: [] as number[], planning: [] as number[], wall: [] as number[] }]),
    );
    let n = 0;
    for (let round = 0; round < ROUNDS; round++) {
      for (const [k, name] of names.entries()) {
        log(`round ${round + 1} of ${ROUNDS}: ${name} …`);
        await exec(sql.raw(`alter table bench_hb_${k} rename to activity_heartbeats`));
        await exec(sql`select pg_stat_statements_reset()`);
        const t0 = performance.now();
        for (let i = 0; i < BATCHES; i++, n++) {
          const user = users[n % LEARNERS]!.id;
          const r = resources[(n >> 3) % resources.length]!;
          const k0 = Math.floor(n / LEARNERS) * 4;
          const beats = Array.from({ length: 4 }, (_, j) => ({
            id: `bench-${n}-${j}`,
            resourceId: r.id,
            url: `https://bench.example/r/${r.idx}`,
            time: today - D + 3_600_000 + (k0 + j) * 30_000,
            tabActive: true,
            audible: false,
          }));
          await ingestHeartbeats(db, user, beats);
        }
        const wall = (performance.now() - t0) / BATCHES;
        const [spent] = rowsOf<{ pg: number; planning: number }>(
          await exec(sql`
            select sum(total_plan_time + total_exec_time) / ${BATCHES} as pg, sum(total_plan_time) / ${BATCHES} as planning
            from pg_stat_statements where query not like '%pg_stat_statements%'`),
        );
        const f = figures.get(name)!;
        f.pg.push(Number(spent!.pg));
        f.planning.push(Number(spent!.planning));
        f.wall.push(wall);
        await exec(sql.raw(`alter table activity_heartbeats rename to bench_hb_${k}`));
      }
    }
    await database.close();
    const mean = (xs: number[]) => round2(xs.reduce((a, b) => a + b, 0) / xs.length);
    const result = {
      machine: {
        cpus: cpus().length,
        cpu: cpus()[0]?.model,
        node: process.version,
        load: `${loadBefore} → ${loadNow()}`,
      },
      batches: BATCHES,
      rounds: ROUNDS,
      perBatchMs: Object.fromEntries(
        names.map((name) => {
          const f = figures.get(name)!;
          return [
            name,
            {
              partitions: shapes[name]!.length,
              postgres: mean(f.pg),
              planning: mean(f.planning),
              wall: mean(f.wall),
              postgresByRound: f.pg.map(round2),
            },
          ];
        }),
      ),
    };
    console.log(JSON.stringify(result, null, 2));
  } finally {
    await cluster.stop();
  }
}

runBench(main);
