/**
 * Exam day, the load itself (bench/exam-day.ts runs it at 10,000 takers; the server tests at 200 on
 * PGlite and PostgreSQL): one custom assessment of 20 questions shared through the API with every taker;
 * at its start every taker opens the link on an arrival curve (not a closed loop), reads the Ready page and
 * starts; answers one question every few seconds (autosave: PUT /testlink/{id}/answer); a share of them
 * reload mid-test and resume (the saved answers come back); all submit at the end, a fixed number at a time.
 * Every score is checked against the key, and every answer given is checked to be stored.
 *
 * A taker behaves as the test page's saver does (widgets/test-taker/saver.ts): a 503 or a dropped
 * connection is retried after Retry-After (or a growing pause) with the newest answer, so shed load loses
 * nothing. `baseline` runs the same engine statements (start, save, evaluate) in this process, without HTTP.
 */
import { performance } from 'node:perf_hooks';
import { attemptHeaders, newAttemptToken } from '@shared/rules/attempt-token';
import { sql } from 'drizzle-orm';
import { linkHooks } from '../../server/assessments/completion';
import { attemptTokenHash } from '../../server/assessments/engine/attempt';
import { saveAnswerNow } from '../../server/assessments/engine/autosave';
import { shuffle } from '../../server/assessments/engine/drawing';
import { evaluateLink, evaluateNow } from '../../server/assessments/engine/evaluation';
import { DEFAULT_RETAKE_COOLDOWN_MS } from '../../server/assessments/engine/rules';
import { startNow } from '../../server/assessments/engine/start';
import type { Db } from '../../server/db/client';
import { rowsOf } from '../../server/db/helpers';
import {
  answerFor,
  type Expected,
  expectedOf,
  type Given,
  type KeyQuestion,
  keyOf,
  random,
  type TakerQuestion,
} from './answers';
import { type ArrivalSearch, searchArrival } from './arrival-search';
import { latency, round1, sleep } from './figures';
import { LeanAgent } from './lean-http';
import { pool } from './pool';

export interface ExamTaker {
  id: string;
  token: string;
}

export interface ExamDayOptions {
  /** The API's base, e.g. http://127.0.0.1:3000/api */
  base: string;
  db: Db;
  /** The baseline's statements go through this one (as many connections as the servers'); else `db`. */
  baselineDb?: Db;
  tenantToken: string;
  takers: ExamTaker[];
  /** Published questions the assessment is made of (20). */
  questionIds: string[];
  /** Every start falls within this many seconds (60). */
  arrivalSeconds: number;
  /** The pause between a taker's answers, ms (5,000–30,000). */
  paceMs: [number, number];
  /** The share of takers who reload mid-test and resume (0.1). */
  refreshShare: number;
  /** Takers submitting at once at the end (50). */
  submitters: number;
  /** HTTP connections (default: one per taker, at most 2,000). */
  connections?: number;
  /** Send no access token (the link id alone opens a test). */
  anonymous?: boolean;
  /** Run the SQL-only baseline on this many more takers (their own share): 0 for none. */
  baselineTakers?: ExamTaker[];
  /**
   * After the exam, alone on the server: the arrival rate it sustains for the Ready page and the start
   * (support/arrival-search.ts), on these takers' links of a share of their own.
   */
  search?: {
    takers: ExamTaker[];
    waveSeconds: number;
    startRate: number;
    boundMs: number;
    waves: number;
    minTakers?: number;
  };
  /** Around each phase: CPU counters etc. */
  measure?: (name: string) => Promise<(requests: number) => Promise<Record<string, unknown>>>;
  log?: (line: string) => void;
  seed?: number;
}

export interface PhaseResult {
  name: string;
  requests: number;
  seconds: number;
  perSecond: number;
  ms: { p50: number; p95: number; p99: number; max: number };
  /** Statuses other than 200, shed 503s apart. */
  errors: Record<string, number>;
  shed: number;
  retries: number;
  extra?: Record<string, unknown>;
}

