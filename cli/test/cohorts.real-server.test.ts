/**
 * `waymark cohorts` against the real server (the app on a PGlite clone, identity from the Firebase Auth
 * emulator): the mentor makes a cohort, adds learners by e-mail (all found first: one without a seat stops
 * it with nothing done), shows and lists it, takes a learner out and deletes it; a cohort the directory
 * manages over SCIM is refused with the server's reason; every change is in the activity log.
 */
import { cohorts } from '@server/tenant/tables';
import { type SignedIn, type TestServer, uniqueEmail } from '@server/test/helper';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Http } from '../src/core/http';
import type { SessionStore } from '../src/core/session';
import { startAuthoringServer } from './authoring-server';
import { runWaymark } from './harness';

const emulatorHost = process.env.FIREBASE_AUTH_EMULATOR_HOST;
const SKIP_REASON =
  'SKIPPED: needs the Firebase Auth emulator; set FIREBASE_AUTH_EMULATOR_HOST=host:port (npm test does)';
if (!emulatorHost) console.warn(`cli/test/cohorts.real-server.test.ts ${SKIP_REASON}`);

describe.skipIf(!emulatorHost)(
  `waymark cohorts against the real server${emulatorHost ? '' : ` (${SKIP_REASON})`}`,
  () => {
    let api: TestServer;
    let server: string;
    let http: Http;
    let sessions: SessionStore;
    let mentor: SignedIn;
    let started: Awaited<ReturnType<typeof startAuthoringServer>>;
    let ana: SignedIn;
    let li: SignedIn;

    const waymark = (args: string[]) =>
      runWaymark(['--server', server, ...args], { sessions, http, env: { WAYMARK_TOKEN: mentor.token } });

    beforeAll(async () => {
      started = await startAuthoringServer('waymark-cli-cohorts-');
      ({ api, server, http, sessions } = started);
      mentor = await api.signedIn('TENANT', { name: 'Carmen Cohorts' });
      ana = await api.signedIn('USER', { email: uniqueEmail('ana'), name: 'Ana Alves' });
      li = await api.signedIn('USER', { email: uniqueEmail('li'), name: 'Li Lin' });
      for (const who of [ana, li]) {
        const res = await api.post(
          '/api/tenant/users/add-user-v2',
          { email: who.account.email },
          mentor.auth,
        );
        expect(res.status, res.text).toBe(200);
      }
    }, 120_000);

    afterAll(async () => {
      await started?.close();
    });

    it('makes a cohort and adds learners by e-mail, stopping with nothing done on one without a seat', async () => {
      const made = await waymark(['cohorts', 'create', 'Sales EMEA', '--json']);
      expect(made.code, made.err).toBe(0);
      expect(made.events[0]).toMatchObject({ event: 'created', name: 'Sales EMEA', memberCount: 0 });
      const taken = await waymark(['cohorts', 'create', 'sales emea']);
      expect(taken.code).toBe(7);
      expect(taken.err).toMatch(/already exists/);

      const stranger = uniqueEmail('stranger');
      const refused = await waymark([
        'cohorts',
        'add',
        'sales emea',
        `${ana.account.email},${stranger}`,
        '--no-json',
      ]);
      expect(refused.code).toBe(7);
      expect(refused.err).toContain(`${stranger}: holds none of your seats`);
      expect((await waymark(['cohorts', 'show', 'Sales EMEA', '--json'])).events).toHaveLength(1);

      const added = await waymark(['cohorts', 'add', 'Sales EMEA', ana.account.email, li.user._id, '--json']);
      expect(added.code, added.err).toBe(0);
      expect(added.events.map((e) => [e.email, e.status])).toEqual([
        [ana.account.email, 'added'],
        [li.account.email, 'added'],
      ]);
      const again = await waymark(['cohorts', 'add', 'Sales EMEA', ana.account.email, '--no-json']);
      expect(again.out).toContain('Added 0 learners to “Sales EMEA” (1 already in it).');
    });

    it('lists and shows cohorts, as lines and as NDJSON', async () => {
      const list = await waymark(['cohorts', 'list', '--json']);
      expect(list.events).toEqual([
        expect.objectContaining({ name: 'Sales EMEA', memberCount: 2, scimManaged: false }),
      ]);
      const plain = await waymark(['cohorts', 'list', '--no-json']);
      expect(plain.out).toMatch(/\tSales EMEA\t2\tportal\t\n/);
      const shown = await waymark(['cohorts', 'show', 'Sales EMEA', '--json']);
      expect(shown.events[0]).toMatchObject({ event: 'cohort', name: 'Sales EMEA' });
      expect(shown.events.slice(1).map((e) => [e.event, e.name, e.isDisabled])).toEqual([
        ['member', 'Ana Alves', false],
        ['member', 'Li Lin', false],
      ]);
      const missing = await waymark(['cohorts', 'show', 'Nobody']);
      expect(missing.code).toBe(5);
    });

    it('takes a learner out, refuses changes to a directory’s cohort, deletes, and logs each change', async () => {
      const removed = await waymark(['cohorts', 'remove', 'Sales EMEA', li.account.email, '--json']);
      expect(removed.code, removed.err).toBe(0);
      expect(removed.events).toEqual([
        expect.objectContaining({ status: 'removed', learnerId: li.user._id }),
      ]);
      const notIn = await waymark(['cohorts', 'remove', 'Sales EMEA', li.account.email, '--no-json']);
      expect(notIn.code).toBe(7);
      expect(notIn.err).toContain('is not in “Sales EMEA”');

      // a cohort the organisation's directory pushed over SCIM is the directory's
      const list = await waymark(['cohorts', 'list', '--json']);
      await api.db.update(cohorts).set({ scimManaged: true }).where(eq(cohorts.id, list.events[0]._id));
      const held = await waymark(['cohorts', 'add', 'Sales EMEA', li.account.email]);
      expect(held.code).toBe(7);
      expect(held.err).toMatch(/directory manages this cohort over SCIM/);
      expect((await waymark(['cohorts', 'list', '--no-json'])).out).toContain('\tscim\t');
      await api.db.update(cohorts).set({ scimManaged: false }).where(eq(cohorts.id, list.events[0]._id));

      expect((await waymark(['cohorts', 'delete', 'Sales EMEA'])).code).toBe(2);
      const deleted = await waymark(['cohorts', 'delete', 'Sales EMEA', '--yes', '--json']);
      expect(deleted.code, deleted.err).toBe(0);
      expect(deleted.events[0]).toMatchObject({ event: 'deleted', name: 'Sales EMEA' });
      expect((await waymark(['cohorts', 'list', '--json'])).events).toEqual([]);

      const log = await waymark(['audit', '--action', 'cohort', '--json']);
      expect(log.events.map((e) => e.action).sort()).toEqual(
        [
          'cohort.created',
          'cohort.member_added',
          'cohort.member_added',
          'cohort.member_removed',
          'cohort.deleted',
        ].sort(),
      );
    });
  },
);
