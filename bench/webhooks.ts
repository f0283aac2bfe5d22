/**
 * `npx tsx bench/webhooks.ts [--events 10000] [--endpoints 10] [--rate 1000]` — issue 29's webhook
 * deliveries: `--events` events committed at `--rate` a second (batches of 50 every 50 ms at the default),
 * split evenly over `--endpoints` tenants with one endpoint each (each event to one endpoint), sent by the
 * real server (its own process, on a throwaway PostgreSQL from scripts/pg.mjs) to receivers in this process
 * that verify every delivery with the Standard Webhooks' own library (`standardwebhooks`). The last endpoint
 * fails half its requests: it answers 503 to the first attempt of every event and 204 to the retry (which
 * comes 5 s later, the schedule's first step), so every one of its events is delivered on the second try.
 *
 * The events are written as the outbox holds them (`insert into events`: the statement's trigger makes the
 * deliveries, decision 042), by this bench, so the server's work is the sending alone. Before that, the same
 * events at the same rate for tenants with no endpoint: the baseline, in the same run, on the same server.
 * The server's CPU (and PostgreSQL's) is read from /proc over each phase, from the first commit until the
 * last delivery was received (the baseline: for as long).
 *
 * The server runs with NODE_ENV=development: production refuses plain http to this machine (decision 030),
 * and the receivers are on this machine. Prints the machine and its load, the delivery rate, the latency
 * from an event's commit to its receipt (p50/p95/p99/max; the failing endpoint's apart: its retry waits
 * 5 s), every event received and verified once (deduplicated by webhook-id), and the CPU of the server
 * and of PostgreSQL in both phases. Target: everything delivered within 2 minutes.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { rowsOf } from '../server/db/helpers';
import { systemActor } from '../server/integrations/core/principal';
import { SecretBox } from '../server/integrations/core/sealed';
import { createEndpoint } from '../server/integrations/webhooks/service';
import { EVENT_CATALOGUE } from '../shared/contract/events';
import { type BenchStack, benchStack, machineLine } from './support/cli';
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
import { serverEnv, startServer } from './support/server';

const { values: args } = parseArgs({
  options: {
    events: { type: 'string', default: '10000' },
    endpoints: { type: 'string', default: '10' },
    rate: { type: 'string', default: '1000' },
    help: { type: 'boolean', default: false },
  },
});
helpOnRequest(args.help, import.meta.url);
const EVENTS = Number(args.events);
const ENDPOINTS = Number(args.endpoints);
const RATE = Number(args.rate);
const BATCH = 50;
const TARGET_S = 120;
const log = progressLog();

/** A receiver verifying each delivery: when each event first arrived, and how many requests it got. */
interface Receiver {
  server: Server;
  url: string;
  secret: string;
  firstSeen: Map<string, number>;
  requests: number;
  refused: number;
  unverified: number;
}

