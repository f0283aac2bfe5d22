/**
 * Scale-out benchmark (decision 009): 1, 2 and 3 server processes on one PostgreSQL behind a loopback
 * balancer, loaded with the test-taking mix and the authenticated read.
 *
 *   npx tsx bench/scale-out.ts [--processes 1,2,3] [--takers 40] [--readers 50] [--seconds 15]
 *                              [--warmup 3] [--json]
 *
 * It starts a throwaway PostgreSQL (scripts/pg.mjs), seeds the demo catalogue and question bank, makes
 * one learner per taker with a demo roadmap assigned (bulk SQL) and an access token each. Then, for each
 * setting, it starts the server processes (server/main.ts, NODE_ENV=production, one DATA_DIR and one
 * JWT_SECRET, DATABASE_POOL_SIZE 10 each) and the balancer (bench/support/balancer.mjs, its own process:
 * round robin, keep-alive), and measures from this process with undici:
 *   - the test-taking mix: --takers closed loops, no pause, each creating a ROADMAP test link
 *     (POST /testlink/create), starting it (PUT /testlink/verify/{id}), saving 5 answers
 *     (PUT /testlink/{id}/answer) and submitting 20 (POST /testlink/evaluvate/v2);
 *   - the authenticated read: --readers closed loops of GET /user/me.
 * The baseline, in the same run: one process answering directly, without the balancer. For each setting
 * it prints throughput, p50/p99 per call, the CPU time per request of the servers, PostgreSQL, the
 * balancer and this process (from /proc), and the load averages before and after. On a machine with
 * fewer cores than processes + PostgreSQL + balancer + load, more processes only share the same cores:
 * read the CPU per request and the ratio, not the absolute figures.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';
import { TokenService } from '../server/auth/tokens';
import { loadConfig } from '../server/config';
import { openDatabase } from '../server/db/client';
import { seed } from '../server/db/seed';
import { attemptHeaders, newAttemptToken } from '../shared/rules/attempt-token';
import { cpuSeconds } from './support/cpu';
import { helpOnRequest, loadNow, percentile, progressLog, round1, runBench } from './support/figures';
import { makeLearners, roadmapsWithQuestions } from './support/learners';
import {
  freePort,
  serverEnv,
  startPostgres,
  startServer,
  stopOnInterrupt,
  stopProcess,
} from './support/server';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const { values: opts } = parseArgs({
  options: {
    processes: { type: 'string', default: '1,2,3' },
    takers: { type: 'string', default: '40' },
    readers: { type: 'string', default: '50' },
    seconds: { type: 'string', default: '15' },
    warmup: { type: 'string', default: '3' },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});
helpOnRequest(opts.help, import.meta.url);
const COUNTS = opts.processes.split(',').map(Number);
const TAKERS = Number(opts.takers);
const READERS = Number(opts.readers);
const SECONDS = Number(opts.seconds);
const WARMUP = Number(opts.warmup);

const log = progressLog(opts.json);

interface TakerQuestion {
  _id: string;
  questionType: string;
  options: { _id: string }[];
}

/** An answer as the taker page sends it (right or wrong does not matter here). */
function answerOf(q: TakerQuestion) {
  if (q.questionType === 'FILL_IN_BLANK') return { questionId: q._id, answer: 'an answer' };
  const first = q.options[0]?._id ?? '';
  return { questionId: q._id, answerId: q.questionType.startsWith('MSQ') ? [first] : first };
}

type Kind = 'create' | 'start' | 'answer' | 'evaluate' | 'read';

interface Measured {
  setting: string;
  processes: number;
  balancer: boolean;
  phase: 'mix' | 'read';
  seconds: number;
  requests: number;
  perSecond: number;
  testsPerSecond?: number;
  errors: Record<string, number>;
  ms: Partial<Record<Kind, { p50: number; p99: number; n: number }>>;
  cpuMsPerRequest: { servers: number; postgres: number; balancer: number | null; bench: number };
  load: { before: string; after: string };
}

