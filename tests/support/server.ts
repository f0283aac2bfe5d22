/**
 * Starts one more Waymark server (`server/main.ts` through tsx) on a free port with a fresh data folder,
 * for a test or a benchmark that needs settings of its own (an SMTP server, a PostgreSQL database).
 * `stop()` ends it and removes the folder.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../scripts/service.mjs';

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));

/** A port nobody listens on right now (the one helper, scripts/service.mjs). */
export { freePort };

export interface StartedServer {
  url: string;
  stop(): Promise<void>;
}

/**
 * `env` is added to (and overrides) the defaults: NODE_ENV test, LOG_LEVEL warn, the demo Firebase project,
 * the portal and widgets of ./dist, and no demo content.
 */
export async function startWaymark(env: Record<string, string>, timeoutMs = 90_000): Promise<StartedServer> {
  const port = await freePort();
  mkdirSync(join(root, '.tmp'), { recursive: true });
  const dataDir = mkdtempSync(join(root, '.tmp', 'server-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      FIREBASE_PROJECT_ID: 'demo-waymark',
      STATIC_DIR: join(root, 'dist'),
      SEED_DEMO: 'false',
      ...env,
      PORT: String(port),
      DATA_DIR: dataDir,
    },
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(force);
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`the server stopped while starting (exit code ${child.exitCode})`);
    }
    try {
      if ((await fetch(`${url}/api/health`)).ok) return { url, stop };
    } catch {
      // not yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the server did not answer within ${timeoutMs / 1000} s`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}