export interface ExamDayResult {
  share: { seconds: number; links: number; calls: number };
  phases: PhaseResult[];
  /**
   * The start and the autosave through HTTP alone, closed loops at the submitters' concurrency on links
   * shared for it, each phase's CPU on its own (in the exam they overlap, so its CPU is the whole mix's).
   */
  closedLoop: PhaseResult[];
  baseline: PhaseResult[];
  /** The arrival search, when asked for. */
  search: ArrivalSearch | null;
  checks: {
    scored: number;
    wrongScores: number;
    answersGiven: number;
    answersLost: number;
    resumed: number;
    resumedWrong: number;
    examples: unknown[];
  };
}

/** Latencies and statuses of one kind of request. */
class Recorder {
  readonly ms: number[] = [];
  readonly errors: Record<string, number> = {};
  shed = 0;
  retries = 0;
  first = Number.POSITIVE_INFINITY;
  last = 0;
  /** The time its slices took, when the phase ran in slices between another's (see runExamDay); else null. */
  slicesMs: number | null = null;
  constructor(readonly name: string) {}
  /** Runs one slice of the phase, its time counted as the phase's. */
  async slice(fn: () => Promise<unknown>) {
    const t0 = performance.now();
    await fn();
    this.slicesMs = (this.slicesMs ?? 0) + performance.now() - t0;
  }
  ok(ms: number) {
    this.ms.push(ms);
    const now = performance.now();
    this.first = Math.min(this.first, now - ms);
    this.last = Math.max(this.last, now);
  }
  /** A status the server answered, or the code of a connection that failed (ECONNRESET, UND_ERR_…). */
  fail(status: number | string) {
    this.errors[String(status)] = (this.errors[String(status)] ?? 0) + 1;
  }
  result(extra?: Record<string, unknown>): PhaseResult {
    const seconds = !this.ms.length ? 0 : (this.slicesMs ?? this.last - this.first) / 1000;
    return {
      name: this.name,
      requests: this.ms.length,
      seconds: round1(seconds),
      perSecond: seconds > 0 ? Math.round(this.ms.length / seconds) : this.ms.length,
      ms: latency(this.ms),
      errors: this.errors,
      shed: this.shed,
      retries: this.retries,
      ...(extra ? { extra } : {}),
    };
  }
}

interface Planned {
  answers: Given[];
  expected: Expected;
}

function plan(questions: TakerQuestion[], keys: Map<string, KeyQuestion>, rand: () => number): Planned {
  const rightCount = Math.floor(rand() * (questions.length + 1));
  const order = questions.map((_, i) => i).sort(() => rand() - 0.5);
  const right = new Set(order.slice(0, rightCount));
  let points = 0;
  const answers = questions.map((q, i) => {
    const a = answerFor(q, keys.get(q._id)!, right.has(i), () => rand() < 0.5, rand);
    points += a.points;
    return a.given;
  });
  return { answers, expected: expectedOf(points, questions.length) };
}

/**
 * The answers of many links in the order takers answering side by side give them: every link's first
 * answer, then every link's second, and so on — as in the exam, where a link's answers arrive minutes apart
 * between everyone else's, and so lie on different pages of test_answers. (Saved link after link instead,
 * each link's answers would share a page or two, and its evaluation would find them there: a layout no exam
 * produces, which made the SQL-only baseline's evaluation cheaper than the exam's.)
 */
export function asTakersAnswer<A>(links: readonly (readonly [string, readonly A[]])[]) {
  const out: { l: string; a: A }[] = [];
  const most = Math.max(0, ...links.map(([, answers]) => answers.length));
  for (let k = 0; k < most; k++)
    for (const [l, answers] of links) if (k < answers.length) out.push({ l, a: answers[k]! });
  return out;
}

