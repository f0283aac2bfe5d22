/**
 * What the HTTP stack costs a request, without a database behind it: a submission's request (20 answers,
 * the exam's POST /testlink/evaluvate/v2 body) answered with a submission's answer, at --connections at a
 * time through the exam bench's lean client, by three servers in turn, each in a process of its own:
 *
 * - `node:http` — Node's own server: the body read, JSON.parse, the contract's zod schema, the answer with
 *   the API's headers (the floor: what any Node HTTP server pays);
 * - `fastify` — a bare Fastify with one route (its default parser, no schema);
 * - `waymark` — Waymark's own app (`buildApp`, on an embedded PGlite in a temporary folder: every plugin,
 *   hook, the logger, the error handling, the security headers, CORS, shedding), with one more call served
 *   through `serveCall` as every contract call is — the body checked by the same schema, the answer
 *   written as the hot calls write theirs — whose handler answers at once instead of asking the database.
 *
 * It prints requests/s and CPU-ms per request of the server (from /proc) and of this process (the client),
 * --rounds times each, alternating, so the three are compared in the same minutes. The exam bench
 * (bench/exam-day.ts) measures the whole path; this one says how much of its server CPU the stack is.
 *
 *   npx tsx bench/http-stack.ts [--requests 30000] [--connections 50] [--rounds 3] [--json]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { evaluateTest } from '@shared/contract/assessments';
import type { CallDef } from '@shared/contract/define';
import { cpuSeconds } from './support/cpu';
import { helpOnRequest, loadNow } from './support/figures';
import { LeanAgent } from './support/lean-http';
import { pool } from './support/pool';
import { freePort, stopProcess } from './support/server';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const KINDS = ['node:http', 'fastify', 'waymark'] as const;
type Kind = (typeof KINDS)[number];
/** The one call the servers answer: the submission's shape, at a path of its own in Waymark's app. */
const PATH = '/api/bench/evaluation-shape';

const round4 = (v: number) => Math.round(v * 10_000) / 10_000;

/** A submission's answer as the route sends it (server/assessments/taking.ts, evaluated()). */
const ANSWER = {
  data: {
    linkId: 'V1StGXR8_Z5jdHi6B-myT',
    testType: 'CUSTOM-ASSESSMENT',
    points: 12,
    score: 12,
    percentage: 60,
    questionCount: 20,
    status: 'COMPLETED',
    certificateEligible: true,
  },
};

// ---- the servers (this file run as `serve KIND PORT`)

async function serveKind(kind: Kind, port: number) {
  if (kind === 'node:http') {
    const { API_HEADERS } = await import('../server/http/security-headers');
    const headers = Object.fromEntries([['content-type', 'application/json; charset=utf-8'], ...API_HEADERS]);
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        let ok = false;
        try {
          ok = evaluateTest.body!.safeParse(JSON.parse(Buffer.concat(chunks).toString())).success;
        } catch {
          // not JSON
        }
        const text = JSON.stringify(ok ? ANSWER : { statusCode: 400 });
        res.writeHead(ok ? 200 : 400, { ...headers, 'content-length': Buffer.byteLength(text) });
        res.end(text);
      });
    });
    server.listen(port, '127.0.0.1');
    return () => server.close();
  }
  if (kind === 'fastify') {
    const { default: Fastify } = await import('fastify');
    const app = Fastify({ logger: false });
    app.post(PATH, async () => ANSWER);
    await app.listen({ port, host: '127.0.0.1' });
    return () => app.close();
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'wm-http-stack-'));
  const { loadConfig } = await import('../server/config');
  const { openDatabase } = await import('../server/db/client');
  const { buildApp } = await import('../server/app');
  const { hot, serveCall } = await import('../server/http/routes');
  const config = loadConfig({
    ...process.env,
    NODE_ENV: 'development',
    PORT: String(port),
    DATA_DIR: dataDir,
    DATABASE_URL: undefined,
    FIREBASE_PROJECT_ID: 'waymark-bench',
    SEED_DEMO: 'false',
    LOG_LEVEL: 'info',
  });
  const database = await openDatabase({ pgliteDir: config.pgliteDir });
  const app = await buildApp({ config, database, logger: { level: 'info', stream: { write() {} } } });
  const call = { ...evaluateTest, path: '/bench/evaluation-shape' } satisfies CallDef;
  const answer = async () => ({ status: 200 as const, body: ANSWER as never });
  serveCall(app, call, hot(answer));
  await app.listen({ port, host: '127.0.0.1' });
  return async () => {
    await app.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
}

