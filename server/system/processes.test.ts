/**
 * A process refuses to start beside a live process on the same PostgreSQL database that keeps its files
 * (or its generated signing secret or sealing key) somewhere else; processes sharing one DATA_DIR, or one S3
 * bucket, one JWT_SECRET and one INTEGRATIONS_SECRET_KEY, run side by side. PostgreSQL only: PGlite is one process by construction.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Config, loadConfig } from '../config';
import type { Database } from '../db/client';
import { serverProcesses } from '../db/schema';
import { openTestDatabase } from '../test/helper';
import { ProcessConflictError, ProcessRegistry } from './processes';

const quiet = { info: () => undefined, warn: () => undefined };
const secret = randomBytes(32).toString('base64url');
const sealing = randomBytes(32).toString('base64');

describe.skipIf(!process.env.TEST_DATABASE_URL)('server processes on one database', () => {
  let database: Database;
  const dirs: string[] = [];
  const joined: ProcessRegistry[] = [];

  const settings = (env: Record<string, string> = {}, dataDir?: string): Config => {
    const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'wm-proc-'));
    if (!dataDir) dirs.push(dir);
    return loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dir,
      FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099',
      JWT_SECRET: secret,
      INTEGRATIONS_SECRET_KEY: sealing,
      ...env,
    });
  };
  const join_ = async (config: Config) => {
    const r = await ProcessRegistry.join(database, config, quiet);
    if (r) joined.push(r);
    return r;
  };
  const leaveAll = async () => {
    for (const r of joined.splice(0)) await r.leave();
  };

  beforeAll(async () => {
    database = await openTestDatabase();
  }, 60_000);
  afterAll(async () => {
    await leaveAll();
    await database?.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('refuses a second process that keeps files on another disk, naming the first and the fix', async () => {
    const first = settings();
    await join_(first);
    const err = await join_(settings()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProcessConflictError);
    expect((err as Error).message).toMatch(/own disk/);
    expect((err as Error).message).toMatch(/S3_BUCKET/);
    expect((err as Error).message).toMatch(new RegExp(`pid ${process.pid}`));
    // a process on the same DATA_DIR shares the very folder: it may run
    expect(await join_(settings({}, first.dataDir))).not.toBeNull();
    await leaveAll();
  });

  it('lets processes with one S3 bucket and one JWT_SECRET run side by side, and refuses a local one among them', async () => {
    const s3 = {
      S3_BUCKET: 'waymark-awards',
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_ACCESS_KEY_ID: 'key',
      S3_SECRET_ACCESS_KEY: 'secret',
    };
    await join_(settings(s3));
    await join_(settings(s3));
    await expect(join_(settings())).rejects.toThrow(/own disk/);
    await expect(join_(settings({ ...s3, S3_BUCKET: 'another-bucket' }))).rejects.toThrow(
      /same S3_ENDPOINT and S3_BUCKET/,
    );
    // a secret generated into each process's DATA_DIR would split sign-ins between them
    const generated = settings({ ...s3, JWT_SECRET: '' });
    expect(generated.jwtSecretGenerated).toBe(true);
    await expect(join_(generated)).rejects.toThrow(/Set the same JWT_SECRET on every process/);
    // so would a sealing key generated into each: neither could open the other's integrations' secrets
    const unsealed = settings({ ...s3, INTEGRATIONS_SECRET_KEY: '' });
    expect(unsealed.integrations.sealingKeyGenerated).toBe(true);
    await expect(join_(unsealed)).rejects.toThrow(/Set the same INTEGRATIONS_SECRET_KEY on every process/);
    // two keys from the environment (one being replaced): a warning only
    expect(
      await join_(settings({ ...s3, INTEGRATIONS_SECRET_KEY: randomBytes(32).toString('base64') })),
    ).not.toBeNull();
    await leaveAll();
  });

  it('checks processes starting together one after the other: one of two different disks runs', async () => {
    const results = await Promise.allSettled([join_(settings()), join_(settings()), join_(settings())]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results.filter((r) => r.status === 'rejected')) {
      expect((r as PromiseRejectedResult).reason).toBeInstanceOf(ProcessConflictError);
    }
    await leaveAll();
  });

  it('counts a process gone once it has not been seen for 30 seconds, and after it left', async () => {
    const stale = settings();
    const gone = await join_(stale);
    await database.db.execute(sql`update server_processes set seen_at = now() - interval '31 seconds'`);
    expect(await join_(settings())).not.toBeNull();
    await leaveAll();
    expect(gone).not.toBeNull();
    expect(await database.db.select().from(serverProcesses)).toEqual([]);
    expect(await join_(settings())).not.toBeNull();
    await leaveAll();
  });
});
