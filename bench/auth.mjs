#!/usr/bin/env node
/**
 * The sign-in exchange and an authenticated read under load, on PGlite and on PostgreSQL.
 *
 *   node bench/auth.mjs [--duration 15] [--connections 50] [--accounts 200] [--db pglite,postgres]
 *                       [--calls signin,me,health] [--pool 10] [--profile] [--json file]
 *
 * It starts everything itself: the Firebase Auth emulator (scripts/emulator.mjs), a throwaway PostgreSQL
 * cluster (scripts/pg.mjs), and for each database the real server (`server/main.ts`, NODE_ENV=production,
 * sign-in rate limit raised for the run) in its own process with a fresh DATA_DIR. It creates N verified
 * e-mail/password accounts on the emulator and takes their ID tokens, registers each person once, then
 * measures with autocannon (in this process, so it never shares an event loop with the server):
 *   (a) POST /api/login/sign-in-with-firebase   a fresh ID token exchanged for Waymark's tokens
 *   (b) GET  /api/user/me                       an authenticated read
 *   (c) GET  /api/health                        the baseline: the same server and one database round
 *                                               trip (`select 1`), no token — so (b) ÷ (c) is what
 *                                               authenticating a request costs, whatever the machine's load
 * Each measurement follows a short warm-up. --profile writes a V8 CPU profile of each server to
 * .tmp/bench-profiles/ and prints where its time went.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { startEmulator } from '../scripts/emulator.mjs';
import { startPostgres } from '../scripts/pg.mjs';
import { freePort } from '../scripts/service.mjs';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const argv = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1] : fallback;
};
if (argv.includes('--help')) {
  console.log(readFileSync(fileURLToPath(import.meta.url), 'utf8').split('*/')[0]);
  process.exit(0);
}
const DURATION = Number(opt('duration', 15));
const WARMUP = Number(opt('warmup', 3));
const CONNECTIONS = Number(opt('connections', 50));
const ACCOUNTS = Number(opt('accounts', 200));
const DATABASES = opt('db', 'pglite,postgres').split(',');
const POOL = opt('pool', undefined);
const CALLS = opt('calls', 'signin,me,health').split(',');
const PROFILE = argv.includes('--profile');
const JSON_OUT = opt('json', undefined);
const PROJECT = 'demo-waymark';
const log = (m) => console.error(`[bench] ${m}`);

const cleanups = [];
async function cleanup() {
  while (cleanups.length) {
    try {
      await cleanups.pop()();
    } catch (err) {
      log(`clean-up: ${err.message}`);
    }
  }
}
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.once(sig, async () => {
    await cleanup();
    process.exit(130);
  });
}

async function waitFor(url, ms) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer within ${ms / 1000} s`);
}

/** Runs `fn` over items with bounded concurrency. */
async function pool(items, n, fn) {
  const out = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i], i);
      }
    }),
  );
  return out;
}

function emulatorRest(host) {
  const base = `http://${host}/identitytoolkit.googleapis.com/v1`;
  const post = async (path, body, owner = false) => {
    const res = await fetch(`${base}${path}?key=demo-api-key`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(owner ? { authorization: 'Bearer owner' } : {}) },
      body: JSON.stringify(body),
    });
    const json = await res.json();
    if (!res.ok) throw new Error(`${path}: ${JSON.stringify(json)}`);
    return json;
  };
  return {
    async verifiedAccount(i) {
      const email = `bench-${Date.now().toString(36)}-${i}@example.com`;
      const password = `Bench#${randomBytes(4).toString('hex')}`;
      const { localId } = await post('/accounts:signUp', { email, password });
      await post(`/projects/${PROJECT}/accounts:update`, { localId, emailVerified: true }, true);
      const { idToken } = await post('/accounts:signInWithPassword', {
        email,
        password,
        returnSecureToken: true,
      });
      return { email, idToken };
    },
  };
}

async function startServer(kind, { emulatorHost, databaseUrl }) {
  const port = await freePort();
  const dataDir = mkdtempSync(join(root, '.tmp', `bench-${kind}-`));
  cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  const profileDir = join(root, '.tmp', 'bench-profiles', kind);
  if (PROFILE) {
    rmSync(profileDir, { recursive: true, force: true });
    mkdirSync(profileDir, { recursive: true });
  }
  const args = [
    ...(PROFILE ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : []),
    '--import',
    'tsx',
    'server/main.ts',
  ];
  const child = spawn(process.execPath, args, {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      ...(POOL ? { DATABASE_POOL_SIZE: POOL } : {}),
      FIREBASE_PROJECT_ID: PROJECT,
      FIREBASE_AUTH_EMULATOR_HOST: emulatorHost,
      JWT_SECRET: randomBytes(48).toString('base64url'),
      RATE_LIMIT_AUTH: '100000000',
      RATE_LIMIT_STRICT: '100000000',
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'false',
      PAYMENTS_SANDBOX: 'true',
      MAIL_OUTBOX_ONLY: 'true',
      STATIC_DIR: join(dataDir, 'no-static'),
    },
  });
  const exited = new Promise((done) => child.once('exit', done));
  const stop = async () => {
    if (child.exitCode !== null) return;
    child.kill('SIGTERM');
    const t = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(t);
  };
  cleanups.push(stop);
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/api/health`, 120_000);
  return { url, stop, profileDir, pid: child.pid };
}

function cannon(opts) {
  return new Promise((done, fail) => {
    const instance = autocannon(opts, (err, result) => (err ? fail(err) : done(result)));
    autocannon.track(instance, {
      renderProgressBar: false,
      renderResultsTable: false,
      renderLatencyTable: false,
    });
  });
}

/** A load of one call; `setup(i)` gives the request for the i-th request (cycling through the people). */
async function measure(url, name, request, seconds) {
  let i = 0;
  const result = await cannon({
    url,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [{ ...request(0), setupRequest: (req) => ({ ...req, ...request(i++) }) }],
  });
  return {
    call: name,
    requests: result.requests.total,
    rps: result.requests.average,
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    max: result.latency.max,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

/** The functions where a CPU profile spent most of its self time. */
function topOfProfile(dir, n = 18) {
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) return [];
  const profile = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  const self = new Map();
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const dt = profile.timeDeltas;
  for (let k = 0; k < profile.samples.length; k++) {
    const node = byId.get(profile.samples[k]);
    const f = node.callFrame;
    const where = f.url
      ? `${f.url.replace(`file://${root}/`, '').replace(/.*node_modules\//, '')}:${f.lineNumber + 1}`
      : '';
    const key = `${f.functionName || '(anonymous)'} ${where}`.trim();
    self.set(key, (self.get(key) ?? 0) + (dt[k] ?? 0));
  }
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  return [...self.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([fn, us]) => ({ fn, share: `${((us / total) * 100).toFixed(1)}%` }));
}

