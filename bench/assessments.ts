/**
 * Assessment benchmark on PostgreSQL, through the real HTTP server (docs/PERFORMANCE.md):
 *   1. set-up: the demo catalogue and question bank (server/db/seed.ts); N learners (at least one per link:
 *      a learner has one open attempt of a test, so each link is its own learner's), each with one of the
 *      demo roadmaps assigned (every one has at least 20 published questions, so a final ROADMAP test draws
 *      20), made with bulk SQL, and an access token each (TokenService); then, measured, the test links
 *      through the API with --setup-concurrency at a time: each created (POST /testlink/create, ROADMAP:
 *      the draw — lock, open attempt, cool-down, questions seen, 20 drawn and frozen) and then started
 *      (PUT /testlink/verify/{id}) — one per autosave taker and --links more for the evaluation; beside
 *      them the baseline: the same creation in this process (createLink on the database, no HTTP, no
 *      sign-in, candidates read once), for --baseline-links more learners;
 *   2. autosave: 200 takers (closed loop: a taker sends its next answer once the last one is saved), each
 *      saving answers (PUT /testlink/{id}/answer: an option id, a list of ids, a typed value) across the
 *      20 questions of its test, over and over, for --seconds:
 *        (a) at a taker's pace: a pause of --think ms (±50 %) between answers — the target applies here;
 *            a person needs far longer than a second a question, so this is already 10–60 times faster;
 *        (b) flat out: no pause, every taker always waiting on the server — the capacity, no target;
 *   3. evaluation: 50 takers (closed loop, no pause), each submitting 20 answers (POST
 *      /testlink/evaluvate/v2) for a fresh, started link, until the links run out or --seconds pass. Each
 *      answer was planned right, wrong or (multi-select) partly right against the answer key read from the
 *      database, so every result's score, percentage, status and eligibility is checked; a sample of links
 *      is then read back from the database (stored score, points of every answer).
 *
 *   npx tsx bench/assessments.ts [--learners 2000] [--links 8000] [--takers 200] [--think 1000]
 *                                [--baseline-links 1000]
 *                                [--evaluators 50] [--seconds 20] [--setup-concurrency 8] [--pool N]
 *                                [--only autosave|evaluation]
 *                                [--anonymous] [--seats] [--statements] [--profile] [--durable] [--json]
 *
 * Targets: evaluation ≥ 500 submissions/s with p99 ≤ 150 ms at 50 takers; autosave p99 ≤ 30 ms at 200
 * takers. --seats makes every learner a seat of one tenant, so that each evaluation also writes its events
 * (assessment.evaluated, award.issued when earned: decision 039) in its statement, and counts them at the end.
 * --anonymous sends no access token (a link id alone opens a test); by default each taker sends
 * its own, as the portal does for a signed-in learner. --pool sets the server's DATABASE_POOL_SIZE
 * (default: the server's default, 10). --statements loads pg_stat_statements into the throwaway cluster
 * and prints, per phase, the statements run per request and their mean time. --profile writes a V8 CPU
 * profile of the server for each phase (through its inspector) to .tmp/bench-profiles/assessments/
 * and prints where its time went.
 *
 * It starts a throwaway cluster with scripts/pg.mjs (fsync off unless --durable) and the server
 * (server/main.ts, NODE_ENV=production) on a free port, and measures from this process with undici, so
 * load and server never share an event loop. Besides latency it reports the CPU time the server, the
 * PostgreSQL processes and this process spent per request (from /proc), which other work on the machine
 * disturbs less than latency. Prints the machine and its load averages before and after each phase.
 * BENCH_DATABASE_URL uses an existing empty database instead of a throwaway cluster (no PostgreSQL CPU
 * figures then). Figures go to stdout; docs/PERFORMANCE.md quotes them.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { attemptHeaders, newAttemptToken } from '@shared/rules/attempt-token';
import { sql } from 'drizzle-orm';
import { Agent, request } from 'undici';
import { TokenService } from '../server/auth/tokens';
import { loadConfig } from '../server/config';
import { openDatabase } from '../server/db/client';
import { rowsOf } from '../server/db/helpers';
import { seed } from '../server/db/seed';
import {
  answerFor,
  type Expected,
  expectedOf,
  type KeyQuestion,
  keyOf,
  random,
  type TakerQuestion,
} from './support/answers';
import { cpuSeconds } from './support/cpu';
import {
  helpOnRequest,
  latency,
  loadNow,
  progressLog,
  round1,
  round2,
  runBench,
  sleep,
} from './support/figures';
import { inspector } from './support/inspector';
import { makeLearners, roadmapsWithQuestions } from './support/learners';
import { pool } from './support/pool';
import { topOfProfile } from './support/profile-top.mjs';
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
    learners: { type: 'string', default: '2000' },
    'baseline-links': { type: 'string', default: '1000' },
    links: { type: 'string', default: '8000' },
    takers: { type: 'string', default: '200' },
    think: { type: 'string', default: '1000' },
    evaluators: { type: 'string', default: '50' },
    seconds: { type: 'string', default: '20' },
    warmup: { type: 'string', default: '3' },
    'setup-concurrency': { type: 'string', default: '8' },
    only: { type: 'string' },
    pool: { type: 'string' },
    anonymous: { type: 'boolean', default: false },
    seats: { type: 'boolean', default: false },
    statements: { type: 'boolean', default: false },
    profile: { type: 'boolean', default: false },
    durable: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});
helpOnRequest(opts.help, import.meta.url);
const EVAL_LINKS = opts.only === 'autosave' ? 0 : Number(opts.links);
const TAKERS = Number(opts.takers);
const BASELINE_LINKS = Number(opts['baseline-links']);
/** One learner per link at least: a learner's second link to the same test would be the first, still open. */
const LEARNERS = Math.max(Number(opts.learners), EVAL_LINKS + TAKERS + BASELINE_LINKS);
const THINK_MS = Number(opts.think);
const EVALUATORS = Number(opts.evaluators);
const SECONDS = Number(opts.seconds);
const WARMUP = Number(opts.warmup);
const SETUP_CONCURRENCY = Number(opts['setup-concurrency']);
const RUN_AUTOSAVE = opts.only !== 'evaluation';
const RUN_EVALUATION = opts.only !== 'autosave';
if (opts.only && RUN_AUTOSAVE && RUN_EVALUATION) {
  console.error('--only takes autosave or evaluation');
  process.exit(2);
}
/** Links evaluated before the measured run (connections, plans, the server's JIT); not counted. */
const EVAL_WARMUP_LINKS = Math.min(300, Math.round(EVAL_LINKS * 0.05));
const TARGETS = { evalPerSecond: 500, evalP99: 150, autosaveP99: 30 };

