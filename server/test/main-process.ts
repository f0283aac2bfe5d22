/**
 * Real server processes for the tests that check several of them from outside (server/system/
 * scale-out.test.ts, cluster.test.ts): `server/main.ts` started as a deployment starts it, on a throwaway
 * PostgreSQL database of the test cluster.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { freePort } from '../../scripts/service.mjs';
import { emulatorHost } from './helper';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));

export interface MainProcess {
  url: string;
  child: ChildProcess;
  /** Everything it printed, stdout and stderr. */
  output: string[];
  /** Its exit code once it has ended. */
  exited: Promise<number | null>;
}

/**
 * Starts `server/main.ts` on a free port with the development settings every such test shares (no demo
 * content, the Auth emulator, warnings only, no built portal) and `settings` (DATA_DIR, DATABASE_URL, …).
 */
export async function startMain(settings: Record<string, string>): Promise<MainProcess> {
  const port = await freePort();
  const output: string[] = [];
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      PORT: String(port),
      HOST: '127.0.0.1',
      FIREBASE_PROJECT_ID: 'demo-waymark',
      FIREBASE_AUTH_EMULATOR_HOST: emulatorHost(),
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
      STATIC_DIR: join(ROOT, '.tmp', 'no-static'),
      ...settings,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (c: Buffer) => output.push(c.toString()));
  child.stderr?.on('data', (c: Buffer) => output.push(c.toString()));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return { url: `http://127.0.0.1:${port}`, child, output, exited };
}

/**
 * A database of its own on the cluster at `adminUrl` (TEST_DATABASE_URL): its URL, and how to create and
 * drop it. Called in a describe body, which vitest runs even for a skipped suite, so a missing or empty
 * `adminUrl` (the PGlite run sets TEST_DATABASE_URL='') must not throw here: only using it does.
 */
export function throwawayDatabase(adminUrl: string | undefined, prefix: string) {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  let url = '';
  if (adminUrl) {
    const parsed = new URL(adminUrl);
    parsed.pathname = `/${name}`;
    url = parsed.toString();
  }
  const admin = async (statement: string) => {
    if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set: this database needs a PostgreSQL');
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  return {
    url,
    create: () => admin(`create database ${name}`),
    drop: () => admin(`drop database if exists ${name} with (force)`),
  };
}
