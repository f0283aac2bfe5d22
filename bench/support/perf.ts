import { spawn, spawnSync } from 'node:child_process';

/**
 * A system-wide CPU profile of one phase by Linux `perf record` (software clock, call graphs): where
 * PostgreSQL's backends spend their time, which the server's V8 profile cannot show. Read it with
 * `perf report -i FILE --comm postgres --no-children` (or `--comm node`). Null when perf is not there.
 */
export function perfRecorder(): ((file: string) => Promise<() => Promise<void>>) | null {
  if (spawnSync('perf', ['--version']).status !== 0) return null;
  return async (file) => {
    const child = spawn(
      'perf',
      ['record', '-a', '-g', '-e', 'cpu-clock', '-F', process.env.PERF_FREQUENCY ?? '499', '-o', file],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    // perf prints nothing when it starts recording; give it a moment to open its buffers
    await new Promise((r) => setTimeout(r, 300));
    if (child.exitCode !== null) throw new Error(`perf record failed: ${err.trim()}`);
    return async () => {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGINT');
      await exited;
    };
  };
}
