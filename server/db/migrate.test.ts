/**
 * Any number of server processes may start together on one PostgreSQL database, empty or out of date:
 * each takes the migration advisory lock, so one migrates and the others find the work done.
 * (PostgreSQL only: PGlite is one process by construction.)
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR, openDatabase } from './client';

const adminUrl = process.env.TEST_DATABASE_URL;
const STARTS = 5;

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

const journal = () =>
  JSON.parse(readFileSync(join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8')) as {
    entries: { tag: string }[];
  };

describe.skipIf(!adminUrl)('migrations when several processes start at once', () => {
  const created: string[] = [];
  const folders: string[] = [];

  async function freshDatabase(): Promise<string> {
    const name = `waymark_mig_${Math.random().toString(36).slice(2, 10)}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    created.push(name);
    return withDatabase(adminUrl!, name);
  }

  afterAll(async () => {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    for (const name of created) await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
    for (const dir of folders) rmSync(dir, { recursive: true, force: true });
  });

  async function startTogether(url: string, migrationsDir?: string) {
    const results = await Promise.allSettled(
      Array.from({ length: STARTS }, () => openDatabase({ databaseUrl: url, poolSize: 2, migrationsDir })),
    );
    for (const r of results) if (r.status === 'fulfilled') await r.value.close();
    return results.map((r) => (r.status === 'fulfilled' ? 'up' : String((r.reason as Error).message)));
  }

  async function appliedMigrations(url: string): Promise<number> {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      const { rows } = await c.query('select count(*)::int as n from drizzle.__drizzle_migrations');
      return rows[0].n as number;
    } finally {
      await c.end();
    }
  }

  it(`brings ${STARTS} processes up on an empty database, each migration applied once`, async () => {
    const url = await freshDatabase();
    expect(await startTogether(url)).toEqual(Array(STARTS).fill('up'));
    expect(await appliedMigrations(url)).toBe(journal().entries.length);
  });

  it(`brings ${STARTS} processes up on an out-of-date database`, async () => {
    const url = await freshDatabase();
    // the database as an older release left it: every migration but the last three
    const older = mkdtempSync(join(tmpdir(), 'wm-migrations-'));
    folders.push(older);
    cpSync(MIGRATIONS_DIR, older, { recursive: true });
    const j = journal();
    const keep = j.entries.length - 3;
    writeFileSync(
      join(older, 'meta', '_journal.json'),
      JSON.stringify({ ...j, entries: j.entries.slice(0, keep) }),
    );
    const old = await openDatabase({ databaseUrl: url, poolSize: 1, migrationsDir: older });
    await old.close();
    expect(await appliedMigrations(url)).toBe(keep);

    expect(await startTogether(url)).toEqual(Array(STARTS).fill('up'));
    expect(await appliedMigrations(url)).toBe(j.entries.length);
  });
});
