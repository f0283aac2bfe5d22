/**
 * `waymark awards verify` and `waymark awards revoke` against the real server (the app on PGlite, listening
 * on a free port, identity from the Firebase Auth emulator): a learner earns a feather on a roadmap a mentor
 * assigned; the terminal verifies its credential by address and from a file (exit 0), a file altered in one
 * character (exit 10, tampered) and a file that is no credential (non-zero, saying why); the learner may not revoke
 * (exit 4); the mentor revokes with a reason, and verifying again says revoked (exit 9).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assignedRoadmaps } from '@server/catalogue/tables';
import { credentials } from '@server/credentials/tables';
import { assignTo, type Bank, calls, seedBank } from '@server/test/fixtures/assessments';
import { type SignedIn, TestServer } from '@server/test/helper';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttp, type Http } from '../src/core/http';
import { SessionStore } from '../src/core/session';
import { freePort, runWaymark } from './harness';

const emulatorHost = process.env.FIREBASE_AUTH_EMULATOR_HOST;
const SKIP_REASON =
  'SKIPPED: needs the Firebase Auth emulator; set FIREBASE_AUTH_EMULATOR_HOST=host:port (npm test does)';
if (!emulatorHost) console.warn(`cli/test/awards.real-server.test.ts ${SKIP_REASON}`);

describe.skipIf(!emulatorHost)(
  `waymark awards against the real server${emulatorHost ? '' : ` (${SKIP_REASON})`}`,
  () => {
    let api: TestServer;
    let server: string;
    let dir: string;
    let http: Http;
    let sessions: SessionStore;
    let learner: SignedIn;
    let mentor: SignedIn;
    let feather: string;

    const waymark = (args: string[], token: string) =>
      runWaymark(['--server', server, ...args], { sessions, http, env: { WAYMARK_TOKEN: token } });

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'waymark-cli-awards-'));
      const port = await freePort();
      api = new TestServer({ env: { HOST: '127.0.0.1', PORT: String(port), DATA_DIR: join(dir, 'data') } });
      await api.start();
      await api.app.listen({ port, host: '127.0.0.1' });
      server = `http://127.0.0.1:${port}`;
      http = createHttp();
      sessions = new SessionStore(join(dir, 'config', 'waymark', 'session.json'));
      const bank: Bank = await seedBank(api.db);
      learner = await api.signedIn('USER', { name: 'Lena Learner' });
      mentor = await api.signedIn('TENANT', { name: 'Northwind Academy' });
      const ar = await assignTo(api.db, learner.user._id, bank);
      await api.db
        .update(assignedRoadmaps)
        .set({ source: 'TENANT', assignedBy: mentor.user._id })
        .where(eq(assignedRoadmaps.id, ar));
      const take = calls(api.app);
      const asLearner = { id: learner.user._id, headers: { authorization: `Bearer ${learner.token}` } };
      feather = await take.createOk(asLearner as never, {
        type: 'RESOURCE',
        assignedRoadmapId: ar,
        sectionId: bank.sectionIds[0],
        resourceId: bank.resourceIds[0],
      });
      await take.take(feather, bank, 'right');
    }, 120_000);

    afterAll(async () => {
      await api?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('verifies the credential by its address and from a file; an altered file is tampered, junk is refused', async () => {
      const byUrl = await waymark(
        ['awards', 'verify', `${server}/api/credentials/${feather}`],
        learner.token,
      );
      expect(byUrl.code, byUrl.err).toBe(0);
      expect(byUrl.events[0]).toMatchObject({ event: 'verification', verdict: 'valid' });
      // the server it works with issued it: said by its DID, not by the name
      expect(byUrl.events[0].issuer).toMatchObject({
        name: 'Waymark',
        isThisServer: true,
        statement: `Issued by the Waymark at ${server} (did:web:127.0.0.1%3A${new URL(server).port}).`,
      });

      const [row] = await api.db.select().from(credentials).where(eq(credentials.awardId, feather));
      const file = join(dir, 'feather.json');
      writeFileSync(file, JSON.stringify(row!.document));
      const fromFile = await waymark(['awards', 'verify', file], learner.token);
      expect(fromFile.code, fromFile.err).toBe(0);
      expect(fromFile.events[0].credential).toMatchObject({ recipient: 'Lena Learner' });

      const altered = join(dir, 'altered.json');
      writeFileSync(altered, JSON.stringify(row!.document).replace('Lena Learner', 'Lena Learnex'));
      const tampered = await waymark(['awards', 'verify', altered], learner.token);
      expect(tampered.code).toBe(10);
      expect(tampered.events[0]).toMatchObject({ verdict: 'tampered' });

      const junk = join(dir, 'junk.json');
      writeFileSync(junk, '{"x": 1}');
      const notOne = await waymark(['awards', 'verify', junk], learner.token);
      expect(notOne.code).not.toBe(0);
      expect(`${notOne.out}${notOne.err}`).toMatch(/no @context/);
    });

    it('lets the mentor revoke with a reason, not the learner; verifying again says revoked', async () => {
      const byLearner = await waymark(
        ['awards', 'revoke', feather, '--reason', 'I would like it gone.'],
        learner.token,
      );
      expect(byLearner.code).toBe(4);

      const noReason = await waymark(['awards', 'revoke', feather, '--reason', ' '], mentor.token);
      expect(noReason.code).toBe(2);
      expect(noReason.err).toMatch(/--reason/);

      const revoked = await waymark(
        [
          'awards',
          'revoke',
          `${server}/feather/${feather}`,
          '--reason',
          'Answers were shared before the test.',
        ],
        mentor.token,
      );
      expect(revoked.code, revoked.err).toBe(0);
      expect(revoked.events[0]).toMatchObject({
        event: 'revoked',
        awardId: feather,
        revokedAs: 'MENTOR',
        reason: 'Answers were shared before the test.',
        already: false,
      });

      const again = await waymark(['awards', 'verify', `${server}/verify/${feather}`], learner.token);
      expect(again.code).toBe(9);
      expect(again.events[0]).toMatchObject({ verdict: 'revoked' });
    });
  },
);