/** A copy of `items` in an order drawn from the seeded `rand`. */
const shuffled = <T>(items: readonly T[], rand: () => number) =>
  shuffle(items, (n) => Math.floor(rand() * n));

/** The r-th of `rounds` consecutive slices of `items`. */
const sliceOf = <T>(items: readonly T[], r: number, rounds: number) =>
  items.slice(Math.floor((r * items.length) / rounds), Math.floor(((r + 1) * items.length) / rounds));

/** An arrival curve: most takers open the link in the middle of the minute, none outside it. */
const arrivalAt = (rand: () => number, seconds: number) => ((rand() + rand() + rand()) / 3) * seconds * 1000;

export async function runExamDay(o: ExamDayOptions): Promise<ExamDayResult> {
  const log = o.log ?? (() => {});
  const rand = random(o.seed ?? 15);
  // the load generator shares the two cores with what it measures: a lean client (support/lean-http.ts)
  const agent = new LeanAgent(o.base, {
    connections: o.connections ?? Math.min(2000, Math.max(8, o.takers.length)),
    timeoutMs: 120_000,
  });
  const auth = (token: string) => (o.anonymous ? '' : `authorization: Bearer ${token}\r\n`);
  // the attempt token the taking page made (decision 031), on the start and every write of the attempt
  const attemptLines = (attempt?: string) =>
    Object.entries(attemptHeaders(attempt))
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('');
  const call = async (method: string, path: string, token: string, body?: unknown, attempt?: string) => {
    const res = await agent.request(
      method,
      path,
      auth(token) + attemptLines(attempt) + (body === undefined ? '' : 'content-type: application/json\r\n'),
      body === undefined ? undefined : JSON.stringify(body),
    );
    return {
      status: res.status,
      retryAfter: res.retryAfter,
      json: (res.text ? JSON.parse(res.text) : {}) as {
        data?: unknown;
        errorCode?: string;
        message?: string;
      },
    };
  };
  /**
   * A call as the test page makes it: a shed 503 or a dropped connection waits (Retry-After, or a growing
   * pause) and tries again; any other status is the answer.
   */
  const patient = async (...[rec, method, path, token, body, attemptToken]: Parameters<Patient>) => {
    for (let attempt = 0; ; attempt++) {
      const t0 = performance.now();
      let r: Awaited<ReturnType<typeof call>> | null = null;
      let failure = 'connection';
      try {
        r = await call(method, path, token, body, attemptToken);
      } catch (err) {
        r = null;
        const e = err as { code?: string; cause?: { code?: string } };
        failure = e.code ?? e.cause?.code ?? (err as Error).name ?? failure;
      }
      if (r && r.status === 200) {
        rec.ok(performance.now() - t0);
        return r;
      }
      if (r && r.status !== 503) {
        rec.fail(r.status);
        return r;
      }
      if (r) rec.shed++;
      else rec.fail(failure);
      // a shed 503 is waited out as long as the server keeps asking (the saver never drops an answer: up to
      // ten minutes at Retry-After 2 s); a dropped connection 30 times in a row is given up
      if (attempt >= (r ? 300 : 30)) return r ?? { status: 0, retryAfter: 0, json: {} };
      rec.retries++;
      const wait = r?.retryAfter ? r.retryAfter * 1000 : Math.min(20_000, 500 * 2 ** attempt);
      await sleep(wait * (0.5 + rand()));
    }
  };

  // ---- the share, through the API: an assessment of the questions, shared with every taker (a shed 503
  // is waited out as Retry-After says, as the portal's client would)
  const shareRec = new Recorder('share');
  const shareCall = (method: string, path: string, token: string, body?: unknown) =>
    patient(shareRec, method, path, token, body);
  const share = async (takers: ExamTaker[]) => {
    const created = await shareCall('POST', '/tenant/assessment/create', o.tenantToken, { name: 'Exam day' });
    if (created.status !== 200) throw new Error(`create assessment: ${created.status}`);
    const assessmentId = (created.json.data as { _id: string })._id;
    for (const q of o.questionIds) {
      const added = await shareCall(
        'PUT',
        `/tenant/assessment/${assessmentId}/add-question/${q}`,
        o.tenantToken,
      );
      if (added.status !== 200)
        throw new Error(`add question: ${added.status} ${JSON.stringify(added.json)}`);
    }
    // the next quarter hour (a share starts on one); the window is then moved to now, so nobody waits
    const quarter = 15 * 60_000;
    const startTime = Math.ceil(Date.now() / quarter) * quarter;
    const linkOf = new Map<string, string>();
    let calls = 0;
    for (let i = 0; i < takers.length; i += 500) {
      const chunk = takers.slice(i, i + 500);
      const res = await shareCall('PUT', `/tenant/assessment/${assessmentId}/assign-users`, o.tenantToken, {
        userIds: chunk.map((t) => t.id),
        createdAt: Date.now(),
        startTime,
        duration: 1,
      });
      calls++;
      if (res.status !== 200) throw new Error(`share: ${res.status} ${JSON.stringify(res.json)}`);
    }
    const rows = rowsOf<{ user_id: string; link_id: string }>(
      await o.db.execute(sql`
        update test_links set start_time = now() - interval '1 second',
          expires_at = now() - interval '1 second' + interval '1 hour'
        where tenant_assessment_id = ${assessmentId}
        returning user_id, link_id`),
    );
    for (const r of rows) linkOf.set(r.user_id, r.link_id);
    return { linkOf, calls };
  };
  log(`sharing one assessment of ${o.questionIds.length} questions with ${o.takers.length} takers …`);
  const s0 = performance.now();
  const { linkOf, calls: shareCalls } = await share(o.takers);
  const shareSeconds = (performance.now() - s0) / 1000;
  log(`  ${linkOf.size} links in ${shareSeconds.toFixed(1)} s (${shareCalls} calls of up to 500)`);
  const keys = await keyOf(o.db, o.questionIds);

  // ---- the exam: arrival, answers at a person's pace, some reloads; then everyone submits
  const rec = {
    load: new Recorder('GET /testlink/assessment/{id} (Ready page)'),
    start: new Recorder('PUT /testlink/verify/{id} (start)'),
    save: new Recorder('PUT /testlink/{id}/answer (autosave)'),
    resume: new Recorder('GET /testlink/assessment/{id} (reload, resume)'),
    submit: new Recorder(`POST /testlink/evaluvate/v2 (20 answers, ${o.submitters} at a time)`),
  };
  const plans = new Map<string, Planned>();
  /** Each taker's attempt token, by link. */
  const attemptOf = new Map<string, string>();
  let resumed = 0;
  let resumedWrong = 0;
  const examples: unknown[] = [];
  const stopExam = await o.measure?.('exam');
  const examStart = performance.now();
  log(
    `exam: ${o.takers.length} takers arrive within ${o.arrivalSeconds} s, an answer every ${o.paceMs[0] / 1000}–${o.paceMs[1] / 1000} s …`,
  );
  let doneTakers = 0;
  const progress = setInterval(
    () =>
      log(
        `  ${Math.round((performance.now() - examStart) / 1000)} s: ${rec.start.ms.length} started, ${rec.save.ms.length} answers saved, ${doneTakers} finished; shed ${rec.start.shed + rec.save.shed}`,
      ),
    10_000,
  );
  await Promise.all(
    o.takers.map(async (t) => {
      const linkId = linkOf.get(t.id)!;
      const mine = random(rand() * 2 ** 32);
      const refreshAfter = mine() < o.refreshShare ? 1 + Math.floor(mine() * 18) : -1;
      await sleep(arrivalAt(mine, o.arrivalSeconds));
      const ready = await patient(rec.load, 'GET', `/testlink/assessment/${linkId}`, t.token);
      if (ready.status !== 200) return;
      const attempt = newAttemptToken();
      attemptOf.set(linkId, attempt);
      const started = await patient(
        rec.start,
        'PUT',
        `/testlink/verify/${linkId}`,
        t.token,
        undefined,
        attempt,
      );
      if (started.status !== 200) return;
      const questions = (started.json.data as { questions: { questions: TakerQuestion[] } }).questions
        .questions;
      const p = plan(questions, keys, mine);
      plans.set(linkId, p);
      for (let i = 0; i < p.answers.length; i++) {
        await sleep(o.paceMs[0] + mine() * (o.paceMs[1] - o.paceMs[0]));
        const { questionId, ...rest } = p.answers[i]!;
        await patient(
          rec.save,
          'PUT',
          `/testlink/${linkId}/answer`,
          t.token,
          { questionId, ...rest },
          attempt,
        );
        if (i === refreshAfter) {
          // the page reloads: the test comes back with every answer saved so far
          const back = await patient(
            rec.resume,
            'GET',
            `/testlink/assessment/${linkId}`,
            t.token,
            undefined,
            attempt,
          );
          resumed++;
          const saved = (back.json.data as { answers?: { questionId: string }[] } | undefined)?.answers ?? [];
          const want = new Set(p.answers.slice(0, i + 1).map((a) => a.questionId));
          if (saved.length !== want.size || saved.some((a) => !want.has(a.questionId))) {
            resumedWrong++;
            if (examples.length < 3) examples.push({ linkId, resumed: saved.length, expected: want.size });
          }
        }
      }
      doneTakers++;
    }),
  );
  clearInterval(progress);
  const examCpu = await stopExam?.(
    rec.load.ms.length + rec.start.ms.length + rec.save.ms.length + rec.resume.ms.length,
  );
  log(
    `  ${rec.start.ms.length} started, ${rec.save.ms.length} saved; answering done in ${Math.round((performance.now() - examStart) / 1000)} s`,
  );

  let scored = 0;
  let wrongScores = 0;
  // everyone finishes in an order of their own, not the order they started in (the baseline's likewise)
  const links = shuffled([...plans.keys()], rand);
  const takerOf = new Map(o.takers.map((t) => [linkOf.get(t.id)!, t]));
  const submitOne = async (linkId: string) => {
    const p = plans.get(linkId)!;
    const r = await patient(
      rec.submit,
      'POST',
      '/testlink/evaluvate/v2',
      takerOf.get(linkId)!.token,
      { linkId, answers: p.answers },
      attemptOf.get(linkId),
    );
    if (r.status !== 200) return;
    scored++;
    const d = r.json.data as Record<string, unknown>;
    const got = {
      score: d.score,
      percentage: d.percentage,
      eligible: d.certificateEligible,
      status: d.status,
      questionCount: d.questionCount,
    };
    if (JSON.stringify(got) !== JSON.stringify(p.expected)) {
      wrongScores++;
      if (examples.length < 6) examples.push({ linkId, got, expected: p.expected });
    }
  };
  // the closed loops and the baseline's start and saves first: its evaluations then run beside the exam's
  const closedLoop = o.baselineTakers?.length ? await runClosedLoop(o, share, keys, patient) : [];
  const baseline = o.baselineTakers?.length ? await prepareBaseline(o, share, keys) : null;
  // everyone submits; with a baseline, in rounds that alternate a slice of the exam's submissions through
  // HTTP with a slice of the baseline's evaluations, so both are measured in the same minutes of a machine
  // whose speed moves between runs (and within one) more than the difference they are there to show
  const rounds = baseline ? Math.min(SUBMIT_ROUNDS, baseline.links.length) : 1;
  log(rounds > 1 ? `submitting, in ${rounds} rounds beside the baseline's evaluations …` : 'submitting …');
  const submitCpu = slicedCpu(o.measure);
  const baseCpu = slicedCpu(o.measure);
  for (let r = 0; r < rounds; r++) {
    const slice = sliceOf(links, r, rounds);
    // each slice timed inside its measurement, so starting and stopping a profile is not counted
    await submitCpu.measure(rounds > 1 ? `submit ${r + 1}` : 'submit', slice.length, () =>
      rec.submit.slice(() => pool(slice, o.submitters, submitOne)),
    );
    if (baseline) {
      const bSlice = sliceOf(baseline.links, r, rounds);
      await baseCpu.measure(`baseline submit ${r + 1}`, bSlice.length, () =>
        baseline.submit.slice(() => baseline.evaluate(bSlice)),
      );
    }
  }

  // every answer given is stored, with the score the submission reported
  const stored = rowsOf<{ link_id: string; answers: number; score: string | null }>(
    await o.db.execute(sql`
      select l.link_id, count(a.question_id)::int as answers, l.score
      from test_links l left join test_answers a on a.test_link_id = l.id
      where l.link_id in ${links.length ? links : ['-']} group by l.id`),
  );
  const storedOf = new Map(stored.map((r) => [r.link_id, r]));
  let answersGiven = 0;
  let answersLost = 0;
  for (const [linkId, p] of plans) {
    answersGiven += p.answers.length;
    const row = storedOf.get(linkId);
    answersLost += Math.max(0, p.answers.length - (row?.answers ?? 0));
    if (row && Number(row.score) !== p.expected.score) wrongScores++;
  }
  // takers that never started lost every answer they would have given
  answersLost += (o.takers.length - plans.size) * o.questionIds.length;

  // alone on the server now: the arrival rate it sustains for the Ready page and the start
  let search: ArrivalSearch | null = null;
  if (o.search?.takers.length) {
    log(`arrival search: sharing with ${o.search.takers.length} more takers …`);
    const { linkOf: searchLinks } = await share(o.search.takers);
    await sleep(2000);
    search = await searchArrival({
      base: o.base,
      takers: o.search.takers.map((t) => ({ linkId: searchLinks.get(t.id)!, token: t.token })),
      waveSeconds: o.search.waveSeconds,
      startRate: o.search.startRate,
      boundMs: o.search.boundMs,
      waves: o.search.waves,
      minTakers: o.search.minTakers,
      anonymous: o.anonymous,
      measure: o.measure,
      log,
    });
  }

  const phases = [
    rec.load.result(),
    rec.start.result(examCpu ? { cpu: examCpu } : undefined),
    rec.save.result(),
    rec.resume.result(),
    rec.submit.result(submitCpu.result()),
  ];
  await agent.close();
  return {
    share: { seconds: round1(shareSeconds), links: linkOf.size, calls: shareCalls },
    phases,
    closedLoop,
    baseline: baseline ? [...baseline.rows, baseline.submit.result(baseCpu.result())] : [],
    search,
    checks: { scored, wrongScores, answersGiven, answersLost, resumed, resumedWrong, examples },
  };
}

