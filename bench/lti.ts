/**
 * `npx tsx bench/lti.ts [--rate 50] [--seconds 20] [--learners 200] [--scores 1000] [--fail-every 10]` —
 * issue 27's LTI figures against the mock platform (server/test/lti-platform.ts, in this process, real HTTP)
 * and the real server (its own process) on a throwaway PostgreSQL (scripts/pg.mjs):
 *
 * 1. Launches at `--rate` a second for `--seconds` (open loop: one starts every 1/rate s whatever the others
 *    do), each the whole way a browser in the LMS goes: the login initiation (GET /lti/login → 302 to the
 *    platform), the platform's id_token made (the platform's time, not counted), the launch (POST /lti/launch:
 *    the token checked against the platform's key set, the learner linked and seated → the launch page).
 *    Waymark's time is the two requests'. `--learners` learners, each launching again and again.
 * 2. `--scores` score posts: evaluations committed in the database (each learner's event, five graded links
 *    each), whose posts and pg-boss jobs the triggers write; the server's workers send them to the platform,
 *    which fails every `--fail-every`-th request. Timed from the commit to the last delivered; the platform's
 *    record is checked exactly: each (line item, learner) recorded once, none twice.
 *
 * Baselines in the same run: a bare HTTP round trip to the same server (GET /api/health) at the same rate,
 * and the id_token's verification alone in this process (jose, the key set local). The server runs with
 * NODE_ENV=development: the mock platform is plain http on loopback, which production refuses
 * (LTI_DEV_LOOPBACK). Targets: launch p99 ≤ 100 ms of Waymark's time at 50/s; 1,000 scores all delivered
 * exactly once within 60 s with one request in ten failing.
 */
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { Agent, request } from 'undici';
import { rowsOf } from '../server/db/helpers';
import { SCOPES } from '../server/integrations/lti/platform';
import { CLAIM, MockPlatform } from '../server/test/lti-platform';
import { FREE_SEATS } from '../shared/rules/seats';
import { benchStack, machineLine } from './support/cli';
import { helpOnRequest, latency, loadNow, progressLog, round1, runBench, sleep } from './support/figures';
import { subscribedTenant } from './support/learners';
import { serverEnv, startServer } from './support/server';

const { values: args } = parseArgs({
  options: {
    rate: { type: 'string', default: '50' },
    seconds: { type: 'string', default: '20' },
    learners: { type: 'string', default: '200' },
    scores: { type: 'string', default: '1000' },
    'fail-every': { type: 'string', default: '10' },
    help: { type: 'boolean', default: false },
  },
});
helpOnRequest(args.help, import.meta.url);
const RATE = Number(args.rate);
const SECONDS = Number(args.seconds);
const LEARNERS = Number(args.learners);
const LINKS_EACH = Math.max(1, Math.round(Number(args.scores) / LEARNERS));
const FAIL_EVERY = Number(args['fail-every']);
const log = progressLog();

/** Starts `count` runs of `run`, one every 1000/rate ms (open loop); their results once all ended. */
async function openLoop<T>(count: number, rate: number, run: (i: number) => Promise<T>): Promise<T[]> {
  const start = performance.now();
  const pending: Promise<T>[] = [];
  for (let i = 0; i < count; i++) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    pending.push(run(i));
  }
  return Promise.all(pending);
}

