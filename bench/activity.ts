/**
 * Learning-time benchmark on PostgreSQL, through the real HTTP server:
 *   1. data: learners with two ongoing roadmaps each and their heartbeat history (default 10,000 learners ×
 *      1,000 heartbeats = 10 million), made with bulk SQL, with the rollups the ingestion would have kept;
 *   2. ingestion: POST /api/activity/heartbeats at a fixed rate (open loop: requests leave on schedule
 *      whatever the answers do), then as fast as it goes (closed loop); acknowledgement latency per batch;
 *   3. reports: the dashboard calls (with the learning-days heatmap and time per topic) for random
 *      learners, closed loop;
 *   4. export: one mentor with every learner as a seat downloads the Learning Report as CSV over HTTP
 *      (time, bytes, the server's resident memory sampled every 20 ms), beside the same export code run
 *      without HTTP in this process (the baseline).
 *
 *   npx tsx bench/activity.ts [--learners 10000] [--per-learner 1000] [--rate 5000] [--batch 100]
 *                             [--seconds 30] [--concurrency 8] [--durable] [--json]
 *
 * It starts a throwaway cluster with scripts/pg.mjs (fsync off unless --durable) and the server
 * (server/main.ts) on a free port, and stops both at the end. BENCH_DATABASE_URL uses an existing empty
 * database instead. Figures go to stdout; docs/PERFORMANCE.md quotes them.
 */
import { readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { dateRange } from '@shared/rules/date-ranges';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { Agent, request } from 'undici';
import { TokenService } from '../server/auth/tokens';
import { loadConfig } from '../server/config';
import { openDatabase } from '../server/db/client';
import { rowsOf } from '../server/db/helpers';
import { learningExport, serialise } from '../server/tenant/exports';
import { benchCatalogue, benchLearners, benchMentor } from './support/catalogue';
import { latency, progressLog, runBench, sleep } from './support/figures';
import { type BenchServer, serverEnv, startPostgres, startServer, stopOnInterrupt } from './support/server';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));

