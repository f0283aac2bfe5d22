import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';

/** A child that writes far more than a pipe holds, read for a few bytes only (as `| head -c 5` does). */
function readFewBytes(script: string): Promise<{ code: number | null; stderr: string; got: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let got = '';
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.stdout.once('data', (d) => {
      got = String(d).slice(0, 5);
      child.stdout.destroy();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr, got }));
  });
}

const writer = (install: boolean) => `
${
  install
    ? `const { endQuietlyOnBrokenPipe } = await import(${JSON.stringify(new URL('./pipe.ts', import.meta.url).href)});
endQuietlyOnBrokenPipe(process.stdout);`
    : ''
}
const line = 'a line of a long listing\\n'.repeat(400);
const more = () => { while (process.stdout.write(line)) {} process.stdout.once('drain', more); };
more();
`;

describe('a reader that stops reading (waymark … | head)', () => {
  it('ends the command quietly with success', async () => {
    const run = await readFewBytes(writer(true));
    expect(run.got).toBe('a lin');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
  }, 20_000);

  it('is what fails without it: a stack trace and a failure', async () => {
    const run = await readFewBytes(writer(false));
    expect(run.stderr).toMatch(/EPIPE/);
    expect(run.code).not.toBe(0);
  }, 20_000);
});
