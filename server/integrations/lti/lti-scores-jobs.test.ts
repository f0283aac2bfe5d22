/**
 * Score posts as pg-boss jobs (decision 046), run by the workers themselves (JOB_WORKERS=true) and by a
 * second worker on the same database (another pg-boss instance with its own connections, as a second server
 * process is), against the mock platform over real HTTP while it fails one request in four: every committed
 * evaluation reaches the gradebook, and the platform records each score exactly once — also the post whose
 * worker died after the platform had it (its claim abandoned: sent again with the same timestamp, which the
 * platform does not record twice), and never the post another live worker holds.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { testLinks } from '../../assessments/tables';
import { inTx, rowsOf } from '../../db/helpers';
import { JobQueue } from '../../jobs/queue';
import { type SignedIn, setupServer } from '../../test/helper';
import { MockPlatform } from '../../test/lti-platform';
import { events } from '../core/tables';
import { ltiServices } from './routes';
import { CLAIM_LEASE_MS, postScore, recordGradeTarget, SCORE_QUEUE, sweepScores } from './scores';
import { ltiScoreDeliveries } from './tables';

const server = setupServer({ env: { LTI_DEV_LOOPBACK: 'true', JOB_WORKERS: 'true' } });
const platform = new MockPlatform();
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
let second: JobQueue;
const secondRan: string[] = [];
let tenant: SignedIn;
let registrationId: string;
const ASSESSMENT = '21111111-2222-4333-8444-555555555555';

beforeAll(async () => {
  await platform.start();
  tenant = await server.signedIn('TENANT', { profile: true, name: 'Jobs Mentor' });
  const made = await server.post('/api/tenant/lti/registrations', platform.manual(), tenant.auth);
  expect(made.status, made.text).toBe(201);
  registrationId = made.body.data._id;
  // the platform checks client assertions against the tool key set, over HTTP
  platform.toolJwksUrl = `${await server.app.listen({ port: 0, host: '127.0.0.1' })}/lti/jwks`;
  // the second process's worker of the score queue
  second = new JobQueue(server.database, { work: true, log: quiet });
  await second.start();
  const deps = {
    db: server.db,
    platforms: ltiServices({ db: server.db, config: server.config, secrets: server.app.services.secrets })
      .platforms,
    publicUrl: server.config.publicUrl,
  };
  await second.boss.work<{ deliveryId: string }>(
    SCORE_QUEUE,
    { pollingIntervalSeconds: 1, batchSize: 1, localConcurrency: 4 },
    async ([job]) => {
      if (!job) return;
      const outcome = await postScore(deps, job.data.deliveryId);
      secondRan.push(outcome);
      if (outcome === 'failed' || outcome === 'held') throw new Error(outcome);
    },
  );
}, 60_000);
afterAll(async () => {
  await second?.stop();
  await platform.close();
});

/** A learner with a graded link to the assessment, and their evaluated attempt: the event (and the post). */
async function learnerWithTarget(i: number) {
  const learner = await server.signedIn('USER');
  const linkId = `jobs-link-${i}-${learner.user._id.slice(0, 8)}`;
  await server.db
    .insert(testLinks)
    .values({ linkId, type: 'CUSTOM-TEST', userId: learner.user._id, tenantAssessmentId: ASSESSMENT });
  await recordGradeTarget(server.db, {
    registrationId,
    tenantId: tenant.user._id,
    userId: learner.user._id,
    subject: `jobs-sub-${i}`,
    resourceLinkId: 'jobs-link',
    lineItemUrl: `${platform.base}/lineitems/jobs`,
    kind: 'TEST',
    testKey: null,
    tenantAssessmentId: ASSESSMENT,
  });
  return { userId: learner.user._id, linkId, subject: `jobs-sub-${i}` };
}

const evaluatedEvent = (who: { userId: string; linkId: string }, percentage: number) => ({
  tenantId: tenant.user._id,
  type: 'assessment.evaluated',
  version: 1,
  subjectUserId: who.userId,
  payload: { linkId: who.linkId, percentage, completedAt: new Date().toISOString() },
});

