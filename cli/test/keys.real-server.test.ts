/**
 * `waymark keys` and `waymark audit` against the real server (the app on a PGlite clone, identity from the
 * Firebase Auth emulator): the mentor makes a key (printed once), a script uses it through WAYMARK_API_KEY
 * within its scopes and is refused outside them, the activity log names the key for what it did, and the
 * key revoked is refused at once.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type SignedIn, type TestServer, uniqueEmail } from '@server/test/helper';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Http } from '../src/core/http';
import type { SessionStore } from '../src/core/session';
import { startAuthoringServer } from './authoring-server';
import { runWaymark } from './harness';

const emulatorHost = process.env.FIREBASE_AUTH_EMULATOR_HOST;
const SKIP_REASON =
  'SKIPPED: needs the Firebase Auth emulator; set FIREBASE_AUTH_EMULATOR_HOST=host:port (npm test does)';
if (!emulatorHost) console.warn(`cli/test/keys.real-server.test.ts ${SKIP_REASON}`);

describe.skipIf(!emulatorHost)(
  `waymark keys and waymark audit against the real server${emulatorHost ? '' : ` (${SKIP_REASON})`}`,
  () => {
    let api: TestServer;
    let server: string;
    let dir: string;
    let http: Http;
    let sessions: SessionStore;
    let mentor: SignedIn;
    let started: Awaited<ReturnType<typeof startAuthoringServer>>;
    let key = '';

    /** `waymark …` as the mentor in person (WAYMARK_TOKEN), or with `env` (an API key); output NDJSON. */
    const waymark = (args: string[], env: Record<string, string> = { WAYMARK_TOKEN: mentor.token }) =>
      runWaymark(['--server', server, ...args], { sessions, http, env });

    beforeAll(async () => {
      started = await startAuthoringServer('waymark-cli-keys-');
      ({ api, server, dir, http, sessions } = started);
      mentor = await api.signedIn('TENANT', { name: 'Kiran Keys' });
    }, 120_000);

    afterAll(async () => {
      await started?.close();
    });

    it('makes a key printed once, with its scopes and expiry, and names a bad option', async () => {
      const made = await waymark([
        'keys',
        'create',
        'HR sync',
        '--scopes',
        'seats:read,seats:write',
        '--no-json',
      ]);
      expect(made.code, made.err).toBe(0);
      key = made.out.trim();
      expect(key).toMatch(/^wm_[a-z0-9]{12}_[A-Za-z0-9_-]{43}$/);
      expect(made.err).toMatch(/shown only once/);
      expect(made.err).toMatch(/seats:read, seats:write, until \d{4}-\d{2}-\d{2}/);
      const bad = await waymark(['keys', 'create', 'x', '--scopes', 'seats:delete']);
      expect(bad.code).toBe(2);
      expect(bad.err).toMatch(/--scopes: must be one of/);
      const list = await waymark(['keys', 'list', '--json']);
      expect(list.events).toHaveLength(1);
      expect(list.events[0]).toMatchObject({
        name: 'HR sync',
        status: 'ACTIVE',
        prefix: `${key.slice(0, 15)}_…`,
      });
      expect(list.out).not.toContain(key.slice(16));
    });

    it('acts through WAYMARK_API_KEY within the key’s scopes, and says which scope a refused call needs', async () => {
      const learner = await api.signedIn('USER', { email: uniqueEmail('keyed'), name: 'Keyed Learner' });
      const byKey = { WAYMARK_API_KEY: key };
      const added = await waymark(['seats', 'add', learner.account.email, '--json'], byKey);
      expect(added.code, added.err).toBe(0);
      expect(added.events.find((e) => e.event === 'seat')).toMatchObject({ status: 'added' });
      const report = await waymark(['reports', 'users', '--json'], byKey);
      expect(report.code).toBe(4);
      expect(report.err).toMatch(/needs the scope reports:read/);
      const making = await waymark(['keys', 'create', 'Escalate', '--scopes', 'seats:write'], byKey);
      expect(making.code).toBe(4);
      expect(making.err).toMatch(/needs a person/);
      const who = await waymark(['whoami', '--no-json'], byKey);
      expect(who.out).toContain(`API key ${key.slice(0, 15)}_…`);
    });

    it('reads the activity log: who did what, filtered, as lines and as a CSV file', async () => {
      const log = await waymark(['audit', '--json']);
      expect(log.code, log.err).toBe(0);
      const actions = log.events.map((e) => e.action);
      expect(actions).toEqual(['seat.added', 'apikey.created']);
      expect(log.events[0].actor).toMatchObject({ kind: 'apiKey', label: `HR sync (${key.slice(0, 15)}_…)` });
      const seats = await waymark(['audit', '--action', 'apikey', '--no-json']);
      expect(seats.out.trim().split('\n')).toHaveLength(1);
      expect(seats.out).toContain('apikey.created\tperson\tKiran Keys');
      const file = join(dir, 'activity.csv');
      const csv = await waymark(['audit', '--from', new Date().toISOString().slice(0, 10), '-o', file]);
      expect(csv.code, csv.err).toBe(0);
      const text = readFileSync(file, 'utf8');
      expect(text.startsWith('\uFEFFTime,Action,Actor kind')).toBe(true);
      expect(text).toContain('seat.added');
      const wrong = await waymark(['audit', '--actor-kind', 'robot']);
      expect(wrong.code).toBe(2);
    });

    it('revokes the key by its prefix, after --yes, and the key is refused at once', async () => {
      const unconfirmed = await waymark(['keys', 'revoke', key.slice(0, 15)]);
      expect(unconfirmed.code).toBe(2);
      const revoked = await waymark(['keys', 'revoke', key.slice(0, 15), '--yes', '--json']);
      expect(revoked.code, revoked.err).toBe(0);
      expect(revoked.events[0]).toMatchObject({ event: 'revoked', status: 'REVOKED' });
      const refused = await waymark(['seats', 'list', '--json'], { WAYMARK_API_KEY: key });
      expect(refused.code).toBe(3);
      expect(refused.err).toMatch(/WAYMARK_API_KEY was refused: This API key has been revoked/);
    });
  },
);