type Patient = (
  rec: Recorder,
  method: string,
  path: string,
  token: string,
  body?: unknown,
  attemptToken?: string,
) => Promise<{ status: number; json: { data?: unknown } }>;

/**
 * The start and the autosave through HTTP, each measured alone: the baseline takers' links of a share of
 * their own, started then answered (20 each) at the submitters' concurrency — the same work as the
 * baseline's start and save rows, so each pair of rows is the cost of HTTP, the token check and the route.
 */
async function runClosedLoop(
  o: ExamDayOptions,
  share: (takers: ExamTaker[]) => Promise<{ linkOf: Map<string, string> }>,
  keys: Map<string, KeyQuestion>,
  patient: Patient,
): Promise<PhaseResult[]> {
  const takers = o.baselineTakers!;
  const rand = random(37);
  o.log?.(`closed loops: start and autosave through HTTP for ${takers.length} more links …`);
  const { linkOf } = await share(takers);
  const tokenOf = new Map(takers.map((t) => [linkOf.get(t.id)!, t.token]));
  const links = [...tokenOf.keys()];
  const attemptOf = new Map(links.map((l) => [l, newAttemptToken()]));
  const start = new Recorder('PUT /testlink/verify/{id} (start, HTTP, closed loop)');
  const save = new Recorder('PUT /testlink/{id}/answer (autosave, HTTP, closed loop)');
  const plans = new Map<string, Planned>();
  const stopStart = await o.measure?.('closed-loop start');
  await pool(links, o.submitters, async (l) => {
    const r = await patient(
      start,
      'PUT',
      `/testlink/verify/${l}`,
      tokenOf.get(l)!,
      undefined,
      attemptOf.get(l),
    );
    if (r.status !== 200) return;
    const qs = (r.json.data as { questions: { questions: TakerQuestion[] } }).questions.questions;
    plans.set(l, plan(qs, keys, rand));
  });
  const startCpu = await stopStart?.(start.ms.length);
  const saves = asTakersAnswer([...plans].map(([l, p]) => [l, p.answers] as const));
  const stopSave = await o.measure?.('closed-loop save');
  await pool(saves, o.submitters, ({ l, a }) =>
    patient(save, 'PUT', `/testlink/${l}/answer`, tokenOf.get(l)!, a, attemptOf.get(l)),
  );
  const saveCpu = await stopSave?.(save.ms.length);
  return [
    start.result(startCpu ? { cpu: startCpu } : undefined),
    save.result(saveCpu ? { cpu: saveCpu } : undefined),
  ];
}

