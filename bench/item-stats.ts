/**
 * Item analysis benchmark on PostgreSQL, through the real HTTP server (issue 30, decision 037):
 *   1. set-up (bulk SQL): a mentor's assessment of --questions single-choice questions (four options each)
 *      taken --attempts times (one learner each; a taker of ability θ answers a question of difficulty d
 *      right with probability 1 / (1 + e^(d − θ)), a wrong taker picks among the three wrong options, one of
 *      them rarely), evaluated over the last 60 days; and the bank: --bank more questions in assessments of
 *      --questions each, every assessment taken --bank-attempts times;
 *   2. the fold: the job (server/analysis/fold.ts foldJob) adds every attempt into the aggregates, once — its
 *      rate in attempts per second;
 *   3. reads, measured one after another through the server: the assessment's statistics
 *      (GET /tenant/assessment/{id}/stats, --reads times) and the question bank's column
 *      (GET /tenant/question/stats, --bank-reads times), beside the baseline in the same run: the same
 *      figures recomputed from the raw tables (test_links, test_link_questions, test_answers) by planned
 *      queries — sums, score buckets, days, times, totals — in this process (--baseline-reads times), whose
 *      figures are checked equal to the server's.
 *
 *   npx tsx bench/item-stats.ts [--attempts 100000] [--questions 20] [--bank 1000] [--bank-attempts 200]
 *                               [--reads 30] [--bank-reads 10] [--baseline-reads 3] [--json]
 *
 * Targets: the assessment's statistics p95 ≤ 500 ms with 100,000 attempts of 20 questions; the bank's column
 * of 1,000 questions p95 ≤ 1 s. It starts a throwaway cluster with scripts/pg.mjs and the server
 * (server/main.ts, NODE_ENV=production) on a free port, and prints the machine's load averages before and
 * after each phase: the machine may be shared. BENCH_DATABASE_URL uses an existing empty database instead.
 */
import { rmSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { itemAggregates, questionFacts, questionRows, testSummary } from '../server/analysis/figures';
import { foldJob } from '../server/analysis/fold';
import { TokenService } from '../server/auth/tokens';
import { loadConfig } from '../server/config';
import { openDatabase } from '../server/db/client';
import { rowsOf } from '../server/db/helpers';
import * as schema from '../server/db/schema';
import { type BucketCount, type DaySums, emptySums, type ItemSums } from '../shared/rules/item-sums';
import { helpOnRequest, latency, loadNow, progressLog, round1, runBench } from './support/figures';
import { type BenchServer, serverEnv, startPostgres, startServer, stopOnInterrupt } from './support/server';

const { values: opts } = parseArgs({
  options: {
    attempts: { type: 'string', default: '100000' },
    questions: { type: 'string', default: '20' },
    bank: { type: 'string', default: '1000' },
    'bank-attempts': { type: 'string', default: '200' },
    reads: { type: 'string', default: '30' },
    'bank-reads': { type: 'string', default: '10' },
    'baseline-reads': { type: 'string', default: '3' },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});
helpOnRequest(opts.help, import.meta.url);
const ATTEMPTS = Number(opts.attempts);
const QUESTIONS = Number(opts.questions);
const BANK = Number(opts.bank);
const BANK_ATTEMPTS = Number(opts['bank-attempts']);
const log = progressLog(opts.json);
const root = resolve(fileURLToPath(new URL('..', import.meta.url)));

type Db = Awaited<ReturnType<typeof openDatabase>>['db'];

/** Questions of the mentor's, four options each (the first correct), and an assessment holding them. */
async function makeAssessment(
  db: Db,
  tenant: string,
  topic: { subject: string; topic: string; language: string },
  n: number,
  name: string,
) {
  const [a] = rowsOf<{ id: string }>(
    await db.execute(
      sql`insert into tenant_assessments (tenant_id, name) values (${tenant}::uuid, ${name}) returning id`,
    ),
  );
  const qs = rowsOf<{ id: string; i: number }>(
    await db.execute(sql`
      insert into questions (question, question_type, subject_id, topic_id, language_id, status, created_by, tags, explanation)
      select ${name} || ': question ' || g, 'MCQ', ${topic.subject}::uuid, ${topic.topic}::uuid, ${topic.language}::uuid,
        'PUBLISH', ${tenant}::uuid, '{bench}', '[{"type":"TEXT","value":"Because."}]'::jsonb
      from generate_series(1, ${n}::int) g
      returning id, (regexp_replace(question, '.* ', ''))::int as i`),
  );
  await db.execute(sql`
    insert into question_options (question_id, value, is_correct, points, position)
    select q.id, 'Option ' || o, o = 0, case when o = 0 then 10 else 0 end, o
    from questions q, generate_series(0, 3) o
    where q.id = any(${sql.param(qs.map((q) => q.id))}::uuid[])`);
  await db.execute(sql`
    insert into tenant_assessment_questions (assessment_id, question_id, position)
    select ${a!.id}::uuid, q.id, (regexp_replace(q.question, '.* ', ''))::int
    from questions q where q.id = any(${sql.param(qs.map((q) => q.id))}::uuid[])`);
  return a!.id;
}

/**
 * `attempts` evaluated attempts of an assessment, each by a learner of its own (made here), with every
 * question's answer and points, and the link's score and status — as an evaluation leaves them.
 */
async function takeAssessment(db: Db, assessment: string, attempts: number, offset: number) {
  await db.execute(sql`
    insert into users (firebase_uid, email, role, name, email_verified)
    select 'taker-' || g, 'taker-' || g || '@example.com', 'USER', 'Taker ' || g, true
    from generate_series(${offset + 1}::int, ${offset + attempts}::int) g`);
  await db.execute(sql`
    insert into test_links (link_id, type, user_id, tenant_assessment_id, assigned_subject_name, status,
      is_completed, question_count, started_at, completed_at, completed_in, created_at)
    select 'bench-' || u.firebase_uid, 'CUSTOM-TEST', u.id, ${assessment}::uuid, 'Bench', 'NO_ENOUGH_MARKS', true,
      0, at - make_interval(secs => d), at, d, at - make_interval(secs => d + 60)
    from (select id, firebase_uid, now() - random() * interval '60 days' as at, 300 + floor(random() * 900)::int as d
          from users where firebase_uid like 'taker-%'
            and substring(firebase_uid from 7)::int between ${offset + 1}::int and ${offset + attempts}::int) u`);
  await db.execute(sql`
    create temp table if not exists bench_links (id uuid primary key, theta float8, started timestamptz,
      completed timestamptz)`);
  await db.execute(sql`truncate bench_links`);
  await db.execute(sql`
    insert into bench_links
    select id, (random() * 6 - 3), started_at, completed_at from test_links
    where tenant_assessment_id = ${assessment}::uuid`);
  await db.execute(sql`
    insert into test_link_questions (test_link_id, question_id, position, option_order)
    select l.id, aq.question_id, aq.position, '[]'::jsonb
    from bench_links l cross join tenant_assessment_questions aq where aq.assessment_id = ${assessment}::uuid`);
  // right with probability 1 / (1 + e^(d − θ)); a wrong answer: option 1 or 2, option 3 one time in 40
  await db.execute(sql`
    insert into test_answers (test_link_id, question_id, answer_ids, points, answered_at, first_answered_at)
    select x.id, x.q, array[o.id], case when o.is_correct then 10 else 0 end, x.completed,
      x.started + (x.pos + 1) * (x.completed - x.started) / 30
    from (
      select l.id, l.started, l.completed, aq.question_id q, aq.position pos,
        case when random() < 1 / (1 + exp(((aq.position % 7) - 3) * 0.8 - l.theta)) then 0
             else case when random() < 0.025 then 3 else 1 + floor(random() * 2)::int end end as pick
      from bench_links l cross join tenant_assessment_questions aq where aq.assessment_id = ${assessment}::uuid) x
    join question_options o on o.question_id = x.q and o.position = x.pick`);
  await db.execute(sql`
    update test_links l set score = s.points, percentage = round(s.points * 100 / (10.0 * s.k), 2),
      question_count = s.k,
      status = case when s.points / s.k >= 6 then 'GENERATE_CERTIFICATE' else 'NO_ENOUGH_MARKS' end
    from (select a.test_link_id id, sum(a.points) points, count(*) k from test_answers a
          join bench_links b on b.id = a.test_link_id group by a.test_link_id) s
    where l.id = s.id`);
}

/**
 * The baseline: the same figures recomputed from the raw tables by planned queries (no aggregate), into the
 * shapes the shared rules read.
 */
async function recompute(db: Db, testKey: string) {
  // the attempts' pieces once (a temporary table on this connection), then each aggregate over them
  await db.execute(sql`drop table if exists bench_pieces`);
  await db.execute(sql`
    create temp table bench_pieces as
    with a as (
      select l.id, l.started_at, coalesce(l.completed_at, l.created_at) as completed
      from test_links l where l.test_key = ${testKey} and l.is_completed),
    p as (
      select a.id, a.started_at, a.completed, tlq.question_id q, q.question_type t,
        coalesce(ans.points, 0) / 10.0 as x, ans.answer_ids, ans.first_answered_at f
      from a join test_link_questions tlq on tlq.test_link_id = a.id
        join questions q on q.id = tlq.question_id
        left join test_answers ans on ans.test_link_id = tlq.test_link_id and ans.question_id = tlq.question_id),
    t as (select id, sum(x) raw, count(*) k from p group by id)
    select p.*, (t.raw - p.x) / nullif(t.k - 1, 0) rest, least(100, floor(round(100 * t.raw / t.k, 2)))::int bucket
    from p join t using (id)`);
  const sums = await db.execute(sql`
    select q, count(*) n, sum(x) sx, sum(x * x) sxx, count(rest) nr, sum(x) filter (where rest is not null) rx,
      sum(x * x) filter (where rest is not null) rxx, sum(rest) sr, sum(rest * rest) srr, sum(x * rest) sxr
    from bench_pieces group by q`);
  const buckets = await db.execute(sql`
    select q, bucket, 'all' as option, count(*) n from bench_pieces group by q, bucket
    union all
    select q, bucket, coalesce(o::text, 'none'), count(*) from bench_pieces
      left join lateral unnest(case when cardinality(answer_ids) > 0 then answer_ids else array[null::uuid] end) o on true
    where t <> 'FILL_IN_BLANK' group by q, bucket, o`);
  const days = await db.execute(sql`
    select q, (completed at time zone 'UTC')::date::text as day, count(*) n, sum(x) sx, sum(x * x) sxx,
      count(rest) nr, sum(rest) sr
    from bench_pieces group by q, day`);
  const times = await db.execute(sql`
    with timed as (
      select q, f, coalesce(lag(f) over (partition by id order by f), started_at) prev
      from bench_pieces where f is not null and f <= completed - interval '1 second')
    select q, count(*) filter (where f >= prev) timed, sum(extract(epoch from f - prev)) filter (where f >= prev) seconds
    from timed group by q`);
  await db.execute(sql`drop table bench_pieces`);
  const num = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));
  const out = {
    sums: new Map<string, ItemSums>(),
    buckets: new Map<string, BucketCount[]>(),
    days: new Map<string, DaySums[]>(),
  };
  for (const r of rowsOf<Record<string, unknown> & { q: string }>(sums)) {
    out.sums.set(r.q, {
      ...emptySums(),
      n: num(r.n),
      sx: num(r.sx),
      sxx: num(r.sxx),
      nr: num(r.nr),
      rx: num(r.rx),
      rxx: num(r.rxx),
      sr: num(r.sr),
      srr: num(r.srr),
      sxr: num(r.sxr),
    });
  }
  for (const r of rowsOf<{ q: string; timed: unknown; seconds: unknown }>(times)) {
    const s = out.sums.get(r.q);
    if (s) Object.assign(s, { timed: num(r.timed), seconds: num(r.seconds) });
  }
  for (const r of rowsOf<{ q: string; bucket: number; option: string; n: unknown }>(buckets)) {
    out.buckets.set(r.q, [
      ...(out.buckets.get(r.q) ?? []),
      { bucket: Number(r.bucket), option: r.option, n: num(r.n) },
    ]);
  }
  for (const r of rowsOf<{ q: string; day: string } & Record<string, unknown>>(days)) {
    out.days.set(r.q, [
      ...(out.days.get(r.q) ?? []),
      { day: r.day, n: num(r.n), sx: num(r.sx), sxx: num(r.sxx), nr: num(r.nr), sr: num(r.sr) },
    ]);
  }
  return out;
}

