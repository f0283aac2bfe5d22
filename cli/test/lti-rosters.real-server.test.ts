/**
 * `waymark lti …` against the real server (the app on a PGlite clone listening on a port, identity from the
 * Firebase Auth emulator) and the mock LMS of the server tests (server/test/lti-platform.ts, over real HTTP):
 * the mentor's platform listed, the course a launch made known, and `waymark lti sync` reading the course's
 * members from the platform's NRPS endpoint — a dry run first (nothing written), then for real, then again
 * (nobody added twice) — as lines and as NDJSON; bad input named, exit codes as documented.
 */
import type { SignedIn, TestServer } from '@server/test/helper';
import { CLAIM, MockPlatform, ROLE } from '@server/test/lti-platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Http } from '../src/core/http';
import type { SessionStore } from '../src/core/session';
import { startAuthoringServer } from './authoring-server';
import { runWaymark } from './harness';

const emulatorHost = process.env.FIREBASE_AUTH_EMULATOR_HOST;
const SKIP_REASON =
  'SKIPPED: needs the Firebase Auth emulator; set FIREBASE_AUTH_EMULATOR_HOST=host:port (npm test does)';
if (!emulatorHost) console.warn(`cli/test/lti-rosters.real-server.test.ts ${SKIP_REASON}`);

describe.skipIf(!emulatorHost)(
  `waymark lti against the real server and a mock LMS${emulatorHost ? '' : ` (${SKIP_REASON})`}`,
  () => {
    let api: TestServer;
    let server: string;
    let http: Http;
    let sessions: SessionStore;
    let mentor: SignedIn;
    let started: Awaited<ReturnType<typeof startAuthoringServer>>;
    const platform = new MockPlatform();
    let platformId = '';
    let courseId = '';

    const waymark = (args: string[]) =>
      runWaymark(['--server', server, ...args], { sessions, http, env: { WAYMARK_TOKEN: mentor.token } });

    /** A launch by an instructor of Course One, over HTTP as the platform's browser would make it. */
    async function launchCourse() {
      const login = await fetch(
        `${server}/lti/login?${new URLSearchParams({
          iss: platform.issuer,
          login_hint: 'teacher-1',
          target_link_uri: `${server}/lti/launch`,
          client_id: platform.clientId,
          lti_deployment_id: platform.deploymentId,
        })}`,
        { redirect: 'manual' },
      );
      expect(login.status).toBe(302);
      const to = new URL(login.headers.get('location')!);
      const idToken = await platform.idToken(
        to.searchParams.get('nonce')!,
        platform.clientId,
        `${server}/lti/launch`,
        {
          sub: 'teacher-1',
          [CLAIM.roles]: [ROLE.instructor],
          'https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice': {
            context_memberships_url: `${platform.base}/memberships`,
            service_versions: ['2.0'],
          },
        },
      );
      const launch = await fetch(`${server}/lti/launch`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ id_token: idToken, state: to.searchParams.get('state')! }),
      });
      expect(launch.status, await launch.clone().text()).toBe(200);
    }

    beforeAll(async () => {
      started = await startAuthoringServer('waymark-cli-lti-', { LTI_DEV_LOOPBACK: 'true' });
      ({ api, server, http, sessions } = started);
      await platform.start();
      platform.toolJwksUrl = `${server}/lti/jwks`;
      mentor = await api.signedIn('TENANT', { name: 'Lara Lms', profile: true });
      const made = await api.post(
        '/api/tenant/lti/registrations',
        platform.manual('Course LMS'),
        mentor.auth,
      );
      expect(made.status, made.text).toBe(201);
      platformId = made.body.data._id;
      platform.members = [
        {
          user_id: 'm-1',
          status: 'Active',
          roles: [ROLE.learner],
          name: 'Mira Member',
          email: 'mira@example.edu',
        },
        { user_id: 'm-2', status: 'Active', roles: [ROLE.learner], name: 'Milo Member' },
        { user_id: 'teacher-1', status: 'Active', roles: [ROLE.instructor], name: 'Ivo Instructor' },
        { user_id: 'm-3', status: 'Inactive', roles: [ROLE.learner], name: 'Gone Member' },
      ];
    }, 120_000);

    afterAll(async () => {
      await platform.close();
      await started?.close();
    });

    it('lists the platform, and says no course has launched it yet', async () => {
      const list = await waymark(['lti', 'list', '--json']);
      expect(list.code, list.err).toBe(0);
      expect(list.events).toEqual([
        expect.objectContaining({
          _id: platformId,
          label: 'Course LMS',
          issuer: platform.issuer,
          status: 'ACTIVE',
        }),
      ]);
      const none = await waymark(['lti', 'courses', platformId, '--no-json']);
      expect(none.code, none.err).toBe(0);
      expect(none.out).toContain('No course has launched Waymark from this platform yet.');
    });

    it('lists the course a launch made known, with its member list', async () => {
      await launchCourse();
      const courses = await waymark(['lti', 'courses', platformId, '--json']);
      expect(courses.code, courses.err).toBe(0);
      expect(courses.events).toHaveLength(1);
      expect(courses.events[0]).toMatchObject({
        contextId: 'course-1',
        title: 'Course One',
        canSyncMembers: true,
      });
      courseId = courses.events[0]._id;
      const lines = await waymark(['lti', 'courses', platformId, '--no-json']);
      expect(lines.out.trim()).toBe(`${courseId}\tCourse One\tmembers can be synced`);
    });

    it('syncs the members: a dry run writes nothing, then once, then nobody twice', async () => {
      const dry = await waymark(['lti', 'sync', courseId, '--dry-run', '--json']);
      expect(dry.code, dry.err).toBe(0);
      const summary = dry.events.at(-1);
      expect(summary).toMatchObject({
        dryRun: true,
        counts: { added: 2, present: 0, notAdded: 0 },
        skipped: 2,
      });
      expect(
        dry.events
          .slice(0, -1)
          .map((e) => e.subject)
          .sort(),
      ).toEqual(['m-1', 'm-2']);
      const seatsAfterDryRun = await api.get('/api/tenant/users/list?limit=15', mentor.auth);
      expect(seatsAfterDryRun.body.data.totalUserCount).toBe(0);

      const real = await waymark(['lti', 'sync', courseId, '--no-json']);
      expect(real.code, real.err).toBe(0);
      expect(real.out).toContain(
        'Added 2, already present 0, not added 0; 2 members who are not active learners left alone.',
      );
      expect(real.out).toMatch(/^ADDED\tMira Member\tmira@example\.edu\t$/m);
      const seats = await api.get('/api/tenant/users/list?limit=15', mentor.auth);
      expect(seats.body.data.totalUserCount).toBe(2);

      const again = await waymark(['lti', 'sync', courseId, '--json']);
      expect(again.events.at(-1)).toMatchObject({
        dryRun: false,
        counts: { added: 0, present: 2, notAdded: 0 },
      });
    });

    it('names bad input and an unknown course, with the documented exit codes', async () => {
      const bad = await waymark(['lti', 'sync', 'not-an-id']);
      // the server's 400 names the field: exit code 7 (bad input)
      expect(bad.code).toBe(7);
      expect(bad.err).toMatch(/id: must be a valid id/);
      const unknown = await waymark(['lti', 'sync', '11111111-2222-4333-8444-000000000000']);
      expect(unknown.code, unknown.err).toBe(5);
    });
  },
);
