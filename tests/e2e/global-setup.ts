/**
 * Starts the Auth emulator (unless one is given) and the real server on a free port with a fresh data
 * folder, for the whole run. Short access tokens make every test exercise the silent refresh.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../../scripts/service.mjs';

async function waitFor(url: string, ms: number) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer within ${ms} ms`);
}

export default async function globalSetup() {
  const stops: (() => Promise<void> | void)[] = [];
  let emulatorHost = process.env.WAYMARK_E2E_EMULATOR_HOST;
  if (!emulatorHost) {
    const { startEmulator } = (await import(`${'../../scripts/emulator.mjs'}`)) as {
      startEmulator: (o: { projectId: string }) => Promise<{ host: string; stop(): Promise<void> }>;
    };
    const emulator = await startEmulator({ projectId: 'demo-waymark' });
    emulatorHost = emulator.host;
    stops.push(() => emulator.stop());
  }
  const port = await freePort();
  // a partner's site on a second origin (tests/support/partner.ts), allowed to call the API as a partner is
  const partnerPort = await freePort();
  const dataDir = join(process.cwd(), '.tmp', `e2e-${process.pid}`);
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  const server: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      FIREBASE_PROJECT_ID: 'demo-waymark',
      FIREBASE_AUTH_EMULATOR_HOST: emulatorHost,
      ACCESS_TOKEN_TTL: '6',
      RATE_LIMIT_AUTH: '10000',
      RATE_LIMIT_STRICT: '10000',
      LOG_LEVEL: 'warn',
      STATIC_DIR: './dist',
      CORS_ORIGINS: `http://127.0.0.1:${partnerPort}`,
      // the LTI spec's LMS runs on this machine over plain http (tests/support/lti-lms.ts)
      LTI_DEV_LOOPBACK: 'true',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  stops.push(
    () =>
      new Promise<void>((resolve) => {
        if (server.exitCode !== null) return resolve();
        server.once('exit', () => resolve());
        server.kill('SIGTERM');
        setTimeout(() => server.kill('SIGKILL'), 5000).unref();
      }),
  );
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    // a busy machine (CI shares its cores) can take minutes to migrate and seed a fresh database
    await waitFor(`${baseUrl}/api/health`, 240_000);
  } catch (err) {
    // no teardown runs after a failed setup: stop what was started here
    for (const stop of stops.reverse()) await stop();
    throw err;
  }
  process.env.WAYMARK_E2E_BASE_URL = baseUrl;
  process.env.WAYMARK_E2E_EMULATOR_HOST = emulatorHost;
  process.env.WAYMARK_E2E_DATA_DIR = dataDir;
  process.env.WAYMARK_E2E_PARTNER_PORT = String(partnerPort);
  return async () => {
    for (const stop of stops.reverse()) await stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