async function until<T>(what: () => Promise<T | undefined>, ms: number): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const got = await what();
    if (got !== undefined) return got;
    if (Date.now() > end) {
      const jobs = rowsOf(
        await server.db.execute(
          sql`select name, state::text, retry_count, output from pgboss.job where name like 'lti%' limit 5`,
        ),
      );
      const q = rowsOf(
        await server.db.execute(
          sql`select name, policy, table_name from pgboss.queue where name like 'lti%'`,
        ),
      );
      const d = await server.db.select().from(ltiScoreDeliveries).limit(3);
      throw new Error(`timed out ${JSON.stringify({ jobs, q, d, secondRan })}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

it('posts every committed evaluation exactly once across two workers, a failing platform and a dead claim', async () => {
  const learners = [];
  for (let i = 0; i < 16; i++) learners.push(await learnerWithTarget(i));
  const [dead, held, ...rest] = learners;

  // a worker died after the platform had its post: the claim is old, the body (with its timestamp) kept
  const deadBody = {
    userId: dead!.subject,
    scoreGiven: 61,
    scoreMaximum: 100,
    activityProgress: 'Completed',
    gradingProgress: 'FullyGraded',
    timestamp: new Date().toISOString(),
  };
  platform.record('jobs', deadBody);
  // another worker is posting this one right now: its claim is fresh
  await inTx(server.db, async (tx) => {
    await tx.insert(events).values([evaluatedEvent(dead!, 61), evaluatedEvent(held!, 62)]);
    await tx
      .update(ltiScoreDeliveries)
      .set({
        status: 'SENDING',
        attempts: 1,
        claimToken: 'a-dead-worker',
        claimedAt: new Date(Date.now() - 2 * CLAIM_LEASE_MS),
        payload: deadBody,
      })
      .where(eq(ltiScoreDeliveries.tenantId, tenant.user._id));
    await tx
      .update(ltiScoreDeliveries)
      .set({ claimToken: 'a-live-worker', claimedAt: new Date(), payload: null })
      .where(
        sql`${ltiScoreDeliveries.targetId} in (select id from lti_grade_targets where user_id = ${held!.userId})`,
      );
  });

  platform.failEvery = 4;
  platform.scoreDelayMs = 20;
  const started = Date.now();
  // the evaluations, each committed with its post and the post's job
  for (const [i, who] of rest.entries()) await server.db.insert(events).values(evaluatedEvent(who, 70 + i));
  const others = [dead!, ...rest].map((l) => l.userId);
  const posts = () =>
    server.db
      .select({ d: ltiScoreDeliveries, userId: sql<string>`g.user_id` })
      .from(ltiScoreDeliveries)
      .innerJoin(sql`lti_grade_targets g`, sql`g.id = ${ltiScoreDeliveries.targetId}`)
      .where(eq(ltiScoreDeliveries.tenantId, tenant.user._id));
  const done = await until(async () => {
    const all = await posts();
    const mine = all.filter((p) => others.includes(p.userId));
    return mine.length === others.length && mine.every((p) => p.d.status === 'DELIVERED') ? all : undefined;
  }, 60_000);
  const took = Date.now() - started;

  // the live worker ends its post: no job sent the held one meanwhile
  const heldPost = done.find((p) => p.userId === held!.userId)!.d;
  expect(heldPost.status).toBe('SENDING');
  expect(platform.scores.concat(platform.stale).some((s) => s.body.userId === held!.subject)).toBe(false);
  await server.db
    .update(ltiScoreDeliveries)
    .set({ status: 'DELIVERED', claimToken: null })
    .where(and(eq(ltiScoreDeliveries.id, heldPost.id), eq(ltiScoreDeliveries.claimToken, 'a-live-worker')));

  // the platform recorded each score once
  const recorded = platform.scores.filter((s) => s.lineItem === 'jobs').map((s) => s.body.userId);
  expect(recorded.sort()).toEqual([dead!, ...rest].map((l) => l.subject).sort());
  // the dead worker's post was sent again, with its timestamp: the platform did not record it twice
  expect(platform.stale.filter((s) => s.body.userId === dead!.subject)).toEqual([
    { lineItem: 'jobs', body: deadBody },
  ]);
  // the failures were retried by pg-boss, and both workers sent some
  expect(done.some((p) => p.d.attempts > 1)).toBe(true);
  expect(secondRan.length, JSON.stringify(secondRan)).toBeGreaterThan(0);
  const jobs = rowsOf<{ state: string; n: number }>(
    await server.db.execute(
      sql`select state::text, count(*)::int as n from pgboss.job where name = ${SCORE_QUEUE} group by state`,
    ),
  );
  expect(jobs.filter((j) => j.state === 'created' || j.state === 'active').length).toBeLessThanOrEqual(1);
  expect(took).toBeLessThan(60_000);
  platform.failEvery = 0;
  platform.scoreDelayMs = 0;
}, 90_000);

it('a post the mentor sends again gets its job in the same transaction', async () => {
  const who = await learnerWithTarget(99);
  platform.failEvery = 1;
  await server.db.insert(events).values(evaluatedEvent(who, 55));
  const [post] = await until(async () => {
    const rows = await server.db
      .select()
      .from(ltiScoreDeliveries)
      .where(
        and(
          inArray(ltiScoreDeliveries.status, ['FAILED']),
          sql`${ltiScoreDeliveries.targetId} in (select id from lti_grade_targets where user_id = ${who.userId})`,
        ),
      );
    return rows.length ? rows : undefined;
  }, 20_000);
  platform.failEvery = 0;
  // as if pg-boss had run out of retries: the mentor's retry makes a job of its own
  await server.db.execute(
    sql`delete from pgboss.job where name = ${SCORE_QUEUE} and data->>'deliveryId' = ${post!.id}`,
  );
  await server.db
    .update(ltiScoreDeliveries)
    .set({ status: 'GAVE_UP' })
    .where(eq(ltiScoreDeliveries.id, post!.id));
  const retried = await server.post(`/api/tenant/lti/deliveries/${post!.id}/retry`, undefined, tenant.auth);
  expect(retried.status, retried.text).toBe(200);
  await until(async () => {
    const [row] = await server.db
      .select()
      .from(ltiScoreDeliveries)
      .where(eq(ltiScoreDeliveries.id, post!.id));
    return row?.status === 'DELIVERED' ? row : undefined;
  }, 20_000);
  expect(platform.scores.filter((s) => s.body.userId === who.subject)).toHaveLength(1);
}, 60_000);

it('the sweep sends a job again only for a post left without a live one', async () => {
  const orphan = await learnerWithTarget(201);
  const covered = await learnerWithTarget(202);
  await server.db.insert(events).values([evaluatedEvent(orphan, 40), evaluatedEvent(covered, 41)]);
  const postOf = async (who: { userId: string }) =>
    (
      await server.db
        .select()
        .from(ltiScoreDeliveries)
        .where(
          sql`${ltiScoreDeliveries.targetId} in (select id from lti_grade_targets where user_id = ${who.userId})`,
        )
    )[0]!;
  await until(async () => ((await postOf(covered)).status === 'DELIVERED' ? true : undefined), 20_000);
  // the orphan: failed, its job gone (pg-boss ran out of retries first); the other delivered
  const lost = await postOf(orphan);
  await until(async () => ((await postOf(orphan)).status === 'DELIVERED' ? true : undefined), 20_000);
  await server.db
    .update(ltiScoreDeliveries)
    .set({ status: 'FAILED', nextAttemptAt: new Date(Date.now() - 1000) })
    .where(eq(ltiScoreDeliveries.id, lost.id));
  await server.db.execute(
    sql`delete from pgboss.job where name = ${SCORE_QUEUE} and data->>'deliveryId' = ${lost.id}`,
  );
  const sent: string[] = [];
  const result = await sweepScores(server.db, async (id) => sent.push(id));
  expect(sent).toEqual([lost.id]);
  expect(result).toEqual({ sent: 1 });
});