/** Rounds of the submission phase when a baseline runs beside it (see runExamDay). */
const SUBMIT_ROUNDS = 5;

/** CPU per request of a phase run in slices: each slice measured alone, the figures weighted by its requests. */
function slicedCpu(measure: ExamDayOptions['measure']) {
  const parts: { n: number; cpu: Record<string, unknown> }[] = [];
  return {
    async measure(name: string, n: number, fn: () => Promise<unknown>) {
      const stop = await measure?.(name);
      await fn();
      const cpu = await stop?.(n);
      if (cpu) parts.push({ n, cpu });
    },
    result(): { cpu: Record<string, unknown> } | undefined {
      if (!parts.length) return undefined;
      const total = parts.reduce((t, p) => t + p.n, 0);
      const mean = (key: string) => {
        if (parts.some((p) => typeof p.cpu[key] !== 'number')) return null;
        return (
          Math.round(
            (parts.reduce((t, p) => t + (p.cpu[key] as number) * p.n, 0) / Math.max(1, total)) * 100,
          ) / 100
        );
      };
      const loads = parts.map((p) => String(p.cpu.load ?? '').split(' → '));
      return {
        cpu: {
          serverMs: mean('serverMs'),
          postgresMs: mean('postgresMs'),
          benchMs: mean('benchMs'),
          load: `${loads[0]?.[0] ?? ''} → ${loads.at(-1)?.[1] ?? ''}`,
        },
      };
    },
  };
}

