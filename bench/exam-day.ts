/**
 * Exam day (issue 15): an organisation shares one custom assessment of 20 questions with N learners
 * (default 10,000) through the API; at its start every learner opens the link within --arrival seconds
 * (an arrival curve, not a closed loop), reads the Ready page and starts; answers a question every
 * --pace-min to --pace-max seconds with autosave; a --refresh share of them reload mid-test and resume;
 * then all submit, --submitters at a time. The load is bench/support/exam-day.ts (the server tests run it
 * at 200 takers on PGlite and PostgreSQL).
 *
 * It reports per phase throughput, p50/p95/p99, errors (shed 503s apart, each retried after Retry-After as
 * the test page does), CPU-ms per request of the server and of PostgreSQL (from /proc), checks every score
 * against the key and every answer given against what is stored; and beside it, in the same run, the
 * baseline: the same engine statements (start, save, evaluate) sent from this process without HTTP, for
 * --baseline-takers more takers (as many as --takers by default) through as many connections as the
 * server has; their answers saved interleaved as the exam's are; their evaluations in five rounds between
 * slices of the exam's submissions, so the ratio compares the two in the same minutes of the machine.
 *
 *   npx tsx bench/exam-day.ts [--takers 10000] [--scale 1] [--arrival 60] [--pace-min 5] [--pace-max 30]
 *                             [--refresh 0.1] [--submitters 50] [--baseline-takers N]
 *                             [--search-takers 4000] [--search-rate 50] [--search-seconds 4] [--search-waves 8]
 *                             [--processes 1] [--pool N] [--server-node-options=FLAGS] [--nice=N] [--anonymous] [--tcp]
 *                             [--profile] [--perf]
 *                             [--json]
 *
 * After the exam, alone on the server, the arrival search (support/arrival-search.ts): waves of
 * --search-takers more takers, each on a connection of its own opening the Ready page then starting, at a
 * steady rate from --search-rate a second (doubled while a wave holds Ready/start p99 ≤ 300 ms with none
 * shed, then bisected; a wave that does not hold is sent again once) for --search-seconds each (at least
 * 200 takers a wave): the rate this machine sustains, and the CPU an arriving
 * taker costs (server + PostgreSQL), which transfers between hosts where latencies do not. --search-takers 0
 * leaves it out.
 *
 * --scale multiplies every time (arrival and pace): `--takers 500 --scale 0.1` is a quick run. Targets
 * (issue 15): 10,000 starts within 60 s, 0 errors, p99 ≤ 300 ms; autosave p99 ≤ 30 ms; evaluation ≥ 1,200
 * submissions/s at 50 submitters with p99 ≤ 100 ms and ≥ 80 % of the baseline. --processes N starts N
 * server processes on the one PostgreSQL behind the loopback balancer (support/balancer.mjs).
 * --profile writes a V8 CPU profile of the (first) server to .tmp/bench-profiles/exam-day/; --perf a
 * system-wide Linux perf profile of each phase beside it (PostgreSQL's backends, the server and the bench:
 * `perf report -i FILE --comm postgres --no-children`).
 *
 * The server and the baseline reach PostgreSQL through its Unix socket, as a deployment with both on one
 * machine does; --tcp goes through loopback TCP instead (a database on another host costs at least that).
 *
 * A throwaway cluster (scripts/pg.mjs, fsync off) and the server (server/main.ts, NODE_ENV=production,
 * under-pressure on) on free ports; measured from this process with undici.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, setPriority, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { TokenService } from '../server/auth/tokens';
import { loadConfig } from '../server/config';
import { openDatabase } from '../server/db/client';
import { rowsOf } from '../server/db/helpers';
import { seed } from '../server/db/seed';
import { searchLines } from './support/arrival-search';
import { cpuSeconds } from './support/cpu';
import { type ExamTaker, type PhaseResult, runExamDay } from './support/exam-day';
import { helpOnRequest, loadNow, progressLog, round2, runBench } from './support/figures';
import { inspector } from './support/inspector';
import { perfRecorder } from './support/perf';
import { pool } from './support/pool';
import {
  type BenchServer,
  freePort,
  serverEnv,
  startPostgres,
  startServer,
  stopOnInterrupt,
} from './support/server';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const { values: opts } = parseArgs({
  options: {
    takers: { type: 'string', default: '10000' },
    scale: { type: 'string', default: '1' },
    arrival: { type: 'string', default: '60' },
    'pace-min': { type: 'string', default: '5' },
    'pace-max': { type: 'string', default: '30' },
    refresh: { type: 'string', default: '0.1' },
    submitters: { type: 'string', default: '50' },
    'baseline-takers': { type: 'string' },
    'search-takers': { type: 'string', default: '4000' },
    'search-rate': { type: 'string', default: '50' },
    'search-seconds': { type: 'string', default: '4' },
    'search-waves': { type: 'string', default: '8' },
    processes: { type: 'string', default: '1' },
    workers: { type: 'string', default: '1' },
    pool: { type: 'string' },
    'server-node-options': { type: 'string' },
    nice: { type: 'string' },
    anonymous: { type: 'boolean', default: false },
    tcp: { type: 'boolean', default: false },
    profile: { type: 'boolean', default: false },
    perf: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});
helpOnRequest(opts.help, import.meta.url);
const TAKERS = Number(opts.takers);
const SCALE = Number(opts.scale);
// as many as the exam by default: the baseline's evaluations run in slices between the exam's (five rounds),
// and slices of one size have the same ramp at their ends
const BASELINE = Math.min(Number(opts['baseline-takers'] ?? TAKERS), TAKERS);
// takers of the arrival search (after the exam, alone on the server): 0 leaves it out
const SEARCH = Math.max(0, Number(opts['search-takers']));
const PROCESSES = Math.max(1, Number(opts.processes));
// server processes each started server runs on its port (WEB_CONCURRENCY: Node's cluster, no balancer)
const WORKERS = Math.max(1, Number(opts.workers));
const log = progressLog(opts.json);

async function main() {
  const pg = await startPostgres({
    database: 'waymark_bench_exam_day',
    settings: {
      shared_buffers: '512MB',
      work_mem: '16MB',
      max_wal_size: '4GB',
      checkpoint_timeout: '30min',
      max_connections: '300',
    },
  });
  const servers: BenchServer[] = [];
  let balancer: { stop(): Promise<void> } | null = null;
  const dataDir = join(root, '.tmp', `bench-exam-day-${process.pid}`);
  const stopAll = async () => {
    await balancer?.stop();
    for (const s of servers) await s.stop();
    await pg.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  stopOnInterrupt(stopAll);
  try {
    // the server and the baseline reach PostgreSQL as a one-machine deployment does, through its Unix
    // socket (--tcp: through loopback TCP, as to a database on another host)
    const databaseUrl = opts.tcp ? pg.url : pg.socketUrl;
    const database = await openDatabase({ databaseUrl, poolSize: 20 });
    const db = database.db;
    await seed(db, {});
    // 20 published questions of one language, of every type the bank has
    const questionIds = rowsOf<{ id: string }>(
      await db.execute(sql`
        select id from (
          select q.id, row_number() over (partition by q.question_type order by q.id) as n
          from questions q where q.status = 'PUBLISH'
            and q.language_id = (select language_id from questions where status = 'PUBLISH'
              group by language_id order by count(*) desc limit 1)
        ) t order by n, id limit 20`),
    ).map((r) => r.id);
    if (questionIds.length < 20) throw new Error('the demo bank has fewer than 20 published questions');
    const LEARNERS = TAKERS + BASELINE + SEARCH;
    log(`making a tenant and ${LEARNERS} learners with seats …`);
    const all = rowsOf<{ id: string }>(
      await db.execute(sql`
        with t as (
          insert into users (firebase_uid, email, email_verified, role, name, is_first_login, is_profile_completed)
          values ('bench-tenant', 'tenant@bench.local', true, 'TENANT', 'Exam day organisation', false, true)
          returning id),
        l as (
          insert into users (firebase_uid, email, email_verified, role, name, is_first_login, is_profile_completed)
          select 'bench-' || i, 'taker-' || i || '@bench.local', true, 'USER', 'Taker ' || i, false, true
          from generate_series(1, ${LEARNERS}) i
          returning id),
        s as (insert into tenant_users (tenant_id, learner_id) select t.id, l.id from t, l)
        select 'T' as kind, id from t union all select 'L', id from l`),
    );
    const tenantId = (await db.execute(
      sql`select id from users where email = 'tenant@bench.local'`,
    )) as unknown;
    const tid = rowsOf<{ id: string }>(tenantId)[0]!.id;
    const learnerIds = all.map((r) => r.id).filter((id) => id !== tid);
    await db.execute(sql`analyze`);

    const env = await serverEnv({
      databaseUrl,
      dataDir,
      settings: {
        ...(opts.pool ? { DATABASE_POOL_SIZE: opts.pool } : {}),
        ...(WORKERS > 1 ? { WEB_CONCURRENCY: String(WORKERS) } : {}),
      },
    });
    const config = loadConfig({ ...env, NODE_ENV: 'test' });
    const tokens = new TokenService(db, config);
    // the baseline's statements go through as many connections as the server processes have together, so
    // the ratio is HTTP's and the server's cost, not a pool size's
    const baselineDatabase = await openDatabase({
      databaseUrl,
      poolSize: config.databasePoolSize * PROCESSES * WORKERS,
    });
    const issue = async (id: string, role: 'USER' | 'TENANT') =>
      (await tokens.issue({ id, role }, 'WEB_APP')).token;
    const tenantToken = await issue(tid, 'TENANT');
    const learners: ExamTaker[] = await pool(learnerIds, 8, async (id) => ({
      id,
      token: await issue(id, 'USER'),
    }));

    mkdirSync(dataDir, { recursive: true });
    const inspectPort = opts.profile ? await freePort() : 0;
    for (let i = 0; i < PROCESSES; i++) {
      servers.push(
        await startServer(env, {
          inspectPort: i === 0 ? inspectPort : undefined,
          nodeArgs: opts['server-node-options']?.split(/\s+/).filter(Boolean),
        }),
      );
    }
    if (opts.nice !== undefined) {
      // the event loops' threads (Linux: a pid's nice value is its main thread's alone) of the servers and of
      // this process, which drives both the exam and the baseline, against PostgreSQL's backends at 0
      for (const s of servers) setPriority(s.pid, Number(opts.nice));
      setPriority(Number(opts.nice));
    }
    const ports = servers.map((server) => server.port);
    let basePort = ports[0]!;
    if (PROCESSES > 1) {
      basePort = await freePort();
      const child = spawn(
        process.execPath,
        [join(root, 'bench/support/balancer.mjs'), '--port', String(basePort), '--to', ports.join(',')],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      await new Promise<void>((done) => child.stdout!.once('data', () => done()));
      balancer = {
        stop: async () => {
          const exited = new Promise((r) => child.once('exit', r));
          child.kill('SIGTERM');
          await exited;
        },
      };
    }
    const prof = opts.profile ? await inspector(inspectPort) : null;
    const perf = opts.perf ? perfRecorder() : null;
    if (opts.perf && !perf) throw new Error('--perf needs Linux perf (Debian: apt-get install linux-perf)');
    const profileDir = join(root, '.tmp', 'bench-profiles', 'exam-day');
    const pids = servers.map((s) => s.pid);
    const profiles: Record<string, string> = {};
    const measure = async (name: string) => {
      const s0 = cpuSeconds(pids);
      const p0 = cpuSeconds([pg.pid]);
      // this process: the load generator (HTTP rows) or the baseline's own driver work (baseline rows)
      const g0 = process.cpuUsage();
      const before = loadNow();
      await prof?.start();
      if (perf) mkdirSync(profileDir, { recursive: true });
      const perfFile = join(profileDir, `${name.replace(/\W+/g, '-')}.perf.data`);
      const stopPerf = await perf?.(perfFile);
      return async (requests: number) => {
        await stopPerf?.();
        if (stopPerf) profiles[`${name} (perf)`] = perfFile.replace(`${root}/`, '');
        const s1 = cpuSeconds(pids);
        const p1 = cpuSeconds([pg.pid]);
        const g1 = process.cpuUsage(g0);
        if (prof) {
          const profile = await prof.stop();
          mkdirSync(profileDir, { recursive: true });
          const file = join(profileDir, `${name.replace(/\W+/g, '-')}.cpuprofile`);
          writeFileSync(file, JSON.stringify(profile));
          profiles[name] = file.replace(`${root}/`, '');
        }
        const per = (a: number | null, b: number | null) =>
          a === null || b === null ? null : round2(((b - a) * 1000) / Math.max(1, requests));
        return {
          serverMs: per(s0, s1),
          postgresMs: per(p0, p1),
          benchMs: round2((g1.user + g1.system) / 1000 / Math.max(1, requests)),
          load: `${before} → ${loadNow()}`,
        };
      };
    };
    const uptimeBefore = loadNow();
    // this process is the load generator: if its own event loop lags, the latencies below are partly its
    // own queue, not the server's (printed beside the machine's load)
    const generatorLoop = monitorEventLoopDelay({ resolution: 10 });
    generatorLoop.enable();
    const result = await runExamDay({
      base: `http://127.0.0.1:${basePort}/api`,
      db,
      baselineDb: baselineDatabase.db,
      tenantToken,
      takers: learners.slice(0, TAKERS),
      baselineTakers: learners.slice(TAKERS, TAKERS + BASELINE),
      search: SEARCH
        ? {
            takers: learners.slice(TAKERS + BASELINE, TAKERS + BASELINE + SEARCH),
            waveSeconds: Number(opts['search-seconds']),
            startRate: Number(opts['search-rate']),
            boundMs: 300,
            waves: Number(opts['search-waves']),
          }
        : undefined,
      questionIds,
      arrivalSeconds: Number(opts.arrival) * SCALE,
      paceMs: [Number(opts['pace-min']) * 1000 * SCALE, Number(opts['pace-max']) * 1000 * SCALE],
      refreshShare: Number(opts.refresh),
      submitters: Number(opts.submitters),
      anonymous: opts.anonymous,
      measure,
      log: (line) => log(line),
    });
    generatorLoop.disable();
    prof?.close();
    await database.close();
    await baselineDatabase.close();
    const machine = {
      cpus: `${cpus().length} × ${cpus()[0]?.model ?? '?'}`,
      memoryGiB: Math.round(totalmem() / 2 ** 30),
      node: process.version,
      load: `${uptimeBefore} → ${loadNow()}`,
      generatorLoopDelayMs: {
        p99: round2(generatorLoop.percentile(99) / 1e6),
        max: round2(generatorLoop.max / 1e6),
      },
    };
    if (opts.json) {
      console.log(
        JSON.stringify(
          {
            machine,
            takers: TAKERS,
            scale: SCALE,
            processes: PROCESSES,
            workers: WORKERS,
            profiles,
            ...result,
          },
          null,
          2,
        ),
      );
      return;
    }
    console.log(
      `\nexam day on PostgreSQL (fsync off, throwaway cluster, ${opts.tcp ? 'loopback TCP' : 'Unix socket'}): ${TAKERS} takers, 20 questions, arrival ${Number(opts.arrival) * SCALE} s, an answer every ${Number(opts['pace-min']) * SCALE}–${Number(opts['pace-max']) * SCALE} s, ${opts.anonymous ? 'no tokens' : 'a token per taker'}, ${PROCESSES} server process(es)${WORKERS > 1 ? ` of ${WORKERS} cluster workers each` : ''}, pool ${config.databasePoolSize} each${opts.nice !== undefined ? `, event loops at nice ${opts.nice}` : ''}`,
    );
    console.log(
      `machine: ${machine.cpus}, ${machine.memoryGiB} GiB, Node ${machine.node}; load ${machine.load}; the load generator's own event loop delay p99 ${machine.generatorLoopDelayMs.p99} ms, max ${machine.generatorLoopDelayMs.max} ms`,
    );
    console.log(
      `share: ${result.share.links} links in ${result.share.seconds} s (${result.share.calls} calls)\n`,
    );
    const header = [
      'phase',
      'requests',
      'req/s',
      'p50',
      'p95',
      'p99',
      'max',
      'errors',
      'shed 503 (retried)',
      'CPU ms/req srv · pg · bench',
    ];
    const rowOf = (p: PhaseResult) => {
      const cpu = p.extra?.cpu as
        | { serverMs: number | null; postgresMs: number | null; benchMs: number }
        | undefined;
      const errors = Object.values(p.errors).reduce((a, b) => a + b, 0);
      return [
        p.name,
        String(p.requests),
        String(p.perSecond),
        ...[p.ms.p50, p.ms.p95, p.ms.p99, p.ms.max].map(String),
        errors ? `${errors} ${JSON.stringify(p.errors)}` : '0',
        `${p.shed} (${p.retries})`,
        cpu ? `${cpu.serverMs ?? '?'} · ${cpu.postgresMs ?? '?'} · ${cpu.benchMs}` : '',
      ];
    };
    const table = [...result.phases, ...result.closedLoop, ...result.baseline].map(rowOf);
    const widths = header.map((h, c) => Math.max(h.length, ...table.map((t) => t[c]!.length)));
    const line = (cells: string[]) =>
      `| ${cells.map((v, c) => (c === 0 || c >= 7 ? v.padEnd(widths[c]!) : v.padStart(widths[c]!))).join(' | ')} |`;
    console.log(line(header));
    console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
    for (const t of table) console.log(line(t));
    console.log(
      '\n(CPU ms per request: the server processes · PostgreSQL · this process, which is the load generator in the HTTP rows and the driver in the baseline rows; of the exam rows: the whole arrival-and-answering mix (Ready page, start, autosave, resume))',
    );
    const phase = (prefix: string) => result.phases.find((p) => p.name.startsWith(prefix))!;
    const base = (prefix: string) => result.baseline.find((p) => p.name.startsWith(prefix));
    const start = phase('PUT /testlink/verify');
    const save = phase('PUT /testlink/{id}/answer');
    const submit = phase('POST /testlink/evaluvate');
    const baseSubmit = base('baseline: evaluate');
    const errorsOf = (p: PhaseResult) => Object.values(p.errors).reduce((a, b) => a + b, 0);
    const rows = [
      {
        target: `${TAKERS} starts within ${Number(opts.arrival) * SCALE} s, 0 errors, p99 ≤ 300 ms`,
        measured: `${start.requests} started, ${errorsOf(start)} errors, p99 ${start.ms.p99} ms`,
        pass: start.requests === TAKERS && errorsOf(start) === 0 && start.ms.p99 <= 300,
      },
      {
        target: 'autosave p99 ≤ 30 ms',
        measured: `p99 ${save.ms.p99} ms, ${errorsOf(save)} errors`,
        pass: save.ms.p99 <= 30 && errorsOf(save) === 0,
      },
      {
        target: `evaluation ≥ 1,200/s at ${opts.submitters} submitters, p99 ≤ 100 ms`,
        measured: `${submit.perSecond}/s, p99 ${submit.ms.p99} ms`,
        pass: submit.perSecond >= 1200 && submit.ms.p99 <= 100,
      },
      ...(baseSubmit
        ? [
            {
              target: 'evaluation ≥ 80 % of the SQL-only baseline',
              measured: `${Math.round((submit.perSecond / baseSubmit.perSecond) * 100)} % (${submit.perSecond} / ${baseSubmit.perSecond})`,
              pass: submit.perSecond >= 0.8 * baseSubmit.perSecond,
            },
          ]
        : []),
      {
        target: 'every score as the key says; every answer given stored; resumes complete',
        measured: `${result.checks.wrongScores} wrong of ${result.checks.scored}; ${result.checks.answersLost} lost of ${result.checks.answersGiven}; ${result.checks.resumedWrong} of ${result.checks.resumed} resumes short`,
        pass:
          result.checks.wrongScores === 0 &&
          result.checks.answersLost === 0 &&
          result.checks.resumedWrong === 0 &&
          result.checks.scored === TAKERS,
      },
    ];
    console.log('');
    const tw = Math.max(...rows.map((r) => r.target.length));
    for (const r of rows) console.log(`${r.pass ? 'PASS' : 'MISS'}  ${r.target.padEnd(tw)}  ${r.measured}`);
    if (result.search) {
      console.log('');
      for (const l of searchLines(result.search, cpus().length)) console.log(l);
    }
    if (result.checks.examples.length)
      console.log('\nexamples:', JSON.stringify(result.checks.examples, null, 2));
    for (const [name, file] of Object.entries(profiles)) console.log(`profile ${name}: ${file}`);
  } finally {
    await stopAll();
  }
}

runBench(main);