async function main() {
  const pg = await startPostgres({
    database: 'waymark_bench_scale',
    settings: { shared_buffers: '256MB', max_wal_size: '4GB', checkpoint_timeout: '30min' },
  });
  const dataDir = join(root, '.tmp', `bench-scale-${process.pid}`);
  mkdirSync(dataDir, { recursive: true });
  const children = new Set<ChildProcess>();
  const stop = async (child: ChildProcess) => {
    await stopProcess(child);
    children.delete(child);
  };
  const stopAll = async () => {
    for (const c of [...children]) await stop(c);
    await pg.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  stopOnInterrupt(stopAll);

  try {
    log('seeding the demo content and making the learners …');
    const database = await openDatabase({ databaseUrl: pg.url, poolSize: 4 });
    await seed(database.db, {});
    const roadmaps = await roadmapsWithQuestions(database.db);
    const learners = await makeLearners(
      database.db,
      TAKERS + READERS,
      roadmaps.map((r) => r.id),
    );
    const env = await serverEnv({ databaseUrl: pg.url, dataDir });
    const tokens = new TokenService(database.db, loadConfig({ ...env, NODE_ENV: 'test' }));
    const tokenOf: string[] = [];
    for (const l of learners) tokenOf.push((await tokens.issue({ id: l.id, role: 'USER' }, 'WEB_APP')).token);
    await database.close();

    /** A server process, tracked so stopAll ends it whatever happens. */
    async function startOne() {
      const server = await startServer(env, { timeoutMs: 150_000 });
      children.add(server.child);
      return server;
    }

    const results: Measured[] = [];
    const settings = [
      { processes: 1, balancer: false },
      ...COUNTS.map((n) => ({ processes: n, balancer: true })),
    ];
    for (const setting of settings) {
      const name = `${setting.processes} process${setting.processes > 1 ? 'es' : ''}${setting.balancer ? ' behind the balancer' : ', direct (baseline)'}`;
      log(`\n${name}: starting …`);
      const servers = await Promise.all(Array.from({ length: setting.processes }, () => startOne()));
      let balancer: ChildProcess | null = null;
      let port = servers[0]!.port;
      if (setting.balancer) {
        port = await freePort();
        balancer = spawn(
          process.execPath,
          [
            join(root, 'bench/support/balancer.mjs'),
            '--port',
            String(port),
            '--to',
            servers.map((s) => s.port).join(','),
          ],
          { stdio: ['ignore', 'pipe', 'inherit'] },
        );
        children.add(balancer);
        await new Promise<void>((done) => balancer!.stdout!.once('data', () => done()));
      }
      const base = `http://127.0.0.1:${port}/api`;
      const agent = new Agent({ connections: Math.max(TAKERS, READERS), keepAliveTimeout: 30_000 });

      async function call(
        kind: Kind,
        method: 'GET' | 'POST' | 'PUT',
        path: string,
        token: string,
        record: (kind: Kind, ms: number, status: number) => void,
        body?: unknown,
        /** The attempt token of a test's start and writes (decision 031). */
        attempt?: string,
      ) {
        const t0 = performance.now();
        let status = 0;
        let json: unknown = null;
        try {
          const res = await request(`${base}${path}`, {
            method,
            headers: {
              authorization: `Bearer ${token}`,
              ...attemptHeaders(attempt),
              ...(body === undefined ? {} : { 'content-type': 'application/json' }),
            },
            body: body === undefined ? undefined : JSON.stringify(body),
            dispatcher: agent,
          });
          json = await res.body.json().catch(() => null);
          status = res.statusCode;
        } catch {
          status = 0;
        }
        record(kind, performance.now() - t0, status);
        return status === 200 ? json : null;
      }

      /** One taker: create, start, 5 autosaves, evaluate; again until the time is up. */
      const taker =
        (
          i: number,
          until: number,
          record: (kind: Kind, ms: number, status: number) => void,
          done: () => void,
        ) =>
        async () => {
          const token = tokenOf[i]!;
          while (performance.now() < until) {
            const created = (await call('create', 'POST', '/testlink/create', token, record, {
              type: 'ROADMAP',
              assignedRoadmapId: learners[i]!.assigned_id,
            })) as { data: { testLinkId: string } } | null;
            if (!created) continue;
            const id = created.data.testLinkId;
            const attempt = newAttemptToken();
            const started = (await call(
              'start',
              'PUT',
              `/testlink/verify/${id}`,
              token,
              record,
              undefined,
              attempt,
            )) as {
              data: { questions: { questions: TakerQuestion[] } };
            } | null;
            if (!started) continue;
            const answers = started.data.questions.questions.map(answerOf);
            for (const a of answers.slice(0, 5))
              await call('answer', 'PUT', `/testlink/${id}/answer`, token, record, a, attempt);
            if (
              await call(
                'evaluate',
                'POST',
                '/testlink/evaluvate/v2',
                token,
                record,
                { linkId: id, answers },
                attempt,
              )
            )
              done();
          }
        };
      const reader =
        (i: number, until: number, record: (kind: Kind, ms: number, status: number) => void) => async () => {
          const token = tokenOf[TAKERS + i]!;
          while (performance.now() < until) await call('read', 'GET', '/user/me', token, record);
        };

      async function measure(phase: 'mix' | 'read', seconds: number, keep: boolean) {
        const lat = new Map<Kind, number[]>();
        const errors: Record<string, number> = {};
        let tests = 0;
        const record = (kind: Kind, ms: number, status: number) => {
          if (status === 200) {
            const list = lat.get(kind) ?? [];
            list.push(ms);
            lat.set(kind, list);
          } else errors[`${kind} ${status}`] = (errors[`${kind} ${status}`] ?? 0) + 1;
        };
        const serverPids = servers.map((s) => s.child.pid!);
        const before = {
          load: loadNow(),
          servers: cpuSeconds(serverPids) ?? 0,
          pg: cpuSeconds([pg.pid]) ?? 0,
          balancer: balancer ? (cpuSeconds([balancer.pid!]) ?? 0) : 0,
          bench: process.cpuUsage(),
        };
        const t0 = performance.now();
        const until = t0 + seconds * 1000;
        const loops =
          phase === 'mix'
            ? Array.from({ length: TAKERS }, (_, i) => taker(i, until, record, () => tests++)())
            : Array.from({ length: READERS }, (_, i) => reader(i, until, record)());
        await Promise.all(loops);
        const elapsed = (performance.now() - t0) / 1000;
        if (!keep) return;
        const requests = [...lat.values()].reduce((a, l) => a + l.length, 0);
        const per = (s: number) => round1((s * 1000) / Math.max(1, requests));
        const benchCpu = process.cpuUsage(before.bench);
        const ms: Measured['ms'] = {};
        for (const [kind, list] of lat) {
          const s = list.sort((a, b) => a - b);
          ms[kind] = { p50: round1(percentile(s, 50)), p99: round1(percentile(s, 99)), n: s.length };
        }
        const m: Measured = {
          setting: name,
          processes: setting.processes,
          balancer: setting.balancer,
          phase,
          seconds: round1(elapsed),
          requests,
          perSecond: Math.round(requests / elapsed),
          ...(phase === 'mix' ? { testsPerSecond: round1(tests / elapsed) } : {}),
          errors,
          ms,
          cpuMsPerRequest: {
            servers: per((cpuSeconds(serverPids) ?? 0) - before.servers),
            postgres: per((cpuSeconds([pg.pid]) ?? 0) - before.pg),
            balancer: balancer ? per((cpuSeconds([balancer.pid!]) ?? 0) - before.balancer) : null,
            bench: per((benchCpu.user + benchCpu.system) / 1e6),
          },
          load: { before: before.load, after: loadNow() },
        };
        results.push(m);
        log(
          `  ${phase}: ${m.perSecond} req/s${m.testsPerSecond !== undefined ? ` (${m.testsPerSecond} tests/s)` : ''}, ` +
            Object.entries(ms)
              .map(([k, v]) => `${k} p50 ${v.p50} / p99 ${v.p99} ms`)
              .join(', ') +
            `; CPU ms/request servers ${m.cpuMsPerRequest.servers}, PostgreSQL ${m.cpuMsPerRequest.postgres}` +
            `${balancer ? `, balancer ${m.cpuMsPerRequest.balancer}` : ''}, bench ${m.cpuMsPerRequest.bench}; ` +
            `errors ${JSON.stringify(errors)}; load ${m.load.before} → ${m.load.after}`,
        );
      }

      await measure('mix', WARMUP, false);
      await measure('mix', SECONDS, true);
      await measure('read', Math.min(WARMUP, 2), false);
      await measure('read', SECONDS, true);
      await agent.close();
      if (balancer) await stop(balancer);
      for (const s of servers) await stop(s.child);
    }

    const machine = {
      cpus: cpus().length,
      model: cpus()[0]?.model,
      memoryGiB: Math.round(totalmem() / 2 ** 30),
      node: process.version,
    };
    if (opts.json) {
      console.log(
        JSON.stringify({ machine, takers: TAKERS, readers: READERS, seconds: SECONDS, results }, null, 2),
      );
      return;
    }
    console.log(
      `\nMachine: ${machine.cpus} cores (${machine.model}), ${machine.memoryGiB} GiB, Node ${machine.node}; ${TAKERS} takers, ${READERS} readers, ${SECONDS} s a phase`,
    );
    console.log(
      '\n| setting | mix req/s | tests/s | evaluate p99 | answer p99 | read req/s | read p99 | CPU ms/req (mix: servers + PG + balancer) | load before → after |',
    );
    console.log('|---|---|---|---|---|---|---|---|---|');
    const mixBase = results.find((r) => r.phase === 'mix' && !r.balancer);
    const readBase = results.find((r) => r.phase === 'read' && !r.balancer);
    for (const mix of results.filter((r) => r.phase === 'mix')) {
      const read = results.find((r) => r.phase === 'read' && r.setting === mix.setting)!;
      const c = mix.cpuMsPerRequest;
      console.log(
        `| ${mix.setting} | ${mix.perSecond} (${(mix.perSecond / mixBase!.perSecond).toFixed(2)}×) | ${mix.testsPerSecond} | ${mix.ms.evaluate?.p99 ?? '-'} ms | ${mix.ms.answer?.p99 ?? '-'} ms | ${read.perSecond} (${(read.perSecond / readBase!.perSecond).toFixed(2)}×) | ${read.ms.read?.p99 ?? '-'} ms | ${c.servers} + ${c.postgres}${c.balancer === null ? '' : ` + ${c.balancer}`} | ${mix.load.before} → ${read.load.after} |`,
      );
    }
    const failed = results.filter((r) => Object.keys(r.errors).length);
    if (failed.length)
      console.log(
        `\nErrors: ${failed.map((r) => `${r.setting} ${r.phase} ${JSON.stringify(r.errors)}`).join('; ')}`,
      );
  } finally {
    await stopAll();
  }
}

runBench(main);