const fmt = (v) => (typeof v === 'number' ? (Number.isInteger(v) ? String(v) : v.toFixed(1)) : String(v));

async function main() {
  log(
    `machine: ${cpus().length} × ${cpus()[0]?.model}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}`,
  );
  const emulator = await startEmulator({ projectId: PROJECT, log });
  cleanups.push(() => emulator.stop());
  const rest = emulatorRest(emulator.host);
  log(`creating ${ACCOUNTS} verified accounts and their ID tokens`);
  const people = await pool(
    Array.from({ length: ACCOUNTS }, (_, i) => i),
    10,
    (i) => rest.verifiedAccount(i),
  );

  const rows = [];
  const profiles = {};
  for (const kind of DATABASES) {
    let databaseUrl;
    if (kind === 'postgres') {
      const pg = await startPostgres({ database: 'waymark_bench', log });
      cleanups.push(() => pg.stop());
      databaseUrl = pg.url;
    } else if (kind !== 'pglite') {
      throw new Error(`Unknown database ${kind} (pglite or postgres)`);
    }
    const server = await startServer(kind, { emulatorHost: emulator.host, databaseUrl });
    log(`${kind}: server at ${server.url}; registering the people`);
    const tokens = await pool(people, 10, async (p) => {
      const res = await fetch(`${server.url}/api/login/sign-in-with-firebase`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token: p.idToken, role: 'USER' }),
      });
      if (!res.ok) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
      return (await res.json()).data.token;
    });

    const signIn = (i) => ({
      method: 'POST',
      path: '/api/login/sign-in-with-firebase',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: people[i % people.length].idToken }),
    });
    const me = (i) => ({
      method: 'GET',
      path: '/api/user/me',
      headers: { authorization: `Bearer ${tokens[i % tokens.length]}` },
    });

    const health = () => ({ method: 'GET', path: '/api/health' });
    const calls = {
      signin: ['POST /api/login/sign-in-with-firebase', signIn],
      me: ['GET /api/user/me', me],
      health: ['GET /api/health (baseline)', health],
    };
    for (const [name, request] of CALLS.map((c) => calls[c]).filter(Boolean)) {
      log(`${kind}: ${name} — warm-up ${WARMUP} s, then ${DURATION} s with ${CONNECTIONS} connections`);
      await measure(server.url, name, request, WARMUP);
      const row = {
        database: kind === 'pglite' ? 'PGlite' : 'PostgreSQL 15',
        ...(await measure(server.url, name, request, DURATION)),
      };
      rows.push(row);
      log(
        `${row.database} ${name}: ${fmt(row.rps)} req/s, p50 ${row.p50} ms, p90 ${row.p90} ms, p99 ${row.p99} ms, errors ${row.errors}`,
      );
    }
    await server.stop();
    if (PROFILE) profiles[kind] = topOfProfile(server.profileDir);
  }

  const header = ['database', 'call', 'req/s', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms', 'errors'];
  const table = rows.map((r) => [
    r.database,
    r.call,
    fmt(r.rps),
    fmt(r.p50),
    fmt(r.p90),
    fmt(r.p99),
    fmt(r.max),
    fmt(r.errors),
  ]);
  const widths = header.map((h, c) => Math.max(h.length, ...table.map((t) => t[c].length)));
  const line = (cells) =>
    `| ${cells.map((v, c) => (c < 2 ? v.padEnd(widths[c]) : v.padStart(widths[c]))).join(' | ')} |`;
  console.log(
    `\n${CONNECTIONS} connections, ${DURATION} s per call after a ${WARMUP} s warm-up, ${ACCOUNTS} people\n`,
  );
  console.log(line(header));
  console.log(`|${widths.map((w, c) => (c < 2 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`);
  for (const t of table) console.log(line(t));
  for (const [kind, top] of Object.entries(profiles)) {
    console.log(`\nWhere the ${kind} server spent its CPU (self time, whole run):`);
    for (const t of top) console.log(`  ${t.share.padStart(6)}  ${t.fn}`);
  }
  const read = rows.find((r) => r.database.startsWith('PostgreSQL') && r.call.includes('/user/me'));
  if (read)
    console.log(
      `\nTarget: authenticated read p99 ≤ 20 ms on PostgreSQL — ${read.p99 <= 20 ? 'met' : 'missed'} (${read.p99} ms)`,
    );
  if (JSON_OUT)
    writeFileSync(
      JSON_OUT,
      JSON.stringify({ rows, profiles, connections: CONNECTIONS, duration: DURATION }, null, 2),
    );
}

try {
  await main();
} catch (err) {
  console.error(err);
  process.exitCode = 1;
} finally {
  await cleanup();
}
