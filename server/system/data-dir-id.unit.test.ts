/**
 * Processes starting together in an empty DATA_DIR must all read the one id the first of them wrote
 * (dataDirId): a process that read it before it was whole took itself for a process on another disk and
 * refused to start (server/system/scale-out.test.ts failed so on CI's shared cores).
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

/** `n` processes that each wait for the same instant, then read (or write) the id of `dir`. */
function race(dir: string, n: number, at: number): Promise<string[]> {
  const code = `
    const { dataDirId } = await import(${JSON.stringify(join(ROOT, 'server/system/processes.ts'))});
    while (Date.now() < ${at});
    process.stdout.write(JSON.stringify(dataDirId(${JSON.stringify(dir)})));`;
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

describe('the id of a DATA_DIR', () => {
  it('is the same, and whole, for processes creating it at the same moment', {
    timeout: 120_000,
  }, async () => {
    for (let round = 0; round < 4; round++) {
      const dir = mkdtempSync(join(tmpdir(), 'waymark-data-dir-'));
      dirs.push(dir);
      // the processes load first (a few hundred ms each on two cores), then all go at once
      const ids = await race(join(dir, 'data'), 6, Date.now() + 4000);
      expect(ids[0]).toMatch(/^[0-9a-f-]{36}$/);
      expect(new Set(ids)).toEqual(new Set([ids[0]]));
    }
  });
});
