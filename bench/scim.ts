/**
 * `npx tsx bench/scim.ts [--users 10000] [--concurrency 8] [--leavers 1000]` — issue 28's SCIM push: an
 * identity provider creating `--users` users, one request each, `--concurrency` at a time (Entra ID sends 8),
 * against the real server (its own process, NODE_ENV=production) on a throwaway PostgreSQL (scripts/pg.mjs);
 * then `--leavers` of them deactivated as Entra ID does it (PATCH `Replace active "False"`). The tenant is
 * subscribed for exactly `--users` seats. Each request is one transaction of the tenant's seat rules
 * (`addLearner` / `removeLearner` under the tenant's lock), so this measures the rule, not a copy of it.
 *
 * Prints the machine and its load, the wall time and request latency of each phase, and checks the seat
 * counts exactly from the database: every pushed user an account and a seat, every leaver's seat disabled
 * (subscribed: kept to the end of the paid cycle, as the portal does) and none other. Target: 10,000 users
 * within 5 minutes.
 */
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { Agent, request } from 'undici';
import { rowsOf } from '../server/db/helpers';
import { createScimToken } from '../server/integrations/scim/tokens';
import { FREE_SEATS } from '../shared/rules/seats';
import { benchStack, machineLine } from './support/cli';
import { helpOnRequest, latency, loadNow, progressLog, round1, runBench } from './support/figures';
import { subscribedTenant } from './support/learners';
import { serverEnv, startServer } from './support/server';

const { values: args } = parseArgs({
  options: {
    users: { type: 'string', default: '10000' },
    concurrency: { type: 'string', default: '8' },
    leavers: { type: 'string', default: '1000' },
    help: { type: 'boolean', default: false },
  },
});
helpOnRequest(args.help, import.meta.url);
const USERS = Number(args.users);
const CONCURRENCY = Number(args.concurrency);
const LEAVERS = Math.min(Number(args.leavers), USERS);
const log = progressLog();

/**
 * Runs `count` requests, `concurrency` at a time; their latencies (ms), the failures, and how many were
 * answered 429 and sent again after Retry-After, as Entra ID and Okta do (the SCIM token's rate limit).
 */
async function phase(count: number, send: (i: number) => Promise<{ status: number; retryAfter: number }>) {
  const times: number[] = [];
  const failures: string[] = [];
  let throttled = 0;
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) {
        const i = next++;
        const t = performance.now();
        let answer = await send(i);
        while (answer.status === 429) {
          throttled++;
          await new Promise((r) => setTimeout(r, Math.max(1, answer.retryAfter) * 1000));
          answer = await send(i);
        }
        const { status } = answer;
        times.push(performance.now() - t);
        if (status >= 300) failures.push(`#${i}: ${status}`);
        if ((i + 1) % 1000 === 0) log(`  ${i + 1} / ${count}`);
      }
    }),
  );
  return { wall: (performance.now() - start) / 1000, times, failures, throttled };
}

async function main() {
  const stack = await benchStack('scim');
  const { pg, dataDir } = stack;
  const { db } = stack.database;
  console.log(machineLine());
  try {
    const tenant = { id: await subscribedTenant(db, 'scim', USERS, FREE_SEATS) };
    const actor = {
      kind: 'person' as const,
      id: tenant.id,
      label: 'Bench Mentor',
      ip: null,
      userAgent: null,
    };
    const { token } = await createScimToken(db, tenant.id, actor, { name: 'Entra ID (bench)' });
    const env = await serverEnv({ databaseUrl: pg.url, dataDir });
    const server = await startServer(env);
    stack.server = server;
    const dispatcher = new Agent({ connections: CONCURRENCY, pipelining: 1 });
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/scim+json' };
    const ids: string[] = new Array(USERS);
    console.log(`load before: ${loadNow()}`);

    log(`POST /scim/v2/Users: ${USERS} users, ${CONCURRENCY} at a time …`);
    const push = await phase(USERS, async (i) => {
      const email = `employee-${i + 1}@bench.example`;
      const res = await request(`${server.url}/scim/v2/Users`, {
        method: 'POST',
        dispatcher,
        headers,
        body: JSON.stringify({
          schemas: [
            'urn:ietf:params:scim:schemas:core:2.0:User',
            'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User',
          ],
          externalId: `entra-${i + 1}`,
          userName: email,
          active: true,
          emails: [{ primary: true, type: 'work', value: email }],
          name: { givenName: 'Employee', familyName: String(i + 1), formatted: `Employee ${i + 1}` },
          'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': { department: 'Bench' },
        }),
      });
      const body = (await res.body.json()) as { id?: string };
      if (res.statusCode < 300) ids[i] = body.id ?? '';
      return { status: res.statusCode, retryAfter: Number(res.headers['retry-after'] ?? 1) };
    });

    log(`PATCH active "False": ${LEAVERS} leavers …`);
    const leave = await phase(LEAVERS, async (i) => {
      const res = await request(`${server.url}/scim/v2/Users/${ids[i]}`, {
        method: 'PATCH',
        dispatcher,
        headers,
        body: JSON.stringify({
          schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
          Operations: [{ op: 'Replace', path: 'active', value: 'False' }],
        }),
      });
      await res.body.dump();
      return { status: res.statusCode, retryAfter: Number(res.headers['retry-after'] ?? 1) };
    });
    console.log(`load after: ${loadNow()}`);

    const [counts] = rowsOf<{
      accounts: number;
      seats: number;
      active: number;
      disabled: number;
      scim: number;
    }>(
      await db.execute(sql`
        select
          (select count(*)::int from users where email like 'employee-%@bench.example') as accounts,
          (select count(*)::int from tenant_users where tenant_id = ${tenant.id}) as seats,
          (select count(*)::int from tenant_users where tenant_id = ${tenant.id} and not is_disabled) as active,
          (select count(*)::int from tenant_users where tenant_id = ${tenant.id} and is_disabled) as disabled,
          (select count(*)::int from scim_users where tenant_id = ${tenant.id} and active) as scim`),
    );
    for (const [name, p, n] of [
      ['create', push, USERS],
      ['deactivate', leave, LEAVERS],
    ] as const) {
      const l = latency(p.times);
      console.log(
        `${name}: ${n} requests in ${round1(p.wall)} s (${round1(n / p.wall)}/s), latency ms p50 ${l.p50} p95 ${l.p95} p99 ${l.p99} max ${l.max}; failures ${p.failures.length}${p.failures.length ? ` (${p.failures.slice(0, 5).join(', ')})` : ''}; 429s retried after Retry-After ${p.throttled}`,
      );
    }
    const exact =
      counts!.accounts === USERS &&
      counts!.seats === USERS &&
      counts!.active === USERS - LEAVERS &&
      counts!.disabled === LEAVERS &&
      counts!.scim === USERS - LEAVERS;
    console.log(
      `seats: ${counts!.accounts} accounts, ${counts!.seats} seats (${counts!.active} active, ${counts!.disabled} disabled to the cycle's end), ${counts!.scim} active SCIM users — ${exact ? 'exact' : 'WRONG'}`,
    );
    console.log(
      `target: ${USERS} users within 300 s — ${push.wall <= 300 ? 'met' : 'missed'} (${round1(push.wall)} s)`,
    );
    await dispatcher.close();
    if (!exact || push.failures.length || leave.failures.length) process.exitCode = 1;
  } finally {
    await stack.stop();
  }
}

runBench(main);
