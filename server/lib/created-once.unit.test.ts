/**
 * Processes starting together in an empty DATA_DIR must all read the one file the first of them wrote, whole
 * (createdOnce): the DATA_DIR's id (a process that read it before it was whole took itself for a process on
 * another disk and refused to start), the generated token secret (two processes that each kept their own
 * refused each other's tokens) and the credentials' key file (a process that read it half written failed to
 * start: server/system/scale-out.test.ts, 2026-11-27). Each creator is raced by real processes.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const CREATORS = {
  'the id of a DATA_DIR': {
    module: 'server/system/processes.ts',
    call: (dir: string) => `m.dataDirId(${JSON.stringify(dir)})`,
  },
  'the generated token secret': {
    module: 'server/config.ts',
    call: (dir: string) => `m.localSecret(${JSON.stringify(dir)})`,
  },
  "the credentials' key file": {
    module: 'server/credentials/keys.ts',
    call: (dir: string) =>
      `(await m.localKeyFile(${JSON.stringify(join(dir, 'keys.json'))})).keys[0].secretKeyMultibase`,
  },
};

/** `n` processes that each wait for the same instant, then read (or create) what `call` gives of `dir`. */
function race(creator: keyof typeof CREATORS, dir: string, n: number, at: number): Promise<string[]> {
  const { module, call } = CREATORS[creator];
  const code = `
    const m = await import(${JSON.stringify(join(ROOT, module))});
    while (Date.now() < ${at});
    process.stdout.write(JSON.stringify(await ${call(dir)}));`;
  return Promise.all(
    Array.from(
      { length: n },
      () =>
        new Promise<string>((done, fail) => {
          const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
            cwd: ROOT,
            stdio: ['ignore', 'pipe', 'inherit'],
          });
          let out = '';
          child.stdout.on('data', (c: Buffer) => {
            out += c.toString();
          });
          child.once('exit', (exitCode) =>
            exitCode === 0 ? done(JSON.parse(out) as string) : fail(new Error(`exit ${exitCode}`)),
          );
        }),
    ),
  );
}

for (const creator of Object.keys(CREATORS) as (keyof typeof CREATORS)[]) {
  describe(creator, () => {
    it('is the same, and whole, for processes creating it at the same moment', {
      timeout: 120_000,
    }, async () => {
      for (let round = 0; round < 2; round++) {
        const dir = mkdtempSync(join(tmpdir(), 'waymark-created-once-'));
        dirs.push(dir);
        // the processes load first (a few hundred ms each on two cores), then all go at once
        const got = await race(creator, join(dir, 'data'), 6, Date.now() + 5000);
        expect(got[0]).toMatch(/^[\w-]{20,}$/);
        expect(new Set(got)).toEqual(new Set([got[0]]));
      }
    });
  });
}