async function startReceiver(failing: boolean): Promise<Receiver> {
  const r: Receiver = {
    server: createServer(),
    url: '',
    secret: '',
    firstSeen: new Map(),
    requests: 0,
    refused: 0,
    unverified: 0,
  };
  const attempted = new Set<string>();
  r.server.on('request', (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      r.requests += 1;
      const id = String(req.headers['webhook-id']);
      try {
        new Webhook(r.secret).verify(
          Buffer.concat(chunks).toString('utf8'),
          req.headers as Record<string, string>,
        );
      } catch {
        r.unverified += 1;
        return void res.writeHead(400).end();
      }
      // the failing endpoint: every event's first attempt refused, its retry taken
      if (failing && !attempted.has(id)) {
        attempted.add(id);
        r.refused += 1;
        return void res.writeHead(503).end();
      }
      if (!r.firstSeen.has(id)) r.firstSeen.set(id, Date.now());
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => r.server.listen(0, '127.0.0.1', resolve));
  r.url = `http://127.0.0.1:${(r.server.address() as AddressInfo).port}/waymark`;
  return r;
}

type Db = BenchStack['database']['db'];
const PAYLOAD = JSON.stringify(EVENT_CATALOGUE['seat.added'].versions[1].example);
const uuids = (ids: string[]) => `{${ids.join(',')}}`;

/** `ENDPOINTS` tenants (mentors): their ids. */
async function tenants(db: Db, prefix: string): Promise<string[]> {
  return rowsOf<{ id: string }>(
    await db.execute(sql`
      insert into users (firebase_uid, email, email_verified, role, name, is_first_login, is_profile_completed)
      select ${prefix} || i, ${prefix} || i || '@bench.local', true, 'TENANT', 'Bench Mentor ' || i, false, true
      from generate_series(1, ${ENDPOINTS}) i
      returning id`),
  ).map((r) => r.id);
}

/** Commits EVENTS events at RATE a second, in batches of BATCH, round robin over the tenants. */
async function emit(db: Db, to: string[]): Promise<void> {
  const start = performance.now();
  for (let sent = 0; sent < EVENTS; sent += BATCH) {
    const n = Math.min(BATCH, EVENTS - sent);
    await db.execute(sql`
      insert into events (tenant_id, type, version, payload)
      select (${uuids(to)}::uuid[])[1 + (i % ${to.length}::int)], 'seat.added', 1, ${PAYLOAD}::jsonb
      from generate_series(${sent}::int, ${sent + n - 1}::int) i`);
    const due = ((sent + n) / RATE) * 1000 - (performance.now() - start);
    if (due > 0) await sleep(due);
  }
}

/** The tenants, one endpoint each for the receivers (sealed with the server's key), and the server. */
async function setUp(stack: BenchStack, receivers: Receiver[]) {
  const { pg, dataDir } = stack;
  const { db } = stack.database;
  const key = (await serverEnv({ databaseUrl: pg.url, dataDir })).INTEGRATIONS_SECRET_KEY!;
  const env = await serverEnv({
    databaseUrl: pg.url,
    dataDir,
    settings: { NODE_ENV: 'development', INTEGRATIONS_SECRET_KEY: key },
  });
  const baselineTenants = await tenants(db, 'bench-hooks-none-');
  const hookedTenants = await tenants(db, 'bench-hooks-');
  const deps = {
    db,
    secrets: new SecretBox(Buffer.from(key, 'base64')),
    outbound: { allowLoopbackHttp: true },
  };
  for (const [i, tenantId] of hookedTenants.entries()) {
    const made = await createEndpoint(deps, tenantId, systemActor, {
      url: receivers[i]!.url,
      events: ['seat.added'],
      ordered: false,
    });
    receivers[i]!.secret = made.secret;
  }
  const server = await startServer(env);
  stack.server = server;
  const cpu = () => ({ server: cpuSeconds([server.pid]) ?? 0, pg: cpuSeconds([pg.pid]) ?? 0 });
  return { baselineTenants, hookedTenants, cpu };
}

/** The events to the endpoints, until every one is received (or the target and a minute more have passed). */
async function deliverAll(db: Db, to: string[], receivers: Receiver[], cpu: () => Cpu) {
  log(`webhooks: ${EVENTS} events at ${RATE}/s to ${ENDPOINTS} endpoints …`);
  const before = cpu();
  const start = performance.now();
  const startedAt = Date.now();
  // a failed commit ends the wait at once (and the bench, with the stack stopped)
  let failed: unknown = null;
  const emitting = emit(db, to).catch((err: unknown) => {
    failed = err;
  });
  const received = () => receivers.reduce((n, r) => n + r.firstSeen.size, 0);
  let shown = 0;
  while (received() < EVENTS && (performance.now() - start) / 1000 < TARGET_S + 60) {
    if (failed) throw failed;
    await sleep(200);
    if (received() < shown + 1000) continue;
    shown = received();
    log(`  ${shown} / ${EVENTS} received`);
  }
  await emitting;
  if (failed) throw failed;
  const wall = (performance.now() - start) / 1000;
  return { startedAt, wall, used: minus(cpu(), before), received: received() };
}

/** The same events at the same rate for tenants with no endpoint, measured for `seconds`. */
async function baseline(db: Db, to: string[], seconds: number, cpu: () => Cpu) {
  log(`baseline: ${EVENTS} events at ${RATE}/s for tenants with no endpoint, over ${round1(seconds)} s …`);
  const before = cpu();
  const start = performance.now();
  await emit(db, to);
  await sleep(Math.max(0, seconds * 1000 - (performance.now() - start)));
  return minus(cpu(), before);
}

interface Cpu {
  server: number;
  pg: number;
}
const minus = (a: Cpu, b: Cpu): Cpu => ({ server: a.server - b.server, pg: a.pg - b.pg });

/** Commit → receipt of each event (occurred_at, its transaction's time, to its first verified arrival). */
async function latencies(db: Db, hookedTenants: string[], receivers: Receiver[]) {
  const rows = rowsOf<{ id: string; tenant_id: string; at: Date | string }>(
    await db.execute(sql`
      select id, tenant_id, occurred_at as at from events where tenant_id = any(${uuids(hookedTenants)}::uuid[])`),
  );
  const byTenant = new Map(hookedTenants.map((t, i) => [t, receivers[i]!]));
  const healthy: number[] = [];
  const retried: number[] = [];
  let missing = 0;
  for (const e of rows) {
    const r = byTenant.get(e.tenant_id)!;
    const seen = r.firstSeen.get(e.id);
    if (seen === undefined) missing += 1;
    else (r === receivers.at(-1) ? retried : healthy).push(seen - new Date(e.at).getTime());
  }
  return { healthy: latency(healthy), retried: latency(retried), missing };
}

async function main() {
  const stack = await benchStack('webhooks');
  const { db } = stack.database;
  console.log(machineLine());
  const receivers = await Promise.all(
    Array.from({ length: ENDPOINTS }, (_, i) => startReceiver(i === ENDPOINTS - 1)),
  );
  try {
    const { baselineTenants, hookedTenants, cpu } = await setUp(stack, receivers);
    console.log(`load before: ${loadNow()}`);
    // the deliveries first: their length sets the baseline's
    const run = await deliverAll(db, hookedTenants, receivers, cpu);
    const base = await baseline(db, baselineTenants, run.wall, cpu);
    console.log(`load after: ${loadNow()}`);

    const lat = await latencies(db, hookedTenants, receivers);
    const [state] = rowsOf<{ delivered: number; other: number; attempts: number }>(
      await db.execute(sql`
        select count(*) filter (where status = 'DELIVERED')::int as delivered,
          count(*) filter (where status <> 'DELIVERED')::int as other, coalesce(sum(attempts), 0)::int as attempts
        from webhook_deliveries`),
    );
    const lastReceipt = Math.max(...receivers.flatMap((r) => [...r.firstSeen.values()]));
    const allIn = (lastReceipt - run.startedAt) / 1000;
    const requests = receivers.reduce((n, r) => n + r.requests, 0);
    const unverified = receivers.reduce((n, r) => n + r.unverified, 0);
    const failing = receivers.at(-1)!;
    const share = (s: number) => `${round1((s / run.wall) * 100)} % of a core`;
    const perEvent = (a: number, b: number) => round2(((a - b) / EVENTS) * 1000);
    const { healthy: l, retried: f } = lat;
    console.log(
      `events: ${EVENTS} committed at ${RATE}/s, ${EVENTS / ENDPOINTS} to each of ${ENDPOINTS} endpoints; ${run.received} received and verified once, ${lat.missing} missing, ${unverified} failing verification; deliveries ${state!.delivered} delivered, ${state!.other} not`,
    );
    console.log(
      `requests: ${requests} (the failing endpoint got ${failing.requests}, refused ${failing.refused}); attempts recorded ${state!.attempts}`,
    );
    console.log(
      `delivery: all received ${round1(allIn)} s after the first commit (${round1(run.received / allIn)} events/s); commit → receipt ms p50 ${l.p50} p95 ${l.p95} p99 ${l.p99} max ${l.max}; the failing endpoint's (on the retry) p50 ${f.p50} p95 ${f.p95} max ${f.max}`,
    );
    console.log(
      `CPU over ${round1(run.wall)} s: server ${round2(run.used.server)} s (${share(run.used.server)}) with the endpoints, ${round2(base.server)} s (${share(base.server)}) without; PostgreSQL ${round2(run.used.pg)} s with, ${round2(base.pg)} s without; sending costs the server ${perEvent(run.used.server, base.server)} ms and PostgreSQL ${perEvent(run.used.pg, base.pg)} ms of CPU an event`,
    );
    console.log(
      `target: ${EVENTS} events delivered within ${TARGET_S} s — ${allIn <= TARGET_S && !lat.missing ? 'met' : 'missed'} (${round1(allIn)} s)`,
    );
    if (lat.missing || unverified || run.received !== EVENTS) process.exitCode = 1;
  } finally {
    for (const r of receivers) r.server.close();
    await stack.stop();
  }
}

runBench(main);
