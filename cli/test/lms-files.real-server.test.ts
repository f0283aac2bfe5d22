/**
 * Every question file of shared/formats/fixtures (Moodle GIFT, Aiken, Moodle XML, QTI 2.1, Canvas's QTI 1.2,
 * and the LMS files of issue 25), imported into the real server by `waymark questions import`: the dry run
 * and the import agree count by count — what a dry run says would be created is what the import creates,
 * duplicates are duplicates in both, unchanged questions are unchanged in both — or both refuse the file
 * with the same words. Each file twice: with its own subjects and categories, then placed by --subject and
 * --topic; the second pass meets questions the first created, which both runs must call unchanged.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SignedIn } from '@server/test/helper';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthoringServer } from './authoring-server';
import { runWaymark } from './harness';

const emulatorHost = process.env.FIREBASE_AUTH_EMULATOR_HOST;
const SKIP_REASON =
  'SKIPPED: needs the Firebase Auth emulator; set FIREBASE_AUTH_EMULATOR_HOST=host:port (npm test does)';
if (!emulatorHost) console.warn(`cli/test/lms-files.real-server.test.ts ${SKIP_REASON}`);

const fixtures = fileURLToPath(new URL('../../shared/formats/fixtures/', import.meta.url));
const files = [
  ...readdirSync(fixtures).filter((f) => !f.startsWith('.') && f !== 'lms'),
  ...readdirSync(join(fixtures, 'lms')).map((f) => `lms/${f}`),
].sort();

/** What the dry run says of each status, as the import's statuses. */
const AS_IMPORTED: Record<string, string> = {
  wouldCreate: 'created',
  wouldUpdate: 'updated',
  unchanged: 'unchanged',
  changed: 'changed',
  duplicate: 'duplicate',
};

describe.skipIf(!emulatorHost)(
  `every fixture's dry run and import agree${emulatorHost ? '' : ` (${SKIP_REASON})`}`,
  () => {
    let started: Awaited<ReturnType<typeof startAuthoringServer>>;
    let author: SignedIn;

    const waymark = (args: string[]) =>
      runWaymark(['--server', started.server, ...args], {
        sessions: started.sessions,
        http: started.http,
        env: { WAYMARK_TOKEN: author.token },
      });

    beforeAll(async () => {
      started = await startAuthoringServer('waymark-cli-lms-');
      author = await started.api.signedIn('TENANT', { name: 'Lena LMS' });
    }, 120_000);

    afterAll(async () => {
      await started?.close();
    });

    const passes = [
      { name: 'placed by the file', args: [] as string[] },
      { name: 'placed by --subject and --topic', args: ['--subject', 'Programming', '--topic', 'Git'] },
    ];
    const imported: Record<string, number> = {};

    for (const pass of passes)
      it(`agrees on every file, ${pass.name}`, async () => {
        for (const file of files) {
          const args = ['questions', 'import', join(fixtures, file), '--skip-unsupported', ...pass.args];
          const dry = await waymark([...args, '--dry-run']);
          const real = await waymark(args);
          expect(real.code, `${file}: ${real.err}`).toBe(dry.code);
          if (dry.code !== 0) {
            // refused alike, in the same words
            const said = (err: string) => err.split('\n').find((l) => l.startsWith('waymark: '));
            expect(said(real.err), file).toBe(said(dry.err));
            expect(said(dry.err), file).toMatch(/nothing was written/);
            continue;
          }
          const before = dry.events.at(-1);
          const after = real.events.at(-1);
          expect(after.failed, `${file}: ${real.err}`).toBe(0);
          expect(after.total, file).toBe(before.total);
          expect(after.skipped, file).toBe(before.skipped);
          for (const [would, did] of Object.entries(AS_IMPORTED))
            expect(after[did], `${file}: ${did}`).toBe(before[would]);
          // and each question the same
          const statuses = (events: { event: string; status: string; line: number; part?: string }[]) =>
            events
              .filter((e) => e.event === 'question')
              .map((e) => `${e.part ?? ''}:${e.line} ${AS_IMPORTED[e.status] ?? e.status}`)
              .sort();
          expect(statuses(real.events), file).toEqual(statuses(dry.events));
          imported[file] = (imported[file] ?? 0) + after.created;
        }
      }, 240_000);

    it('imported the LMS files that can be imported, each question once', () => {
      // categories: placed by the file except "Iota", so only the second pass imports it, all three
      expect(imported['lms/categories.moodle.xml']).toBe(3);
      // two copies of one question, a question Waymark cannot hold, and one more: two questions, the
      // second pass finding them unchanged (their category is Programming / Git already)
      expect(imported['lms/duplicates.gift']).toBe(2);
      expect(imported['lms/no-space.aiken.txt']).toBe(2);
      expect(imported['lms/markdown.gift']).toBeGreaterThan(0);
      expect(imported['lms/same-options.gift']).toBeUndefined();
    });
  },
);
