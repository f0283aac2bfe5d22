/**
 * `waymark lti scores` and `waymark lti retry` against the real server (the app on a PGlite clone, identity
 * from the Firebase Auth emulator): the mentor lists the score posts that failed, with the platform's answer,
 * and sends one that gave up again — put back in line with its job in the same transaction — while a
 * delivered one is refused (never sent twice) and another tenant's is not found.
 */
import { testLinks } from '@server/assessments/tables';
import { events } from '@server/integrations/core/tables';
import { recordGradeTarget } from '@server/integrations/lti/scores';
import { ltiRegistrations, ltiScoreDeliveries } from '@server/integrations/lti/tables';
import type { SignedIn, TestServer } from '@server/test/helper';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Http } from '../src/core/http';
import type { SessionStore } from '../src/core/session';
import { startAuthoringServer } from './authoring-server';
import { runWaymark } from './harness';

const emulatorHost = process.env.FIREBASE_AUTH_EMULATOR_HOST;
const SKIP_REASON =
  'SKIPPED: needs the Firebase Auth emulator; set FIREBASE_AUTH_EMULATOR_HOST=host:port (npm test does)';
if (!emulatorHost) console.warn(`cli/test/lti-scores.real-server.test.ts ${SKIP_REASON}`);

describe.skipIf(!emulatorHost)(
  `waymark lti scores and retry against the real server${emulatorHost ? '' : ` (${SKIP_REASON})`}`,
  () => {
    let api: TestServer;
    let server: string;
    let http: Http;
    let sessions: SessionStore;
    let mentor: SignedIn;
    let other: SignedIn;
    let started: Awaited<ReturnType<typeof startAuthoringServer>>;

    const waymark = (args: string[], who: SignedIn = mentor) =>
      runWaymark(['--server', server, ...args], { sessions, http, env: { WAYMARK_TOKEN: who.token } });

    /** A score post of the mentor's platform in `status`, as the jobs leave it. */
    async function post(n: number, status: 'GAVE_UP' | 'DELIVERED') {
      const learner = await api.signedIn('USER');
      const [registration] = await api.db
        .select()
        .from(ltiRegistrations)
        .where(eq(ltiRegistrations.tenantId, mentor.user._id));
      const assessment = '31111111-2222-4333-8444-555555555555';
      await api.db.insert(testLinks).values({
        linkId: `cli-lti-${n}`,
        type: 'CUSTOM-TEST',
        userId: learner.user._id,
        tenantAssessmentId: assessment,
      });
      await recordGradeTarget(api.db, {
        registrationId: registration!.id,
        tenantId: mentor.user._id,
        userId: learner.user._id,
        subject: `cli-sub-${n}`,
        resourceLinkId: 'cli-link',
        lineItemUrl: 'https://lms.example.edu/lineitems/7',
        kind: 'TEST',
        testKey: null,
        tenantAssessmentId: assessment,
      });
      await api.db.insert(events).values({
        tenantId: mentor.user._id,
        type: 'assessment.evaluated',
        version: 1,
        subjectUserId: learner.user._id,
        payload: { linkId: `cli-lti-${n}`, percentage: 80, completedAt: new Date().toISOString() },
      });
      const [made] = await api.db
        .update(ltiScoreDeliveries)
        .set({
          status,
          attempts: 15,
          scoreGiven: 80,
          scoreMaximum: 100,
          lastStatus: status === 'GAVE_UP' ? 503 : 204,
          lastError: status === 'GAVE_UP' ? 'try later' : null,
        })
        .where(
          sql`${ltiScoreDeliveries.eventId} = (select id from events where payload->>'linkId' = ${`cli-lti-${n}`})`,
        )
        .returning();
      return made!;
    }

    beforeAll(async () => {
      started = await startAuthoringServer('waymark-cli-lti-');
      ({ api, server, http, sessions } = started);
      mentor = await api.signedIn('TENANT', { profile: true, name: 'Lena LMS' });
      other = await api.signedIn('TENANT', { profile: true, name: 'Otto Other' });
      const made = await api.post(
        '/api/tenant/lti/registrations',
        {
          label: 'Moodle',
          issuer: 'https://lms.example.edu',
          clientId: 'cli-client',
          deploymentIds: ['1'],
          authLoginUrl: 'https://lms.example.edu/auth',
          tokenUrl: 'https://lms.example.edu/token',
          jwksUrl: 'https://lms.example.edu/jwks',
        },
        mentor.auth,
      );
      expect(made.status, made.text).toBe(201);
    }, 120_000);

    afterAll(async () => {
      await started?.close();
    });

    it('lists the failed posts with the platform’s answer, and sends one that gave up again', async () => {
      const failed = await post(1, 'GAVE_UP');
      const delivered = await post(2, 'DELIVERED');
      const list = await waymark(['lti', 'scores', '--status', 'failed', '--json']);
      expect(list.code, list.err).toBe(0);
      expect(list.events).toEqual([
        expect.objectContaining({
          _id: failed.id,
          status: 'GAVE_UP',
          lastStatus: 503,
          lastError: 'try later',
        }),
      ]);
      const text = await waymark(['lti', 'scores', '--no-json']);
      expect(text.out).toContain(`${failed.id}\tGAVE_UP\t15 attempts`);
      expect(text.out).toContain(`${delivered.id}\tDELIVERED`);
      const bad = await waymark(['lti', 'scores', '--status', 'lost']);
      expect(bad.code).toBe(2);
      expect(bad.err).toMatch(/--status: must be one of pending, failed, delivered, all/);

      const jobsOf = async () =>
        (
          (await api.db.execute(
            sql`select count(*)::int as n from pgboss.job where name = 'lti-score' and data->>'deliveryId' = ${failed.id}`,
          )) as unknown as { rows: { n: number }[] }
        ).rows[0]!.n;
      const before = await jobsOf();
      expect((await waymark(['lti', 'retry', failed.id], other)).code).not.toBe(0);
      const retried = await waymark(['lti', 'retry', failed.id, '--json']);
      expect(retried.code, retried.err).toBe(0);
      expect(retried.events[0]).toMatchObject({ _id: failed.id, status: 'PENDING', attempts: 0 });
      // its job was queued with the change
      expect(await jobsOf()).toBe(before + 1);
      const twice = await waymark(['lti', 'retry', delivered.id]);
      expect(twice.code).not.toBe(0);
      expect(twice.err).toMatch(/not sent twice/);
    });
  },
);
