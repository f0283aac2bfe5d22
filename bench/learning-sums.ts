/**
 * The learning sums kept by activity_daily's triggers (decision 049): what they cost each ingestion batch
 * and what they save the mentor's statistics, each beside its baseline in the same run.
 *
 *   1. ingestion: batches of 4 heartbeats (in process through `ingestHeartbeats`, no HTTP) with the
 *      triggers on and off (`ALTER TABLE … DISABLE TRIGGER USER`), alternating for --rounds rounds of
 *      --batches; PostgreSQL's time per batch from pg_stat_statements and the wall time per batch;
 *   2. the statistics cards of a mentor with --mentor-learners learners, among --learners, each with 28 days
 *      of rollups (three days in five, as bench/activity-day.ts): `tenantStats` (reading the sums) beside the
 *      same figures computed the old way, from every daily row of the mentor's learners, --reads times each,
 *      alternating; both checked equal.
 *
 *   npx tsx bench/learning-sums.ts [--batches 600] [--rounds 4] [--learners 100000] [--mentor-learners 10000]
 *                                  [--reads 40] [--json]
 *
 * A throwaway cluster (scripts/pg.mjs, fsync off) with pg_stat_statements.
 */
import { cpus } from 'node:os';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { ingestHeartbeats } from '../server/activity/ingest';
import { openDatabase } from '../server/db/client';
import { rowsOf } from '../server/db/helpers';
import { tenantStats } from '../server/tenant/reports';
import { benchCatalogue, benchLearners, benchMentor } from './support/catalogue';
import { helpOnRequest, latency, loadNow, progressLog, round2, runBench } from './support/figures';
import { STATEMENT_STATS, startPostgres, stopOnInterrupt } from './support/server';