/**
 * The same engine statements without HTTP, sign-in or JSON over the wire: start (one statement: the
 * update and the taker's view), save (one statement per answer: checked and upserted) — closed loops at
 * the submitters' concurrency, for the baseline takers' own share — and what runExamDay runs in slices
 * between the exam's submissions: evaluate (one statement: the whole sheet scored and written).
 */
async function prepareBaseline(
  o: ExamDayOptions,
  share: (takers: ExamTaker[]) => Promise<{ linkOf: Map<string, string> }>,
  keys: Map<string, KeyQuestion>,
) {
  const takers = o.baselineTakers!;
  const bdb = o.baselineDb ?? o.db;
  const rand = random(51);
  o.log?.(`baseline: the same statements in this process for ${takers.length} more takers …`);
  const { linkOf } = await share(takers);
  // started in an order unrelated to the order the links were made in, and submitted in another, as the
  // exam's takers arrive and finish: taken in the order they lie on disk, one after another, the baseline's
  // statements would find the next link's rows (and answers) on the page the last one left in cache
  const links = shuffled(
    takers.map((t) => linkOf.get(t.id)!),
    rand,
  );
  const submitOrder = shuffled(links, rand);
  // the caller as the route's statements check it: the account and the session its token names
  const sessionOf = (t: ExamTaker) =>
    o.anonymous
      ? null
      : {
          id: t.id,
          familyId: (
            JSON.parse(Buffer.from(t.token.split('.')[1]!, 'base64url').toString()) as { fam: string }
          ).fam,
        };
  const takerOf = new Map(takers.map((t) => [linkOf.get(t.id)!, sessionOf(t)]));
  // the hash of each taker's attempt token, as the route computes it from the request's header
  const holderOf = new Map(links.map((l) => [l, attemptTokenHash(l, newAttemptToken())]));
  const cooldownMs = DEFAULT_RETAKE_COOLDOWN_MS;
  const start = new Recorder('baseline: start (engine, no HTTP)');
  const save = new Recorder('baseline: save an answer (engine, no HTTP)');
  const submit = new Recorder('baseline: evaluate 20 answers (engine, no HTTP)');
  const questionsOf = new Map<string, TakerQuestion[]>();
  const timed = async (rec: Recorder, fn: () => Promise<unknown>) => {
    const t0 = performance.now();
    try {
      await fn();
      rec.ok(performance.now() - t0);
    } catch {
      rec.fail(500);
    }
  };
  const n = o.submitters;
  const stopStart = await o.measure?.('baseline start');
  await pool(links, n, (linkId) =>
    timed(start, async () => {
      // the route's own statement: the start and the taker's view in one
      const started = await startNow(
        bdb,
        linkId,
        takerOf.get(linkId) ?? null,
        holderOf.get(linkId)!,
        new Date(),
        cooldownMs,
      );
      if (!started) throw new Error(`${linkId} did not start`);
      const qs = started.view.questions;
      questionsOf.set(
        linkId,
        qs.map((q) => ({ _id: q._id, questionType: q.questionType, options: q.options })),
      );
    }),
  );
  const startCpu = await stopStart?.(start.ms.length);
  const plans = new Map(links.map((l) => [l, plan(questionsOf.get(l)!, keys, rand)]));
  const stopSave = await o.measure?.('baseline save');
  const saves = asTakersAnswer(links.map((l) => [l, plans.get(l)!.answers] as const));
  await pool(saves, n, ({ l, a }) =>
    timed(save, async () => {
      // the route's own statement: checked and saved in one
      if (!(await saveAnswerNow(bdb, l, takerOf.get(l) ?? null, holderOf.get(l)!, a, new Date())))
        throw new Error(`${l}: the answer was not saved`);
    }),
  );
  const saveCpu = await stopSave?.(save.ms.length);
  return {
    links: submitOrder,
    rows: [
      start.result(startCpu ? { cpu: startCpu } : undefined),
      save.result(saveCpu ? { cpu: saveCpu } : undefined),
    ],
    submit,
    /** Evaluates these links' whole sheets as the route does, at the submitters' concurrency. */
    evaluate: (slice: readonly string[]) =>
      pool(slice, n, (l) =>
        timed(submit, async () => {
          // the route's own statement: the whole sheet scored and written in one (or, failing that, the
          // read and the write of the long way)
          // with the route's hooks: its statement carries what an earning link changes elsewhere
          const now = await evaluateNow(
            bdb,
            l,
            takerOf.get(l) ?? null,
            holderOf.get(l)!,
            plans.get(l)!.answers,
            new Date(),
            linkHooks,
          );
          if (!now) throw new Error(`${l}: not found`);
          if ('read' in now)
            await evaluateLink(bdb, now.read.link, plans.get(l)!.answers, new Date(), linkHooks, now);
        }),
      ),
  };
}