const log = progressLog(opts.json);

// ---------------------------------------------------------------- small tools

const rand = random(4);

// ---------------------------------------------------------------- the answer key and planned answers

type Plan = 'right' | 'wrong' | 'partial';

/** One answer as a taker gives it to `plan`, and the points it must earn (decision 005). */
const answerAs = (q: TakerQuestion, key: KeyQuestion, plan: Plan) =>
  answerFor(q, key, plan === 'right', () => plan === 'partial', rand);

interface Submission {
  linkId: string;
  body: string;
  expected: Expected;
}

/** A whole test's answers: between 6 and 20 right (about half the takers earn the certificate). */
function submissionFor(
  linkId: string,
  questions: TakerQuestion[],
  keys: Map<string, KeyQuestion>,
): Submission {
  const rightCount = 6 + Math.floor(rand() * (questions.length - 5));
  const order = questions.map((_, i) => i).sort(() => rand() - 0.5);
  const right = new Set(order.slice(0, rightCount));
  let points = 0;
  const answers = questions.map((q, i) => {
    const a = answerAs(q, keys.get(q._id)!, right.has(i) ? 'right' : rand() < 0.5 ? 'partial' : 'wrong');
    points += a.points;
    return a.given;
  });
  return {
    linkId,
    body: JSON.stringify({ linkId, answers }),
    expected: expectedOf(points, questions.length),
  };
}

// ---------------------------------------------------------------- main

interface Phase {
  name: string;
  clients: number;
  seconds: number;
  requests: number;
  perSecond: number;
  errors: number;
  errorCodes: Record<string, number>;
  ms: { p50: number; p95: number; p99: number; max: number };
  cpuMsPerRequest: { server: number | null; postgres: number | null; bench: number };
  load: { before: string; after: string };
  statements?: { calls: number; perRequest: number; meanMs: number; query: string }[];
  profile?: { file: string } & ReturnType<typeof topOfProfile>;
}