if (process.argv[2] === 'serve') {
  const stop = await serveKind(process.argv[3] as Kind, Number(process.argv[4]));
  process.stdout.write('ready\n');
  process.once('SIGTERM', () => void Promise.resolve(stop()).then(() => process.exit(0)));
} else {
  await measureAll();
}

// ---- the measurement

async function measureAll() {
  const { values: opts } = parseArgs({
    options: {
      requests: { type: 'string', default: '30000' },
      connections: { type: 'string', default: '50' },
      rounds: { type: 'string', default: '3' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  helpOnRequest(opts.help, import.meta.url);
  const requests = Number(opts.requests);
  const connections = Number(opts.connections);
  // 20 answers as the test page sends them: single choices, and multiple choices every third question
  const ids = Array.from(
    { length: 20 },
    (_, i) => `0190a${String(i).padStart(3, '0')}-0000-7000-8000-000000000000`,
  );
  const body = JSON.stringify({
    linkId: ANSWER.data.linkId,
    answers: ids.map((id, i) =>
      i % 3 === 0
        ? { questionId: id, answerId: [ids[(i + 1) % 20]!, ids[(i + 2) % 20]!] }
        : { questionId: id, answerId: ids[(i + 5) % 20]! },
    ),
  });
  const before = loadNow();
  const rows: { kind: Kind; round: number; perSecond: number; serverMs: number; clientMs: number }[] = [];
  for (let round = 1; round <= Number(opts.rounds); round++) {
    for (const kind of KINDS) {
      const port = await freePort();
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', fileURLToPath(import.meta.url), 'serve', kind, String(port)],
        {
          cwd: root,
          env: { ...process.env, NODE_ENV: 'production' },
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      await new Promise<void>((ready, fail) => {
        child.stdout!.once('data', () => ready());
        child.once('exit', (code) => fail(new Error(`the ${kind} server stopped (exit code ${code})`)));
      });
      const agent = new LeanAgent(`http://127.0.0.1:${port}`, { connections, timeoutMs: 10_000 });
      const send = async () => {
        const r = await agent.request('POST', PATH, 'content-type: application/json\r\n', body);
        if (r.status !== 200) throw new Error(`${kind}: ${r.status} ${r.text.slice(0, 200)}`);
      };
      // warm: the JIT, the connections
      await pool(Array.from({ length: Math.min(5000, requests) }), connections, send);
      const s0 = cpuSeconds([child.pid!]);
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      await pool(Array.from({ length: requests }), connections, send);
      const seconds = (performance.now() - t0) / 1000;
      const s1 = cpuSeconds([child.pid!]);
      const c = process.cpuUsage(c0);
      await agent.close();
      await stopProcess(child);
      rows.push({
        kind,
        round,
        perSecond: Math.round(requests / seconds),
        serverMs: round4(((s1! - s0!) * 1000) / requests),
        clientMs: round4((c.user + c.system) / 1000 / requests),
      });
    }
  }
  if (opts.json) {
    console.log(JSON.stringify({ load: `${before} → ${loadNow()}`, requests, connections, rows }, null, 2));
    return;
  }
  console.log(
    `\n${cpus().length} × ${cpus()[0]?.model.trim()}, Node ${process.versions.node}; load ${before} → ${loadNow()}`,
  );
  console.log(
    `a submission's request (20 answers, ${body.length} bytes) and answer, ${requests} requests at ${connections} at a time, no database\n`,
  );
  console.log('| server | round | requests/s | server CPU ms/request | client CPU ms/request |');
  console.log('|---|---|---|---|---|');
  for (const r of rows)
    console.log(`| ${r.kind} | ${r.round} | ${r.perSecond} | ${r.serverMs} | ${r.clientMs} |`);
}
