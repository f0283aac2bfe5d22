/**
 * `waymark sandbox create | reset | show` against the real server (PGlite clone, the Firebase Auth emulator):
 * a mentor makes a sandbox, finds its links, and resets them; a learner is refused.
 */
import { seedBank } from '@server/test/fixtures/assessments';
import type { SignedIn } from '@server/test/helper';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthoringServer } from './authoring-server';
import { runWaymark } from './harness';

const emulatorHost = process.env.FIREBASE_AUTH_EMULATOR_HOST;

describe.skipIf(!emulatorHost)('waymark sandbox against the real server', () => {
  let started: Awaited<ReturnType<typeof startAuthoringServer>>;
  let mentor: SignedIn;
  const waymark = (args: string[], token = mentor.token) =>
    runWaymark(['--server', started.server, ...args], {
      sessions: started.sessions,
      http: started.http,
      env: { WAYMARK_TOKEN: token },
    });

  beforeAll(async () => {
    started = await startAuthoringServer('waymark-cli-sandbox-');
    // a roadmap of the catalogue with questions: what a sandbox's learners get
    await seedBank(started.api.db);
    mentor = await started.api.signedIn('TENANT', { name: 'Mira Mentor' });
  }, 120_000);

  afterAll(async () => {
    await started?.close();
  });

  it('says there is none yet, creates one, shows it, and resets its attempts', async () => {
    const none = await waymark(['sandbox', 'show']);
    expect(none.code).toBe(5);
    expect(none.err).toContain('You have no sandbox yet: waymark sandbox create');

    const created = await waymark(['sandbox', 'create', '--json']);
    expect(created.code, created.err).toBe(0);
    const sandbox = created.events[0];
    expect(sandbox.learners).toHaveLength(3);
    expect(sandbox.links).toHaveLength(6);

    // for people: a summary line, then a line a link with its id and its page
    const shown = await waymark(['sandbox', 'show', '--no-json']);
    expect(shown.code).toBe(0);
    const lines = shown.out.trim().split('\n');
    expect(lines[0]).toMatch(/^Sandbox since \d{4}-\d\d-\d\d \d\d:\d\d UTC: 3 learners, 6 open links\.$/);
    expect(lines.slice(1)).toHaveLength(6);
    const first = sandbox.links[0];
    expect(lines[1]).toBe(
      [first.learnerName, first.type, first.title, 'TAKE_TEST', first.linkId, first.testUrl].join('\t'),
    );

    const reset = await waymark(['sandbox', 'reset', '--no-json']);
    expect(reset.code).toBe(0);
    expect(reset.out).toMatch(
      /^Reset: every attempt is back to its start\. Sandbox since .+; reset 1 time, last .+ UTC/,
    );

    const learner = await started.api.signedIn('USER', { name: 'Lee Learner' });
    const refused = await waymark(['sandbox', 'create'], learner.token);
    expect(refused.code).toBe(4);
  }, 120_000);
});