async function main() {
  const started = performance.now();
  let stopPg: (() => Promise<void>) | null = null;
  let pgPid: number | null = null;
  let url = process.env.BENCH_DATABASE_URL;
  const statements = opts.statements && !url;
  if (!url) {
    const pg = await startPostgres({
      database: 'waymark_bench_assessments',
      settings: {
        shared_buffers: '512MB',
        work_mem: '16MB',
        max_wal_size: '4GB',
        checkpoint_timeout: '30min',
        ...(statements
          ? { shared_preload_libraries: 'pg_stat_statements', 'pg_stat_statements.track': 'all' }
          : {}),
        ...(opts.durable ? { fsync: 'on', synchronous_commit: 'on', full_page_writes: 'on' } : {}),
      },
    });
    url = pg.url;
    pgPid = pg.pid;
    stopPg = () => pg.stop();
  }
  let server: BenchServer | null = null;
  const dataDir = join(root, '.tmp', `bench-assessments-${process.pid}`);
  const profileDir = join(root, '.tmp', 'bench-profiles', 'assessments');
  const stopAll = async () => {
    await server?.stop();
    await stopPg?.();
    rmSync(dataDir, { recursive: true, force: true });
  };
  stopOnInterrupt(stopAll);

  try {
    // ---- 1. data: the demo bank, learners with a roadmap each, tokens
    const t0 = performance.now();
    const database = await openDatabase({ databaseUrl: url, poolSize: 8 });
    const db = database.db;
    const exec = (q: ReturnType<typeof sql>) => db.execute(q);
    if (statements) await exec(sql`create extension if not exists pg_stat_statements`);
    await seed(db, {});
    const roadmapRows = await roadmapsWithQuestions(db);
    if (roadmapRows.length === 0) throw new Error('no demo roadmap has 20 published questions');
    log(
      `demo bank: ${roadmapRows.length} roadmaps with ≥ 20 questions (${roadmapRows.map((r) => r.questions).join(', ')})`,
    );
    log(`making ${LEARNERS} learners, each with a demo roadmap assigned …`);
    const learners = await makeLearners(
      db,
      LEARNERS,
      roadmapRows.map((r) => r.id),
    );
    const keys = await keyOf(db);
    if (opts.seats) {
      // every learner a seat of one tenant: each evaluation then writes its events (decision 039)
      const [tenant] = rowsOf<{ id: string }>(
        await exec(sql`
          insert into users (firebase_uid, email, email_verified, role, name, is_first_login, is_profile_completed)
          values ('bench-tenant', 'tenant@bench.local', true, 'TENANT', 'Bench tenant', false, true)
          returning id`),
      );
      await exec(sql`
        insert into tenant_users (tenant_id, learner_id)
        select ${tenant!.id}::uuid, id from users where role = 'USER' and email like 'taker-%@bench.local'`);
      await exec(sql`analyze tenant_users`);
    }

    const env = await serverEnv({
      databaseUrl: url,
      dataDir,
      settings: opts.pool ? { DATABASE_POOL_SIZE: opts.pool } : {},
    });
    const tokens = new TokenService(db, loadConfig({ ...env, NODE_ENV: 'test' }));
    const tokenOf = await pool(
      learners,
      8,
      async (l) => (await tokens.issue({ id: l.id, role: 'USER' }, 'WEB_APP')).token,
    );
    const dataSeconds = (performance.now() - t0) / 1000;
    log(`  done in ${dataSeconds.toFixed(1)} s`);

    // ---- the server
    if (opts.profile) {
      rmSync(profileDir, { recursive: true, force: true });
      mkdirSync(profileDir, { recursive: true });
    }
    const inspectPort = opts.profile ? await freePort() : 0;
    server = await startServer(env, { inspectPort });
    const base = `${server.url}/api`;
    const serverPid = server.pid;
    const profiler = opts.profile ? await inspector(inspectPort) : null;

    // ---- the links, through the API
    const setupAgent = new Agent({ connections: SETUP_CONCURRENCY, keepAliveTimeout: 30_000 });
    // the learner's token (unless anonymous) and the attempt's, which every write of the attempt carries
    const taken = (l: Link) => ({
      ...(opts.anonymous ? {} : { authorization: `Bearer ${l.token}` }),
      ...attemptHeaders(l.attempt),
    });

    // ---- measuring
    async function statementsSnapshot(requests: number) {
      if (!statements) return undefined;
      const rows = rowsOf<{ query: string; calls: string; mean: number }>(
        await exec(sql`
          select regexp_replace(query, '\\s+', ' ', 'g') as query, calls, mean_exec_time as mean
          from pg_stat_statements
          where dbid = (select oid from pg_database where datname = current_database())
            and query not like '%pg_stat_statements%'
          order by calls desc limit 20`),
      );
      return rows.map((r) => ({
        calls: Number(r.calls),
        perRequest: round2(Number(r.calls) / Math.max(1, requests)),
        meanMs: round2(r.mean),
        query: r.query.length > 160 ? `${r.query.slice(0, 157)}…` : r.query,
      }));
    }
    async function phase(
      name: string,
      clients: number,
      run: (record: (ms: number, status: number) => void) => Promise<void>,
    ): Promise<Phase> {
      if (statements) await exec(sql`select pg_stat_statements_reset()`);
      const loadBefore = loadNow();
      const lat: number[] = [];
      const errorCodes: Record<string, number> = {};
      const record = (ms: number, status: number) => {
        if (status === 200) lat.push(ms);
        else errorCodes[String(status)] = (errorCodes[String(status)] ?? 0) + 1;
      };
      const cpu0 = {
        server: cpuSeconds([serverPid]),
        pg: pgPid ? cpuSeconds([pgPid]) : null,
        bench: process.cpuUsage(),
      };
      await profiler?.start();
      const s0 = performance.now();
      await run(record);
      const elapsed = (performance.now() - s0) / 1000;
      const cpuProfile = await profiler?.stop();
      const serverCpu = cpuSeconds([serverPid]);
      const pgCpu = pgPid ? cpuSeconds([pgPid]) : null;
      const benchCpu = process.cpuUsage(cpu0.bench);
      const errors = Object.values(errorCodes).reduce((a, b) => a + b, 0);
      const requests = lat.length + errors;
      const per = (s: number | null, s0: number | null) =>
        s === null || s0 === null ? null : round2(((s - s0) * 1000) / Math.max(1, requests));
      const result: Phase = {
        name,
        clients,
        seconds: round1(elapsed),
        requests,
        perSecond: Math.round(lat.length / elapsed),
        errors,
        errorCodes,
        ms: latency(lat),
        cpuMsPerRequest: {
          server: per(serverCpu, cpu0.server),
          postgres: per(pgCpu, cpu0.pg),
          bench: round2((benchCpu.user + benchCpu.system) / 1000 / Math.max(1, requests)),
        },
        load: { before: loadBefore, after: loadNow() },
        statements: await statementsSnapshot(requests),
      };
      if (cpuProfile) {
        const file = join(
          profileDir,
          `${name.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '')}.cpuprofile`,
        );
        writeFileSync(file, JSON.stringify(cpuProfile));
        result.profile = { file: file.replace(`${root}/`, ''), ...topOfProfile(cpuProfile) };
      }
      log(
        `  ${result.perSecond}/s, p50 ${result.ms.p50} ms, p95 ${result.ms.p95} ms, p99 ${result.ms.p99} ms, max ${result.ms.max} ms, errors ${errors}; CPU ms per request: server ${result.cpuMsPerRequest.server}, PostgreSQL ${result.cpuMsPerRequest.postgres}, bench ${result.cpuMsPerRequest.bench}; load ${result.load.after}`,
      );
      return result;
    }

    interface Link {
      linkId: string;
      token: string;
      /** The attempt token the start bound the attempt to (decision 031). */
      attempt: string;
      questions: TakerQuestion[];
    }
    /** A call's status and body, whatever the status. */
    async function send<T>(
      method: 'POST' | 'PUT',
      path: string,
      token: string,
      body?: unknown,
      headers: Record<string, string> = {},
    ) {
      const res = await request(`${base}${path}`, {
        method,
        headers: {
          ...headers,
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        dispatcher: setupAgent,
      });
      return { status: res.statusCode, json: (await res.body.json()) as T };
    }
    const totalLinks = EVAL_LINKS + TAKERS;
    // the evaluation's links first, the autosave takers' last (their clocks have the most time left)
    const linkIds: string[] = new Array(totalLinks);
    log(`creating ${totalLinks} test links through the API (${SETUP_CONCURRENCY} at a time) …`);
    const t1 = performance.now();
    let made = 0;
    const progress = setInterval(() => log(`  ${made} / ${totalLinks}`), 10_000);
    /** Each link's call, SETUP_CONCURRENCY at a time, timed; any status but 200 stops the bench. */
    const eachLink = <T>(
      record: (ms: number, status: number) => void,
      what: string,
      call: (i: number) => Promise<{ status: number; json: T }>,
      done: (i: number, json: T) => void,
    ): Promise<void> =>
      pool(
        Array.from({ length: totalLinks }, (_, i) => i),
        SETUP_CONCURRENCY,
        async (i) => {
          const t0 = performance.now();
          const { status, json } = await call(i);
          record(performance.now() - t0, status);
          if (status !== 200) throw new Error(`${what}: ${status} ${JSON.stringify(json)}`);
          done(i, json);
        },
      ).then(() => undefined);
    const createPhase = await phase(
      `POST /testlink/create (ROADMAP, 20 drawn), ${SETUP_CONCURRENCY} at a time`,
      SETUP_CONCURRENCY,
      (record) =>
        eachLink(
          record,
          'POST /testlink/create',
          (i) =>
            send<{ data: { testLinkId: string } }>('POST', '/testlink/create', tokenOf[i]!, {
              type: 'ROADMAP',
              assignedRoadmapId: learners[i]!.assigned_id,
            }),
          (i, json) => {
            linkIds[i] = json.data.testLinkId;
            made++;
          },
        ),
    );
    log(`starting them (${SETUP_CONCURRENCY} at a time) …`);
    const startedLinks: Link[] = new Array(totalLinks);
    const attemptOf = Array.from({ length: totalLinks }, () => newAttemptToken());
    const startPhase = await phase(
      `PUT /testlink/verify/{id} (start), ${SETUP_CONCURRENCY} at a time`,
      SETUP_CONCURRENCY,
      (record) =>
        eachLink(
          record,
          'PUT /testlink/verify',
          (i) =>
            send<{ data: { questions: { questions: TakerQuestion[] } } }>(
              'PUT',
              `/testlink/verify/${linkIds[i]}`,
              tokenOf[i]!,
              undefined,
              attemptHeaders(attemptOf[i]),
            ),
          (i, json) => {
            startedLinks[i] = {
              linkId: linkIds[i]!,
              token: tokenOf[i]!,
              attempt: attemptOf[i]!,
              questions: json.data.questions.questions,
            };
          },
        ),
    );
    clearInterval(progress);
    await setupAgent.close();
    const evalLinks = startedLinks.slice(0, EVAL_LINKS);
    const takerLinks = startedLinks.slice(EVAL_LINKS);
    const linkSeconds = (performance.now() - t1) / 1000;
    const questionCounts = [...new Set(startedLinks.map((l) => l.questions.length))];
    log(
      `  ${totalLinks} links in ${linkSeconds.toFixed(1)} s (${Math.round(totalLinks / linkSeconds)}/s); questions per link: ${questionCounts.join(', ')}`,
    );

    // the baseline: the same creation without HTTP, in this process, for learners of their own
    let baselinePhase: Phase | null = null;
    if (BASELINE_LINKS > 0) {
      const linksModule = `${'../server/assessments/links'}`;
      const { createLink } = (await import(linksModule)) as {
        createLink: (db: unknown, spec: Record<string, unknown>, now: Date) => Promise<{ linkId: string }>;
      };
      const roadmapOf = rowsOf<{ assigned_id: string; roadmap_id: string; subject_id: string; name: string }>(
        await exec(sql`
          select ar.id as assigned_id, r.id as roadmap_id, r.subject_id, r.name
          from assigned_roadmaps ar join roadmaps r on r.id = ar.roadmap_id
          where ar.id in ${learners.slice(totalLinks).map((l) => l.assigned_id)}`),
      );
      const byAssigned = new Map(roadmapOf.map((r) => [r.assigned_id, r]));
      const candidatesOf = new Map<string, string[]>();
      for (const r of roadmapRows) {
        candidatesOf.set(
          r.id,
          rowsOf<{ id: string }>(
            await exec(sql`
              select distinct q.id from questions q join question_targets t on t.question_id = q.id
              where q.status = 'PUBLISH' and (
                (t.kind = 'ROADMAP' and t.target_id = ${r.id})
                or (t.kind = 'SECTION' and t.target_id in (select id from sections where roadmap_id = ${r.id}))
                or (t.kind = 'RESOURCE' and t.target_id in (
                  select sr.resource_id from section_resources sr join sections s on s.id = sr.section_id
                  where s.roadmap_id = ${r.id})))`),
          ).map((x) => x.id),
        );
      }
      log(`baseline: ${BASELINE_LINKS} links created in this process (${SETUP_CONCURRENCY} at a time) …`);
      baselinePhase = await phase(
        `baseline: the same creation in-process (createLink, no HTTP), ${SETUP_CONCURRENCY} at a time`,
        SETUP_CONCURRENCY,
        async (record) => {
          await pool(
            Array.from({ length: BASELINE_LINKS }, (_, i) => totalLinks + i),
            SETUP_CONCURRENCY,
            async (i) => {
              const l = learners[i]!;
              const r = byAssigned.get(l.assigned_id)!;
              const t0 = performance.now();
              let status = 200;
              try {
                await createLink(
                  db,
                  {
                    type: 'ROADMAP',
                    userId: l.id,
                    candidates: candidatesOf.get(r.roadmap_id)!,
                    field: 'assignedRoadmapId',
                    subjectId: r.subject_id,
                    roadmapId: r.roadmap_id,
                    assignedRoadmapId: l.assigned_id,
                    names: { assignedRoadMapName: r.name },
                  },
                  new Date(),
                );
              } catch {
                status = 500;
              }
              record(performance.now() - t0, status);
            },
          );
        },
      );
    }

    // ---- 2. autosave
    /** Each taker's answers, ready to send: three ways of answering each of its questions. */
    const saves = takerLinks.map((l) =>
      l.questions.flatMap((q) =>
        (['right', 'wrong', 'partial'] as const).map((plan) => {
          const { given } = answerAs(q, keys.get(q._id)!, plan);
          const { questionId, ...rest } = given;
          return {
            path: `${base}/testlink/${l.linkId}/answer`,
            body: JSON.stringify({ questionId, ...rest }),
          };
        }),
      ),
    );
    const saveAgent = new Agent({ connections: TAKERS, keepAliveTimeout: 30_000 });
    function autosave(seconds: number, thinkMs: number) {
      return async (record: (ms: number, status: number) => void) => {
        const until = performance.now() + seconds * 1000;
        await Promise.all(
          takerLinks.map(async (link, t) => {
            const mine = saves[t]!;
            let k = Math.floor(rand() * mine.length);
            // takers do not start in step
            if (thinkMs > 0) await sleep(rand() * thinkMs);
            while (performance.now() < until) {
              const s = mine[k++ % mine.length]!;
              const t0 = performance.now();
              let status = 0;
              try {
                const res = await request(s.path, {
                  method: 'PUT',
                  headers: { ...taken(link), 'content-type': 'application/json' },
                  body: s.body,
                  dispatcher: saveAgent,
                });
                await res.body.dump();
                status = res.statusCode;
              } catch {
                status = 0;
              }
              record(performance.now() - t0, status);
              if (thinkMs > 0) await sleep(thinkMs * (0.5 + rand()));
            }
          }),
        );
      };
    }
    let savePaced: Phase | null = null;
    let saveFlat: Phase | null = null;
    if (RUN_AUTOSAVE) {
      log(`autosave: warm-up ${WARMUP} s …`);
      await autosave(WARMUP, 0)(() => {});
      log(`autosave: ${TAKERS} takers, an answer every ${THINK_MS} ms (±50 %) each, for ${SECONDS} s …`);
      savePaced = await phase(
        `PUT /testlink/{id}/answer, ${TAKERS} takers, ${THINK_MS} ms between answers`,
        TAKERS,
        autosave(SECONDS, THINK_MS),
      );
      log(`autosave: ${TAKERS} takers flat out (no pause) for ${Math.min(SECONDS, 15)} s …`);
      saveFlat = await phase(
        `PUT /testlink/{id}/answer, ${TAKERS} takers flat out`,
        TAKERS,
        autosave(Math.min(SECONDS, 15), 0),
      );
    }
    await saveAgent.close();

    // ---- 3. evaluation
    const submissions = evalLinks.map((l) => ({ ...submissionFor(l.linkId, l.questions, keys), link: l }));
    const evalAgent = new Agent({ connections: EVALUATORS, keepAliveTimeout: 30_000 });
    const wrongResults: { linkId: string; got: unknown; expected: unknown }[] = [];
    let checked = 0;
    function evaluate(list: typeof submissions, seconds: number) {
      return async (record: (ms: number, status: number) => void) => {
        let next = 0;
        const until = performance.now() + seconds * 1000;
        await Promise.all(
          Array.from({ length: EVALUATORS }, async () => {
            while (next < list.length && performance.now() < until) {
              const s = list[next++]!;
              const t0 = performance.now();
              let status = 0;
              let json: { data?: Record<string, unknown> } = {};
              try {
                const res = await request(`${base}/testlink/evaluvate/v2`, {
                  method: 'POST',
                  headers: { ...taken(s.link), 'content-type': 'application/json' },
                  body: s.body,
                  dispatcher: evalAgent,
                });
                json = (await res.body.json()) as typeof json;
                status = res.statusCode;
              } catch {
                status = 0;
              }
              record(performance.now() - t0, status);
              if (status === 200) {
                checked++;
                const d = json.data ?? {};
                const got = {
                  score: d.score,
                  percentage: d.percentage,
                  eligible: d.certificateEligible,
                  status: d.status,
                  questionCount: d.questionCount,
                };
                if (JSON.stringify(got) !== JSON.stringify(s.expected) || d.linkId !== s.linkId) {
                  wrongResults.push({ linkId: s.linkId, got, expected: s.expected });
                }
              }
            }
          }),
        );
      };
    }
    let evaluation: Phase | null = null;
    const measured = submissions.slice(EVAL_WARMUP_LINKS);
    if (RUN_EVALUATION) {
      log(`evaluation: warm-up with ${EVAL_WARMUP_LINKS} links …`);
      await evaluate(submissions.slice(0, EVAL_WARMUP_LINKS), 60)(() => {});
      log(
        `evaluation: ${EVALUATORS} takers submitting 20 answers each, ${measured.length} fresh links, at most ${SECONDS} s …`,
      );
      evaluation = await phase(
        `POST /testlink/evaluvate/v2 (20 answers), ${EVALUATORS} takers`,
        EVALUATORS,
        evaluate(measured, SECONDS),
      );
    }
    await evalAgent.close();

    // a sample read back from the database: the stored result and the points of every answer
    const sample = measured
      .slice(0, evaluation?.requests ?? 0)
      .filter((_, i) => i % 37 === 0)
      .slice(0, 200);
    const stored = rowsOf<{
      link_id: string;
      score: string;
      percentage: string;
      status: string;
      points: string;
      answers: number;
    }>(
      await exec(sql`
        select l.link_id, l.score, l.percentage, l.status, sum(a.points) as points,
               count(a.points)::int as answers
        from test_links l join test_answers a on a.test_link_id = l.id
        where l.link_id in ${sample.length ? sample.map((s) => s.linkId) : ['-']}
        group by l.id`),
    );
    const storedWrong = sample.filter((s) => {
      const row = stored.find((r) => r.link_id === s.linkId);
      return (
        !row ||
        Number(row.score) !== s.expected.score ||
        Number(row.percentage) !== s.expected.percentage ||
        round2(Number(row.points)) !== s.expected.score ||
        row.answers !== s.expected.questionCount ||
        row.status !== s.expected.status
      );
    });
    // with --seats: the events the evaluations wrote, by type (one assessment.evaluated each, and award.issued
    // for each that earned its certificate)
    const eventCounts = opts.seats
      ? Object.fromEntries(
          rowsOf<{ type: string; n: number }>(
            await exec(sql`select type, count(*)::int as n from events group by type order by type`),
          ).map((r) => [r.type, r.n]),
        )
      : null;
    if (eventCounts) log(`events written: ${JSON.stringify(eventCounts)}`);
    await database.close();

    const machine = {
      cpus: `${cpus().length} × ${cpus()[0]?.model ?? '?'}`,
      memoryGiB: Math.round(totalmem() / 2 ** 30),
      node: process.version,
      load: loadNow(),
    };
    profiler?.close();

    const checks = {
      results: { checked, wrong: wrongResults.length, examples: wrongResults.slice(0, 3) },
      database: { sampled: sample.length, wrong: storedWrong.length },
    };
    const rows = [
      ...(evaluation
        ? [
            {
              target: `evaluation ≥ ${TARGETS.evalPerSecond} submissions/s at ${EVALUATORS} takers`,
              measured: `${evaluation.perSecond}/s`,
              pass: evaluation.perSecond >= TARGETS.evalPerSecond && evaluation.errors === 0,
            },
            {
              target: `evaluation p99 ≤ ${TARGETS.evalP99} ms`,
              measured: `${evaluation.ms.p99} ms`,
              pass: evaluation.ms.p99 <= TARGETS.evalP99,
            },
          ]
        : []),
      ...(savePaced
        ? [
            {
              target: `autosave p99 ≤ ${TARGETS.autosaveP99} ms at ${TAKERS} takers (an answer every ${THINK_MS} ms each)`,
              measured: `${savePaced.ms.p99} ms`,
              pass: savePaced.ms.p99 <= TARGETS.autosaveP99 && savePaced.errors === 0,
            },
          ]
        : []),
      ...(evaluation
        ? [
            {
              target: 'every evaluation scored as planned (and the database sample)',
              measured: `${checks.results.wrong} of ${checked} wrong, ${checks.database.wrong} of ${checks.database.sampled}`,
              pass: checks.results.wrong === 0 && checks.database.wrong === 0 && checked > 0,
            },
          ]
        : []),
    ];
    const result = {
      machine,
      postgres: opts.durable
        ? 'fsync on, synchronous_commit on'
        : 'fsync off, synchronous_commit off (throwaway cluster)',
      setup: {
        learners: LEARNERS,
        links: totalLinks,
        questionsPerLink: questionCounts,
        tokens: !opts.anonymous,
        serverPool: opts.pool ? Number(opts.pool) : 10,
        dataSeconds: round1(dataSeconds),
        linkSeconds: round1(linkSeconds),
        linksPerSecond: Math.round(totalLinks / linkSeconds),
      },
      phases: [createPhase, startPhase, baselinePhase, savePaced, saveFlat, evaluation].filter(
        (p): p is Phase => p !== null,
      ),
      checks,
      targets: rows,
      totalSeconds: Math.round((performance.now() - started) / 1000),
    };
    if (opts.json) {
      console.log(JSON.stringify(result, null, 2));
      return;
    }
    console.log(
      `\nassessments on PostgreSQL (${result.postgres}); ${LEARNERS} learners, ${totalLinks} links of ${questionCounts.join('/')} questions, ${opts.anonymous ? 'no tokens' : 'a token per taker'}, server pool ${result.setup.serverPool}`,
    );
    console.log(`machine: ${machine.cpus}, ${machine.memoryGiB} GiB, Node ${machine.node}`);
    console.log(
      `set-up: data ${result.setup.dataSeconds} s, links ${result.setup.linkSeconds} s (${result.setup.linksPerSecond} created and started per second)\n`,
    );
    const header = [
      'phase',
      'req/s',
      'p50',
      'p95',
      'p99',
      'max',
      'errors',
      'CPU ms/req srv·pg·bench',
      'load before → after',
    ];
    const table = result.phases.map((p) => [
      p.name,
      String(p.perSecond),
      ...[p.ms.p50, p.ms.p95, p.ms.p99, p.ms.max].map(String),
      p.errors ? `${p.errors} ${JSON.stringify(p.errorCodes)}` : '0',
      `${p.cpuMsPerRequest.server ?? '?'} · ${p.cpuMsPerRequest.postgres ?? '?'} · ${p.cpuMsPerRequest.bench}`,
      `${p.load.before} → ${p.load.after}`,
    ]);
    const widths = header.map((h, c) => Math.max(h.length, ...table.map((t) => t[c]!.length)));
    const line = (cells: string[]) =>
      `| ${cells.map((v, c) => (c === 0 || c >= 7 ? v.padEnd(widths[c]!) : v.padStart(widths[c]!))).join(' | ')} |`;
    console.log(line(header));
    console.log(
      `|${widths.map((w, c) => (c === 0 || c >= 7 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`,
    );
    for (const t of table) console.log(line(t));
    console.log(
      saveFlat ? '\n(latencies in ms; the flat-out autosave row is the capacity, without a target)\n' : '',
    );
    const tw = Math.max(...rows.map((r) => r.target.length));
    for (const r of rows) console.log(`${r.pass ? 'PASS' : 'MISS'}  ${r.target.padEnd(tw)}  ${r.measured}`);
    if (wrongResults.length)
      console.log('\nwrong results, e.g.:', JSON.stringify(wrongResults.slice(0, 3), null, 2));
    if (statements) {
      for (const p of result.phases) {
        console.log(`\nstatements per request, ${p.name}:`);
        for (const s of p.statements ?? []) {
          console.log(
            `  ${String(s.perRequest).padStart(6)}  ${String(s.meanMs).padStart(6)} ms  ${s.query}`,
          );
        }
      }
    }
    for (const p of result.phases) {
      if (!p.profile) continue;
      console.log(`\nwhere the server spent its CPU, ${p.name} (self time; ${p.profile.file}), by package:`);
      for (const t of p.profile.packages) console.log(`  ${t.share.padStart(6)}  ${t.name}`);
      console.log('by function:');
      for (const t of p.profile.functions) console.log(`  ${t.share.padStart(6)}  ${t.name}`);
    }
  } finally {
    await stopAll();
  }
}

runBench(main);