const { values: opts } = parseArgs({
  options: {
    learners: { type: 'string', default: '10000' },
    'per-learner': { type: 'string', default: '1000' },
    rate: { type: 'string', default: '5000' },
    batch: { type: 'string', default: '100' },
    seconds: { type: 'string', default: '30' },
    concurrency: { type: 'string', default: '8' },
    durable: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
});
const LEARNERS = Number(opts.learners);
const PER_LEARNER = Number(opts['per-learner']);
const BEATS_PER_SESSION = 50;
const SESSIONS = Math.max(1, Math.round(PER_LEARNER / BEATS_PER_SESSION));
const RATE = Number(opts.rate);
const BATCH = Number(opts.batch);
const SECONDS = Number(opts.seconds);
const CONCURRENCY = Number(opts.concurrency);
const ROADMAPS = 200;
const SECTIONS = 5;
const PER_SECTION = 10;

const log = progressLog(opts.json);

const round = (n: number) => Math.round(n * 1000) / 1000;

const summary = (latencies: number[]) => ({ n: latencies.length, ...latency(latencies) });

async function main() {
  const started = performance.now();
  let stopPg: (() => Promise<void>) | null = null;
  let url = process.env.BENCH_DATABASE_URL;
  if (!url) {
    const pg = await startPostgres({
      database: 'waymark_bench',
      settings: {
        shared_buffers: '1GB',
        work_mem: '32MB',
        maintenance_work_mem: '512MB',
        max_wal_size: '8GB',
        checkpoint_timeout: '30min',
        ...(opts.durable ? { fsync: 'on', synchronous_commit: 'on', full_page_writes: 'on' } : {}),
      },
    });
    url = pg.url;
    stopPg = () => pg.stop();
  }
  let server: BenchServer | null = null;
  const dataDir = join(root, '.tmp', `bench-activity-${process.pid}`);
  const stopAll = async () => {
    await server?.stop();
    await stopPg?.();
    rmSync(dataDir, { recursive: true, force: true });
  };
  stopOnInterrupt(stopAll);

  try {
    // the history is loaded into the plain tables a release before migration 0023 had (40 days of it, older
    // than any partition made ahead): the server's start converts them (server/db/partitions.ts), the way an
    // upgraded deployment's are
    const database = await openDatabase({ databaseUrl: url, poolSize: 4, partitions: false });
    const db = database.db;
    // bulk statements run for longer than the server's statement timeout (server/db/client.ts)
    const exec = (q: ReturnType<typeof sql>) =>
      db.transaction(async (tx) => {
        await tx.execute(sql`set local statement_timeout = 0`);
        return tx.execute(q);
      });

    // ---- 1. data
    log(`generating ${LEARNERS} learners × ${SESSIONS * BEATS_PER_SESSION} heartbeats …`);
    const t0 = performance.now();
    await benchCatalogue(exec, { roadmaps: ROADMAPS, sections: SECTIONS, perSection: PER_SECTION });
    await benchLearners(exec, LEARNERS);
    // two ongoing roadmaps each: (idx) and (idx + 1) modulo the catalogue
    await exec(sql`
      create table bench_assigned as
      select u.idx as user_idx, u.id as user_id, k, (u.idx + k) % ${ROADMAPS} as roadmap_idx, gen_random_uuid() as id
      from bench_users u cross join generate_series(0, 1) k`);
    await exec(sql`
      insert into assigned_roadmaps (id, user_id, roadmap_id, status)
      select a.id, a.user_id, r.id, 'ONGOING' from bench_assigned a join bench_roadmaps r on r.idx = a.roadmap_idx`);
    await exec(sql`
      insert into assigned_sections (assigned_roadmap_id, section_id, position)
      select a.id, s.id, s.position
      from bench_assigned a join bench_roadmaps r on r.idx = a.roadmap_idx join bench_sections s on s.roadmap_id = r.id`);

    // sessions: one a day (days 1 … 2·SESSIONS ago), 50 pulses 30 s apart from 08:00–18:00 UTC, the last
    // one ending the stretch; each on one of the learner's resources
    await exec(sql`
      create table bench_sessions as
      select u.id as user_id, u.idx as user_idx, s,
             (extract(epoch from date_trunc('day', now() at time zone 'utc')) * 1000)::bigint
               - ((s * 2 - (u.idx % 2)) * 86400000::bigint)
               + ((8 * 3600 + ((u.idx * 7 + s * 13) % 600) * 60) * 1000)::bigint as start_ms,
             ((u.idx + (s % 2)) % ${ROADMAPS}) * ${SECTIONS * PER_SECTION} + ((u.idx + s * 7) % ${SECTIONS * PER_SECTION}) as resource_idx
      from bench_users u cross join generate_series(1, ${SESSIONS}) s`);
    await exec(sql`alter table bench_sessions add column resource_id uuid`);
    await exec(
      sql`update bench_sessions b set resource_id = r.id from bench_resources r where r.idx = b.resource_idx`,
    );

    // bulk load: indexes after the rows
    await exec(sql`alter table activity_heartbeats drop constraint activity_heartbeats_user_client_key`);
    await exec(sql`drop index activity_heartbeats_user_at_idx`);
    await exec(sql`alter table activity_heartbeats drop constraint activity_heartbeats_user_id_users_id_fk`);
    await exec(
      sql`alter table activity_heartbeats drop constraint activity_heartbeats_resource_id_resources_id_fk`,
    );
    await exec(sql`
      insert into activity_heartbeats (user_id, client_id, resource_id, at, tab_active, audible, received_at)
      select b.user_id, 'hist-' || b.s || '-' || k, b.resource_id, b.start_ms + k * 30000,
             k < ${BEATS_PER_SESSION - 1}, false, now()
      from bench_sessions b cross join generate_series(0, ${BEATS_PER_SESSION - 1}) k`);
    await exec(
      sql`alter table activity_heartbeats add constraint activity_heartbeats_user_client_key primary key (user_id, client_id)`,
    );
    await exec(sql`create index activity_heartbeats_user_at_idx on activity_heartbeats (user_id, at)`);
    await exec(sql`alter table activity_heartbeats add constraint activity_heartbeats_user_id_users_id_fk
      foreign key (user_id) references users(id) on delete cascade not valid`);
    await exec(sql`alter table activity_heartbeats add constraint activity_heartbeats_resource_id_resources_id_fk
      foreign key (resource_id) references resources(id) on delete cascade not valid`);
    // the rollups the ingestion keeps: each session credits (50 − 1) × 30 s to its resource and day
    await exec(sql`
      insert into activity_daily (user_id, day, resource_id, ms)
      select user_id, (to_timestamp(start_ms / 1000.0) at time zone 'utc')::date, resource_id,
             sum(${(BEATS_PER_SESSION - 1) * 30000}::bigint)
      from bench_sessions group by 1, 2, 3`);
    await exec(sql`
      insert into activity_resource_totals (user_id, resource_id, ms, last_at)
      select user_id, resource_id, sum(${(BEATS_PER_SESSION - 1) * 30000}::bigint),
             max(start_ms + ${(BEATS_PER_SESSION - 2) * 30000})
      from bench_sessions group by 1, 2`);
    {
      // not in a transaction, and longer than the pool's statement timeout: a connection of its own
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query('vacuum analyze');
      await c.end();
    }
    const counts = rowsOf<{ heartbeats: string; daily: string; totals: string }>(
      await exec(sql`select (select count(*) from activity_heartbeats) as heartbeats,
        (select count(*) from activity_daily) as daily, (select count(*) from activity_resource_totals) as totals`),
    )[0]!;
    const dataSeconds = (performance.now() - t0) / 1000;
    log(
      `  ${counts.heartbeats} heartbeats, ${counts.daily} daily rows, ${counts.totals} totals in ${dataSeconds.toFixed(0)} s`,
    );

    // ---- the server
    const env = await serverEnv({ databaseUrl: url, dataDir, settings: { DATABASE_POOL_SIZE: '10' } });
    // its start converts the loaded tables into partitioned ones (a scan and an index build, not a copy)
    const running = await startServer(env, { timeoutMs: 600_000 });
    server = running;
    const base = running.url;

    const config = loadConfig({ ...env, NODE_ENV: 'test' });
    const tokens = new TokenService(db, config);
    const sample = rowsOf<{ id: string; idx: number }>(
      await exec(sql`select id, idx from bench_users order by idx limit 2000`),
    );
    const resourcesOf = new Map<string, { id: string; url: string }[]>();
    for (const r of rowsOf<{ user_id: string; id: string; idx: number }>(
      await exec(sql`
        select a.user_id, r.id, r.idx from bench_assigned a
        join bench_roadmaps rm on rm.idx = a.roadmap_idx join bench_sections s on s.roadmap_id = rm.id
        join bench_resources r on r.section_id = s.id
        where a.user_idx < 2000`),
    )) {
      const list = resourcesOf.get(r.user_id) ?? [];
      list.push({ id: r.id, url: `https://bench.example/r/${r.idx}` });
      resourcesOf.set(r.user_id, list);
    }
    const ext: { user: string; token: string }[] = [];
    const web: { user: string; token: string }[] = [];
    for (const u of sample) {
      ext.push({
        user: u.id,
        token: (await tokens.issue({ id: u.id, role: 'USER' }, 'CHROME_EXTENSION')).token,
      });
      web.push({ user: u.id, token: (await tokens.issue({ id: u.id, role: 'USER' }, 'WEB_APP')).token });
    }

    // a mentor with every learner as a seat, for the export
    const mentorId = await benchMentor(exec, LEARNERS);
    const mentorToken = (await tokens.issue({ id: mentorId, role: 'TENANT' }, 'WEB_APP')).token;
    const exportRange = dateRange('Last 28 Days');
    log('export baseline: the same export code without HTTP …');
    const b0 = performance.now();
    let baselineBytes = 0;
    for await (const chunk of serialise(learningExport(db, mentorId, new Date(), exportRange), 'csv'))
      baselineBytes += Buffer.byteLength(chunk);
    const exportBaseline = { seconds: round((performance.now() - b0) / 1000), bytes: baselineBytes };
    log('  ', exportBaseline);
    await database.close();

    const agent = new Agent({ connections: 64, pipelining: 1, keepAliveTimeout: 30_000 });
    let seq = 0;
    /** Each learner's offline queue: the next batch continues where the last one stopped. */
    const cursor = new Map<string, number>();
    function batchFor(i: number) {
      const learner = ext[i % ext.length]!;
      const list = resourcesOf.get(learner.user)!;
      let t = cursor.get(learner.user) ?? Date.now() - 25 * 86_400_000;
      const heartbeats = [];
      const resource = list[(seq >> 3) % list.length]!;
      for (let k = 0; k < BATCH; k++) {
        t += 30_000;
        heartbeats.push({
          id: `bench-${process.pid}-${++seq}`,
          resourceId: resource.id,
          url: resource.url,
          time: t,
          tabActive: true,
          audible: false,
        });
      }
      cursor.set(learner.user, t);
      return { token: learner.token, body: JSON.stringify({ heartbeats }) };
    }
    async function post(i: number): Promise<{ ms: number; ok: boolean; accepted: number }> {
      const { token, body } = batchFor(i);
      const t = performance.now();
      try {
        const res = await request(`${base}/api/activity/heartbeats`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body,
          dispatcher: agent,
        });
        const json = (await res.body.json()) as { data?: { accepted: number } };
        return { ms: performance.now() - t, ok: res.statusCode === 200, accepted: json.data?.accepted ?? 0 };
      } catch {
        return { ms: performance.now() - t, ok: false, accepted: 0 };
      }
    }

    // warm-up: connections, prepared plans, JIT of the server
    await Promise.all(Array.from({ length: 40 }, (_, i) => post(i)));

    // ---- 2a. ingestion at a fixed rate (open loop)
    log(`ingestion: ${RATE} heartbeats/s in batches of ${BATCH} for ${SECONDS} s (open loop) …`);
    const perSecond = RATE / BATCH;
    const total = Math.round(perSecond * SECONDS);
    const fixed: Promise<{ ms: number; ok: boolean; accepted: number }>[] = [];
    const tStart = performance.now();
    for (let i = 0; i < total; i++) {
      const due = tStart + (i * 1000) / perSecond;
      const wait = due - performance.now();
      if (wait > 1) await sleep(wait);
      fixed.push(post(i));
    }
    const fixedResults = await Promise.all(fixed);
    const fixedElapsed = (performance.now() - tStart) / 1000;
    const fixedAccepted = fixedResults.reduce((s, r) => s + r.accepted, 0);
    const ingestFixed = {
      targetPerSecond: RATE,
      batch: BATCH,
      seconds: Math.round(fixedElapsed * 10) / 10,
      heartbeatsPerSecond: Math.round(fixedAccepted / fixedElapsed),
      errors: fixedResults.filter((r) => !r.ok).length,
      ackMs: summary(fixedResults.map((r) => r.ms)),
    };
    log('  ', ingestFixed);

    // ---- 2b. ingestion as fast as it goes (closed loop)
    log(`ingestion: as fast as it goes, ${CONCURRENCY} batches in flight for ${Math.min(SECONDS, 20)} s …`);
    const closedResults: { ms: number; ok: boolean; accepted: number }[] = [];
    const closedEnd = performance.now() + Math.min(SECONDS, 20) * 1000;
    const closedStart = performance.now();
    let n = total;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (performance.now() < closedEnd) closedResults.push(await post(n++));
      }),
    );
    const closedElapsed = (performance.now() - closedStart) / 1000;
    const ingestMax = {
      batch: BATCH,
      inFlight: CONCURRENCY,
      heartbeatsPerSecond: Math.round(closedResults.reduce((s, r) => s + r.accepted, 0) / closedElapsed),
      errors: closedResults.filter((r) => !r.ok).length,
      ackMs: summary(closedResults.map((r) => r.ms)),
    };
    log('  ', ingestMax);

    // ---- 3. reports
    const range = dateRange('Last 28 Days');
    const reportCalls = {
      'time-spent-by-user-daywise (Last 28 Days)': `/api/reports/dashboard/time-spent-by-user-daywise?startTime=${range.startTime}&endTime=${range.endTime}`,
      'get-current-resource': '/api/reports/dashboard/get-current-resource',
      'time-spent-on-resource-by-user (Last 28 Days, page 1 of 5)': `/api/reports/dashboard/time-spent-on-resource-by-user?startTime=${range.startTime}&endTime=${range.endTime}&skip=1&limit=5`,
      'learning-days (12-month heatmap and streaks)': '/api/reports/dashboard/learning-days',
      'time-spent-by-topic (Last 28 Days)': `/api/reports/dashboard/time-spent-by-topic?startTime=${range.startTime}&endTime=${range.endTime}`,
    };
    const reports: Record<string, ReturnType<typeof summary> & { perSecond: number; errors: number }> = {};
    for (const [name, path] of Object.entries(reportCalls)) {
      log(`report: ${name}, ${CONCURRENCY / 2} in flight for 10 s …`);
      const lat: number[] = [];
      let errors = 0;
      let k = 0;
      const end = performance.now() + 10_000;
      const s0 = performance.now();
      await Promise.all(
        Array.from({ length: Math.max(1, CONCURRENCY / 2) }, async () => {
          while (performance.now() < end) {
            const who = web[(k++ * 7919) % web.length]!;
            const t = performance.now();
            const res = await request(`${base}${path}`, {
              headers: { authorization: `Bearer ${who.token}` },
              dispatcher: agent,
            });
            await res.body.dump();
            lat.push(performance.now() - t);
            if (res.statusCode !== 200) errors++;
          }
        }),
      );
      reports[name] = {
        ...summary(lat),
        perSecond: Math.round(lat.length / ((performance.now() - s0) / 1000)),
        errors,
      };
      log('  ', reports[name]);
    }

    // ---- 4. the Learning Report of every learner as CSV, over HTTP
    log(`export: the Learning Report of ${LEARNERS} learners as CSV …`);
    const rss = () => {
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${running.pid}/status`, 'utf8'));
      return m ? Number(m[1]) / 1024 : 0;
    };
    const rssBefore = rss();
    let rssPeak = rssBefore;
    const sampler = setInterval(() => {
      rssPeak = Math.max(rssPeak, rss());
    }, 20);
    const e0 = performance.now();
    const res = await request(
      `${base}/api/tenant/export/learning-report?startTime=${exportRange.startTime}&endTime=${exportRange.endTime}`,
      { headers: { authorization: `Bearer ${mentorToken}` }, dispatcher: agent },
    );
    let bytes = 0;
    let lines = 0;
    let firstByteMs = 0;
    for await (const chunk of res.body) {
      if (!firstByteMs) firstByteMs = performance.now() - e0;
      bytes += (chunk as Buffer).length;
      for (const b of chunk as Buffer) if (b === 10) lines++;
    }
    const exportSeconds = (performance.now() - e0) / 1000;
    clearInterval(sampler);
    const exportCsv = {
      status: res.statusCode,
      rows: lines - 1,
      bytes,
      seconds: round(exportSeconds),
      firstByteMs: Math.round(firstByteMs),
      serverRssBeforeMB: Math.round(rssBefore),
      serverRssPeakMB: Math.round(rssPeak),
      serverRssGrowthMB: Math.round(rssPeak - rssBefore),
      baseline: exportBaseline,
      ratioToBaseline: round(exportSeconds / exportBaseline.seconds),
    };
    log('  ', exportCsv);
    await agent.close();

    const result = {
      machine: {
        cpus: cpus().length,
        cpu: cpus()[0]?.model,
        memoryGB: Math.round(totalmem() / 2 ** 30),
        loadAverage1m: Math.round(loadavg()[0]! * 100) / 100,
        node: process.version,
      },
      postgres: opts.durable
        ? 'fsync on, synchronous_commit on'
        : 'fsync off, synchronous_commit off (throwaway cluster)',
      data: {
        learners: LEARNERS,
        heartbeats: Number(counts.heartbeats),
        dailyRows: Number(counts.daily),
        seconds: Math.round(dataSeconds),
      },
      ingestFixed,
      ingestMax,
      reports,
      exportCsv,
      totalSeconds: Math.round((performance.now() - started) / 1000),
    };
    console.log(JSON.stringify(result, null, 2));
  } finally {
    await stopAll();
  }
}

runBench(main);
