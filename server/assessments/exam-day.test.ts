/**
 * Exam day at 200 takers (issue 15): bench/exam-day.ts's load, small and fast, through real HTTP on this
 * run's backend — one custom assessment of 20 questions shared through the API, every taker arriving,
 * starting, answering with autosave, some reloading to resume, all submitting — so the bench keeps
 * working, and the checks it makes hold: every score as the key says, no answer lost, every resume whole.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExamDay } from '../../bench/support/exam-day';
import { rowsOf } from '../db/helpers';
import { seedBank } from '../test/fixtures/assessments';
import { BACKENDS, type Harness, openHarness } from '../test/harness';

// PostgreSQL only: exam day is a deployment's load, and a deployment runs on PostgreSQL; PGlite (one
// process, the embedded development database) would only spend the suite's time on it
describe.skipIf(!BACKENDS.includes('postgres')).each(BACKENDS)('exam day at 200 takers (%s)', (kind) => {
  let h: Harness;
  let base: string;
  beforeAll(async () => {
    h = await openHarness(kind);
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    const address = h.app.server.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/api`;
  });
  afterAll(() => h.close());

  it('shares, starts, saves, resumes and submits every test: each score as the key says, nothing lost', {
    timeout: 120_000,
  }, async () => {
    const bank = await seedBank(h.db);
    const tenant = await h.tenant();
    const ids = rowsOf<{ id: string }>(
      await h.db.execute(sql`
        with l as (
          insert into users (firebase_uid, email, email_verified, role, name, is_first_login, is_profile_completed)
          select 'exam-' || gen_random_uuid(), 'exam-' || gen_random_uuid() || '@example.com', true, 'USER',
            'Taker ' || i, false, true
          from generate_series(1, 240) i returning id),
        s as (insert into tenant_users (tenant_id, learner_id) select ${tenant.id}, id from l)
        select id from l`),
    ).map((r) => r.id);
    const tokens = h.app.services.tokens;
    const takers = await Promise.all(
      ids.map(async (id) => ({ id, token: (await tokens.issue({ id, role: 'USER' }, 'WEB_APP')).token })),
    );
    const result = await runExamDay({
      base,
      db: h.db,
      tenantToken: tenant.headers.authorization.slice('Bearer '.length),
      takers: takers.slice(0, 200),
      baselineTakers: takers.slice(200, 220),
      // the arrival search's code path, two small waves (their latencies are this machine's, not checked)
      search: {
        takers: takers.slice(220),
        waveSeconds: 1,
        startRate: 5,
        boundMs: 300,
        waves: 2,
        minTakers: 5,
      },
      questionIds: [...bank.questions.keys()].slice(0, 20),
      arrivalSeconds: 0.5,
      paceMs: [2, 10],
      refreshShare: 0.1,
      submitters: 50,
      connections: 50,
      log: process.env.EXAM_DAY_LOG ? (line) => console.log(line) : undefined,
    });
    expect(result.share.links).toBe(200);
    expect(result.checks).toMatchObject({
      scored: 200,
      wrongScores: 0,
      answersGiven: 4000,
      answersLost: 0,
      resumedWrong: 0,
    });
    expect(result.checks.resumed).toBeGreaterThan(0);
    for (const phase of [...result.phases, ...result.closedLoop, ...result.baseline]) {
      expect({ phase: phase.name, errors: phase.errors, shed: phase.shed }).toEqual({
        phase: phase.name,
        errors: {},
        shed: 0,
      });
    }
    const counts = Object.fromEntries(result.phases.map((p) => [p.name.split(' (')[0], p.requests]));
    expect(counts).toMatchObject({
      'PUT /testlink/verify/{id}': 200,
      'PUT /testlink/{id}/answer': 4000,
      'POST /testlink/evaluvate/v2': 200,
    });
    // the baseline's evaluations ran in the rounds between the exam's submissions, every one of them
    const baseEvaluate = result.baseline.find((p) => p.name.startsWith('baseline: evaluate'));
    expect(baseEvaluate?.requests).toBe(20);
    // every taker of the search's waves opened its Ready page and started, on a connection of its own
    expect(result.search?.waves.length).toBeGreaterThan(0);
    for (const w of result.search!.waves)
      expect({ shed: w.shed, failed: w.failed }).toEqual({ shed: 0, failed: 0 });
    const started = rowsOf<{ n: number }>(
      await h.db.execute(sql`select count(*)::int as n from test_links
        where user_id in ${takers.slice(220).map((t) => t.id)} and started_at is not null`),
    )[0]!.n;
    // the warm-up's takers (5) started too
    expect(started).toBe(5 + result.search!.waves.reduce((n, w) => n + w.takers, 0));
  });
});