const { values: opts } = parseArgs({
  options: {
    batches: { type: 'string', default: '600' },
    rounds: { type: 'string', default: '4' },
    learners: { type: 'string', default: '100000' },
    'mentor-learners': { type: 'string', default: '10000' },
    reads: { type: 'string', default: '40' },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});
helpOnRequest(opts.help, import.meta.url);
const BATCHES = Number(opts.batches);
const ROUNDS = Number(opts.rounds);
const LEARNERS = Number(opts.learners);
const MENTOR_LEARNERS = Number(opts['mentor-learners']);
const READS = Number(opts.reads);
const ROADMAPS = 20;
const PER_ROADMAP = 50;
const INGESTING = 500;
const D = 86_400_000;
const log = progressLog(opts.json);

/** The statistics' learning time as it was computed before the sums: every daily row of every seat. */
const oldAverage = (tenantId: string) => sql`
  with s as (select learner_id from tenant_users where tenant_id = ${tenantId} and access_until is null),
  d as (
    select a.user_id, a.day, sum(a.ms) as ms from activity_daily a
    join s on s.learner_id = a.user_id
    group by a.user_id, a.day having sum(a.ms) > 0
  )
  select (select coalesce(sum(ms), 0) from d) as ms, (select count(*) from d) as days`;

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
    const exec = (q: ReturnType<typeof sql>) =>
      db.transaction(async (tx) => {
        await tx.execute(sql`set local statement_timeout = 0`);
        return tx.execute(q);
      });
    await exec(sql`create extension pg_stat_statements`);
    log(`${LEARNERS} learners, a mentor of ${MENTOR_LEARNERS} with 28 days each …`);
    await benchCatalogue(exec, { roadmaps: ROADMAPS, sections: 5, perSection: PER_ROADMAP / 5 });
    await exec(sql`create unique index on bench_resources (idx)`);
    await benchLearners(exec, LEARNERS);
    await exec(sql`
      with a as (
        insert into assigned_roadmaps (user_id, roadmap_id, status)
        select u.id, r.id, 'ONGOING' from bench_users u join bench_roadmaps r on r.idx = u.idx % ${ROADMAPS}
        where u.idx < ${INGESTING} returning id, roadmap_id
      ) insert into assigned_sections (assigned_roadmap_id, section_id, position)
        select a.id, s.id, s.position from a join bench_sections s on s.roadmap_id = a.roadmap_id`);
    const mentorId = await benchMentor(exec, MENTOR_LEARNERS);
    const today = Math.floor(Date.now() / D) * D;
    // every learner's last four weeks, through the triggers as the ingestion writes them
    await exec(sql`
      insert into activity_daily (user_id, day, resource_id, ms)
      select u.id, (to_timestamp(${today / 1000}) at time zone 'utc')::date - d, r.id, 2370000
      from bench_users u cross join generate_series(1, 28) d
      join bench_resources r on r.idx = (u.idx % ${ROADMAPS}) * ${PER_ROADMAP} + ((u.idx + d) % ${PER_ROADMAP})
      where (u.idx + d) % 5 < 3`);
    {
      // vacuum cannot run in a transaction: a connection of its own
      const c = new pg.Client({ connectionString: cluster.url });
      await c.connect();
      await c.query('vacuum analyze');
      await c.end();
    }
    const [rows] = rowsOf<{ daily: string; sums: string }>(
      await exec(sql`select (select count(*) from activity_daily)::text as daily,
        (select count(*) from activity_learning_totals)::text as sums`),
    );

    // ---- 1. ingestion with and without the triggers
    const users = rowsOf<{ id: string; idx: number }>(
      await exec(sql`select id, idx from bench_users where idx < ${INGESTING} order by idx`),
    );
    const resourceOf = rowsOf<{ id: string; idx: number }>(
      await exec(sql`select id, idx from bench_resources order by idx`),
    );
    const modes = ['sums kept (triggers on)', 'baseline: triggers off'] as const;
    const ingest = new Map(modes.map((m) => [m, { pg: [] as number[], wall: [] as number[] }]));
    let n = 0;
    for (let round = 0; round < ROUNDS; round++) {
      for (const mode of round % 2 ? [...modes].reverse() : modes) {
        log(`ingestion, round ${round + 1} of ${ROUNDS}: ${mode} …`);
        await exec(
          sql.raw(`alter table activity_daily ${mode === modes[0] ? 'enable' : 'disable'} trigger user`),
        );
        await exec(sql`select pg_stat_statements_reset()`);
        const t0 = performance.now();
        for (let i = 0; i < BATCHES; i++, n++) {
          const u = users[n % INGESTING]!;
          const r = resourceOf[(u.idx % ROADMAPS) * PER_ROADMAP + ((n >> 9) % PER_ROADMAP)]!;
          const k0 = Math.floor(n / INGESTING) * 4;
          const beats = Array.from({ length: 4 }, (_, j) => ({
            id: `bench-${n}-${j}`,
            resourceId: r.id,
            url: `https://bench.example/r/${r.idx}`,
            time: today + 3_600_000 + (k0 + j) * 30_000,
            tabActive: true,
            audible: false,
          }));
          const receipt = await ingestHeartbeats(db, u.id, beats, today + 20 * 3_600_000);
          if (receipt.accepted !== 4) throw new Error(`a batch was not taken: ${JSON.stringify(receipt)}`);
        }
        const wall = (performance.now() - t0) / BATCHES;
        const [spent] = rowsOf<{ pg: number }>(
          await exec(sql`
            select sum(total_plan_time + total_exec_time) / ${BATCHES} as pg
            from pg_stat_statements where query not like '%pg_stat_statements%' and query not like 'alter table%'`),
        );
        ingest.get(mode)!.pg.push(Number(spent!.pg));
        ingest.get(mode)!.wall.push(wall);
      }
    }
    await exec(sql`alter table activity_daily enable trigger user`);
    // the rounds without the triggers left the sums behind: made again from the rollups, as migration 0031 does
    await exec(sql`truncate activity_user_days, activity_learning_totals`);
    await exec(sql`
      insert into activity_user_days (user_id, day, ms)
      select user_id, day, sum(ms) from activity_daily group by user_id, day`);
    await exec(sql`
      insert into activity_learning_totals (user_id, ms, days)
      select user_id, sum(ms), count(*) filter (where ms > 0) from activity_user_days group by user_id`);

    // ---- 2. the statistics, from the sums and the old way
    log(`the statistics of ${MENTOR_LEARNERS} learners, ${READS} reads each way …`);
    const now = new Date();
    const times = { sums: [] as number[], old: [] as number[] };
    for (let i = 0; i < READS; i++) {
      let t = performance.now();
      const stats = await tenantStats(db, mentorId, now);
      times.sums.push(performance.now() - t);
      t = performance.now();
      const [old] = rowsOf<{ ms: string; days: string }>(await exec(oldAverage(mentorId)));
      times.old.push(performance.now() - t);
      const days = Number(old!.days);
      const want = days ? Math.round(Number(old!.ms) / 1000 / days) : 0;
      if (stats.totalUserAverageLearningTime !== want)
        throw new Error(`the sums say ${stats.totalUserAverageLearningTime} s, the daily rows ${want} s`);
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
      data: { learners: LEARNERS, dailyRows: Number(rows!.daily), learnersWithSums: Number(rows!.sums) },
      ingestionPerBatchMs: Object.fromEntries(
        modes.map((m) => {
          const f = ingest.get(m)!;
          return [
            m,
            {
              postgres: mean(f.pg),
              wall: mean(f.wall),
              postgresByRound: f.pg.map(round2),
              batches: BATCHES * ROUNDS,
            },
          ];
        }),
      ),
      statistics: {
        mentorLearners: MENTOR_LEARNERS,
        'tenantStats (the sums), ms': latency(times.sums),
        'baseline: the old aggregate over activity_daily, ms': latency(times.old),
        checkedEqual: READS,
      },
    };
    console.log(JSON.stringify(result, null, 2));
  } finally {
    await cluster.stop();
  }
}

runBench(main);