const timed = async <T>(fn: () => Promise<T>) => {
  const t = performance.now();
  const value = await fn();
  return { ms: performance.now() - t, value };
};

async function main() {
  let stopPg: (() => Promise<void>) | null = null;
  let url = process.env.BENCH_DATABASE_URL;
  if (!url) {
    const pg = await startPostgres({
      database: 'waymark_bench_item_stats',
      settings: {
        shared_buffers: '512MB',
        work_mem: '32MB',
        max_wal_size: '4GB',
        checkpoint_timeout: '30min',
      },
    });
    url = pg.url;
    stopPg = () => pg.stop();
  }
  let server: BenchServer | null = null;
  const dataDir = join(root, '.tmp', `bench-item-stats-${process.pid}`);
  const stopAll = async () => {
    await server?.stop();
    await stopPg?.();
    rmSync(dataDir, { recursive: true, force: true });
  };
  stopOnInterrupt(stopAll);
  try {
    const database = await openDatabase({ databaseUrl: url, poolSize: 4 });
    // the set-up and the baseline on a connection of their own, without the server's statement timeout
    // (bulk inserts of millions of rows, and the recomputation, outlast it on a busy machine)
    const setupClient = new pg.Client({ connectionString: url });
    await setupClient.connect();
    setupClient.on('error', (err) => log(`the set-up connection failed: ${err.message}`));
    await setupClient.query('set statement_timeout = 0');
    const db = drizzle(setupClient, { schema }) as unknown as Db;
    const pooled = database.db;
    const loadAtStart = loadNow();
    log(`machine: ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GB; load ${loadAtStart}`);

    // ---- 1. data
    const t0 = performance.now();
    const [tenant] = rowsOf<{ id: string }>(
      await db.execute(sql`insert into users (firebase_uid, email, role, name, email_verified)
        values ('bench-mentor', 'bench-mentor@example.com', 'TENANT', 'Bench Mentor', true) returning id`),
    );
    const [language] = rowsOf<{ id: string }>(
      await db.execute(sql`insert into languages (name) values ('Bench language') returning id`),
    );
    const [subject] = rowsOf<{ id: string }>(
      await db.execute(sql`insert into subjects (name) values ('Bench subject') returning id`),
    );
    const [topic] = rowsOf<{ id: string }>(
      await db.execute(
        sql`insert into topics (subject_id, name) values (${subject!.id}::uuid, 'Bench') returning id`,
      ),
    );
    const where = { subject: subject!.id, topic: topic!.id, language: language!.id };
    const main = await makeAssessment(db, tenant!.id, where, QUESTIONS, 'Bench exam');
    log(`taking the assessment ${ATTEMPTS} times (${ATTEMPTS * QUESTIONS} answers) …`);
    await takeAssessment(db, main, ATTEMPTS, 0);
    const bankAssessments = Math.ceil(BANK / QUESTIONS);
    log(`the bank: ${bankAssessments} more assessments of ${QUESTIONS}, ${BANK_ATTEMPTS} attempts each …`);
    for (let i = 0; i < bankAssessments; i++) {
      const id = await makeAssessment(db, tenant!.id, where, QUESTIONS, `Bank ${i + 1}`);
      await takeAssessment(db, id, BANK_ATTEMPTS, ATTEMPTS + i * BANK_ATTEMPTS);
    }
    await db.execute(sql`analyze`);
    const dataSeconds = (performance.now() - t0) / 1000;
    log(`  data in ${dataSeconds.toFixed(1)} s; load ${loadNow()}`);

    // ---- 2. the fold
    const loadBeforeFold = loadNow();
    // the job folds at most 100,000 attempts a run: as many runs as it takes
    const fold = await timed(async () => {
      let folded = 0;
      for (;;) {
        const run = await foldJob(pooled, new Date());
        folded += run.folded;
        if (run.folded === 0) return { folded };
      }
    });
    const foldRate = Math.round(fold.value.folded / (fold.ms / 1000));
    log(
      `fold: ${fold.value.folded} attempts in ${(fold.ms / 1000).toFixed(1)} s (${foldRate}/s); load ${loadNow()}`,
    );
    await db.execute(sql`analyze`);

    // ---- 3. reads through the server, and the baseline here
    const env = await serverEnv({ databaseUrl: url, dataDir });
    const tokens = new TokenService(pooled, loadConfig({ ...env, NODE_ENV: 'test' }));
    const token = (await tokens.issue({ id: tenant!.id, role: 'TENANT' }, 'WEB_APP')).token;
    server = await startServer(env);
    const get = async (path: string) => {
      const res = await fetch(`${server!.url}/api${path}`, { headers: { authorization: `Bearer ${token}` } });
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { data: unknown }).data;
    };
    // a first read of each (connections, prepared plans)
    await get(`/tenant/assessment/${main}/stats`);
    await get('/tenant/question/stats');

    const loadBeforeReads = loadNow();
    const statsMs: number[] = [];
    let served: {
      summary: { attempts: number; reliability: { value: number | null } };
      questions: {
        questionId: string;
        figures: { facility: number | null; discrimination: number | null; averageSeconds: number | null };
      }[];
    } | null = null;
    for (let i = 0; i < Number(opts.reads); i++) {
      const r = await timed(() => get(`/tenant/assessment/${main}/stats`));
      statsMs.push(r.ms);
      served = r.value as typeof served;
    }
    const bankMs: number[] = [];
    let bankSize = 0;
    for (let i = 0; i < Number(opts['bank-reads']); i++) {
      const r = await timed(() => get('/tenant/question/stats'));
      bankMs.push(r.ms);
      bankSize = (r.value as { questions: unknown[] }).questions.length;
    }
    const loadAfterReads = loadNow();

    const key = `CUSTOM-TEST:${main}`;
    const baselineMs: number[] = [];
    let recomputed: Awaited<ReturnType<typeof recompute>> | null = null;
    for (let i = 0; i < Number(opts['baseline-reads']); i++) {
      const r = await timed(async () => {
        const agg = await recompute(db, key);
        const facts = await questionFacts(db, [...agg.sums.keys()]);
        const rows = questionRows([...agg.sums.keys()], facts, agg);
        return { agg, rows };
      });
      baselineMs.push(r.ms);
      recomputed = r.value.agg;
    }
    const loadAfterBaseline = loadNow();

    // the two agree: every question's facility, discrimination and time, and the reliability
    const facts = await questionFacts(db, [...recomputed!.sums.keys()]);
    const again = questionRows([...recomputed!.sums.keys()], facts, recomputed!);
    const types = new Map([...facts].map(([id, f]) => [id, f.type]));
    const kept = await itemAggregates(db, [key]);
    const summary = await testSummary(db, [key], recomputed!, types);
    // times: the fold reads them to the millisecond, the database keeps microseconds
    let worst = 0;
    let worstSeconds = 0;
    for (const row of again) {
      const mine = served!.questions.find((q) => q.questionId === row.questionId)!;
      for (const f of ['facility', 'discrimination'] as const) {
        worst = Math.max(worst, Math.abs((mine.figures[f] ?? 0) - (row.figures[f] ?? 0)));
      }
      worstSeconds = Math.max(
        worstSeconds,
        Math.abs((mine.figures.averageSeconds ?? 0) - (row.figures.averageSeconds ?? 0)),
      );
    }
    worst = Math.max(
      worst,
      Math.abs((served!.summary.reliability.value ?? 0) - (summary.reliability.value ?? 0)),
    );
    if (
      served!.summary.attempts !== ATTEMPTS ||
      kept.sums.size !== QUESTIONS ||
      worst > 1e-9 ||
      worstSeconds > 1e-3
    ) {
      throw new Error(
        `the kept figures differ from the recomputed ones (largest difference ${worst}, in seconds ${worstSeconds})`,
      );
    }

    const figures = {
      machine: { cores: cpus().length, memoryGb: Math.round(totalmem() / 2 ** 30) },
      load: {
        start: loadAtStart,
        beforeFold: loadBeforeFold,
        beforeReads: loadBeforeReads,
        afterReads: loadAfterReads,
        afterBaseline: loadAfterBaseline,
      },
      data: {
        attempts: ATTEMPTS,
        questions: QUESTIONS,
        bankQuestions: bankSize,
        bankAttempts: bankAssessments * BANK_ATTEMPTS,
        seconds: round1(dataSeconds),
      },
      fold: { attempts: fold.value.folded, seconds: round1(fold.ms / 1000), perSecond: foldRate },
      assessmentStats: { reads: statsMs.length, ms: latency(statsMs), targetP95Ms: 500 },
      bankColumn: { reads: bankMs.length, questions: bankSize, ms: latency(bankMs), targetP95Ms: 1000 },
      baselineRecomputation: { reads: baselineMs.length, ms: latency(baselineMs) },
      agreement: { largestDifference: worst, largestDifferenceInSeconds: worstSeconds },
    };
    if (opts.json) console.log(JSON.stringify(figures));
    else {
      console.log(`
item analysis — ${figures.machine.cores} cores; load at start ${loadAtStart}, before the reads ${loadBeforeReads}, after ${loadAfterReads}
  data         ${ATTEMPTS} attempts × ${QUESTIONS} questions; bank ${bankSize} questions over ${figures.data.bankAttempts} more attempts (${figures.data.seconds} s to make)
  fold         ${fold.value.folded} attempts in ${figures.fold.seconds} s: ${foldRate} attempts/s (the job, once)
  statistics   p50 ${figures.assessmentStats.ms.p50} ms, p95 ${figures.assessmentStats.ms.p95} ms, max ${figures.assessmentStats.ms.max} ms over ${statsMs.length} reads (target p95 ≤ 500 ms)
  bank column  p50 ${figures.bankColumn.ms.p50} ms, p95 ${figures.bankColumn.ms.p95} ms over ${bankMs.length} reads of ${bankSize} questions (target p95 ≤ 1,000 ms)
  baseline     recomputed from the raw tables: p50 ${figures.baselineRecomputation.ms.p50} ms, max ${figures.baselineRecomputation.ms.max} ms over ${baselineMs.length} runs
  agreement    the kept figures equal the recomputed ones (largest difference ${worst.toExponential(1)}; times ${worstSeconds.toExponential(1)} s)`);
    }
    await setupClient.end();
    await database.close();
  } finally {
    await stopAll();
  }
}

runBench(main);