async function main() {
  const stack = await benchStack('lti');
  const { pg, dataDir } = stack;
  const { db } = stack.database;
  const platform = await new MockPlatform().start();
  console.log(machineLine());
  try {
    const tenant = { id: await subscribedTenant(db, 'lti', LEARNERS, FREE_SEATS) };
    const reg = platform.manual('Bench LMS');
    const [registration] = rowsOf<{ id: string }>(
      await db.execute(sql`
        insert into lti_registrations (tenant_id, label, issuer, client_id, deployment_ids, auth_login_url,
          token_url, jwks_url, via, scopes)
        values (${tenant.id}, ${reg.label}, ${reg.issuer}, ${reg.clientId}, ${sql`array[${reg.deploymentIds[0]}]::text[]`},
          ${reg.authLoginUrl}, ${reg.tokenUrl}, ${reg.jwksUrl}, 'MANUAL', ${sql`array[${SCOPES.score}]::text[]`})
        returning id`),
    );
    const env = await serverEnv({
      databaseUrl: pg.url,
      dataDir,
      settings: { NODE_ENV: 'development', LTI_DEV_LOOPBACK: 'true' },
    });
    const server = await startServer(env);
    stack.server = server;
    platform.toolJwksUrl = `${server.url}/lti/jwks`;
    const launchUrl = `${server.url}/lti/launch`;
    const dispatcher = new Agent({ connections: 64, pipelining: 1 });
    const count = RATE * SECONDS;

    // warm-up: the server's first requests load code and fetch the platform's key set
    for (let i = 0; i < 20; i++) await launch(i % LEARNERS);
    console.log(`load before: ${loadNow()}`);

    log(`baseline: GET /api/health at ${RATE}/s for ${SECONDS} s …`);
    const bare = await openLoop(count, RATE, async () => {
      const t = performance.now();
      const res = await request(`${server.url}/api/health`, { dispatcher });
      await res.body.dump();
      return performance.now() - t;
    });

    log(`launches: ${count} at ${RATE}/s (${LEARNERS} learners) …`);
    const launches = await openLoop(count, RATE, (i) => launch(i % LEARNERS));
    console.log(`load after launches: ${loadNow()}`);

    // the id_token's check alone, in this process
    const token = await platform.idToken('bench-nonce', platform.clientId, launchUrl, { sub: 'bench-0' });
    const keys = createLocalJWKSet({ keys: platform.keys.map((k) => k.publicJwk) } as never);
    const verifyTimes: number[] = [];
    for (let i = 0; i < 2000; i++) {
      const t = performance.now();
      await jwtVerify(token, keys, {
        algorithms: ['RS256'],
        audience: platform.clientId,
        issuer: platform.issuer,
      });
      verifyTimes.push(performance.now() - t);
    }

    platform.failEvery = FAIL_EVERY;
    const learners = rowsOf<{ user_id: string; subject: string }>(
      await db.execute(sql`
        select user_id, subject from external_identities
        where tenant_id = ${tenant.id} and issuer = ${platform.issuer} order by subject`),
    );
    const SCORES = learners.length * LINKS_EACH;
    log(
      `scores: ${SCORES} posts (${learners.length} learners × ${LINKS_EACH} graded links), one request in ${FAIL_EVERY} failing …`,
    );
    const assessment = '41111111-2222-4333-8444-555555555555';
    for (const l of learners) {
      await db.execute(sql`
        insert into test_links (link_id, type, user_id, tenant_assessment_id)
        values (${`bench-${l.subject}`}, 'CUSTOM-TEST', ${l.user_id}, ${assessment})`);
      for (let k = 0; k < LINKS_EACH; k++) {
        await db.execute(sql`
          insert into lti_grade_targets (registration_id, tenant_id, user_id, subject, resource_link_id,
            line_item_url, kind, tenant_assessment_id)
          values (${registration!.id}, ${tenant.id}, ${l.user_id}, ${l.subject}, ${`rl-${k}`},
            ${`${platform.base}/lineitems/li-${k}`}, 'TEST', ${assessment})`);
      }
    }
    const committed = performance.now();
    await db.execute(sql`
      insert into events (tenant_id, type, version, subject_user_id, payload)
      select ${tenant.id}, 'assessment.evaluated', 1, l.user_id,
        jsonb_build_object('linkId', 'bench-' || l.subject, 'percentage', 70 + (row_number() over ()) % 30,
          'completedAt', to_char(now() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
      from external_identities l where l.tenant_id = ${tenant.id} and l.issuer = ${platform.issuer}`);
    let delivered = 0;
    for (;;) {
      const [row] = rowsOf<{ delivered: number; total: number }>(
        await db.execute(sql`
          select count(*) filter (where status = 'DELIVERED')::int as delivered, count(*)::int as total
          from lti_score_deliveries where tenant_id = ${tenant.id}`),
      );
      delivered = row!.delivered;
      if (delivered >= SCORES || performance.now() - committed > 120_000) break;
      await sleep(100);
    }
    const scoresWall = (performance.now() - committed) / 1000;
    console.log(`load after scores: ${loadNow()}`);
    const [retried] = rowsOf<{ n: number }>(
      await db.execute(sql`select count(*)::int as n from lti_score_deliveries where attempts > 1`),
    );
    const perColumn = new Map<string, number>();
    for (const s of platform.scores) {
      const key = `${s.lineItem} ${String(s.body.userId)}`;
      perColumn.set(key, (perColumn.get(key) ?? 0) + 1);
    }
    const twice = [...perColumn.values()].filter((n) => n > 1).length;
    const exact = perColumn.size === SCORES && twice === 0 && platform.stale.length === 0;

    const l = latency(launches.map((x) => x.waymark));
    const b = latency(bare);
    const v = latency(verifyTimes);
    const failed = launches.filter((x) => !x.ok).length;
    console.log(
      `launch (login initiation + launch, Waymark's time): ${count} at ${RATE}/s, ms p50 ${l.p50} p95 ${l.p95} p99 ${l.p99} max ${l.max}; failures ${failed}`,
    );
    console.log(
      `baseline GET /api/health at ${RATE}/s: ms p50 ${b.p50} p95 ${b.p95} p99 ${b.p99} max ${b.max}`,
    );
    console.log(`baseline id_token verification in process (jose): ms p50 ${v.p50} p99 ${v.p99}`);
    console.log(
      `scores: ${delivered}/${SCORES} delivered in ${round1(scoresWall)} s from the commit; ${retried!.n} needed a retry; the platform recorded ${perColumn.size} (line item, learner) scores, ${twice} twice, ${platform.stale.length} stale re-sends — ${exact ? 'exactly once' : 'NOT exactly once'}`,
    );
    console.log(
      `targets: launch p99 ≤ 100 ms — ${l.p99 <= 100 ? 'met' : 'missed'}; ${SCORES} scores exactly once within 60 s — ${exact && delivered === SCORES && scoresWall <= 60 ? 'met' : 'missed'}`,
    );
    await dispatcher.close();
    if (failed || !exact || delivered < SCORES) process.exitCode = 1;

    /** One launch the whole way; Waymark's time (the two requests) and whether it reached the page. */
    async function launch(i: number) {
      const q = new URLSearchParams({
        iss: platform.issuer,
        login_hint: `bench-${i}`,
        target_link_uri: launchUrl,
        client_id: platform.clientId,
        lti_deployment_id: platform.deploymentId,
      });
      let t = performance.now();
      const login = await request(`${server.url}/lti/login?${q}`, { dispatcher });
      await login.body.dump();
      let waymark = performance.now() - t;
      const to = new URL(String(login.headers.location));
      const idToken = await platform.idToken(to.searchParams.get('nonce')!, platform.clientId, launchUrl, {
        sub: `bench-${i}`,
        email: `learner-${i}@bench.example`,
        [CLAIM.resourceLink]: { id: 'bench-link' },
      });
      t = performance.now();
      const res = await request(launchUrl, {
        method: 'POST',
        dispatcher,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ id_token: idToken, state: to.searchParams.get('state')! }).toString(),
      });
      const page = await res.body.text();
      waymark += performance.now() - t;
      return { waymark, ok: login.statusCode === 302 && res.statusCode === 200 && page.includes('"code"') };
    }
  } finally {
    await platform.close();
    await stack.stop();
  }
}

runBench(main);
