/**
 * Opens the database: PGlite in DATA_DIR/pglite by default, a PostgreSQL server when DATABASE_URL is set.
 * Migrations are applied before the database is handed out.
 */
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import * as schema from './schema';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
  /** The PGlite instance, when the database is embedded (for cloning in tests). */
  pglite?: PGlite;
}

export const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

export interface OpenOptions {
  databaseUrl?: string;
  /** PGlite folder; `memory://` for a throwaway in-memory database. */
  pgliteDir?: string;
  /** A PGlite data dump to start from (tests clone a migrated database this way). */
  pgliteDump?: Blob | File;
  poolSize?: number;
  migrate?: boolean;
}

export async function openDatabase(opts: OpenOptions): Promise<Database> {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: opts.databaseUrl,
      max: opts.poolSize ?? 10,
      idleTimeoutMillis: 30_000,
      // a query that hangs must not hold a request for ever
      statement_timeout: 15_000,
    });
    pool.on('error', () => {
      // an idle client lost its connection; the pool replaces it
    });
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    if (opts.migrate !== false) {
      await migratePg(db as never, { migrationsFolder: MIGRATIONS_DIR });
    }
    return { db, kind: 'postgres', close: () => pool.end() };
  }
  const dir = opts.pgliteDir ?? 'memory://';
  if (!dir.startsWith('memory://')) mkdirSync(dir, { recursive: true });
  const client = opts.pgliteDump
    ? new PGlite({ loadDataDir: opts.pgliteDump })
    : new PGlite(dir.startsWith('memory://') ? undefined : dir);
  await client.waitReady;
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  if (opts.migrate !== false && !opts.pgliteDump) {
    await migratePglite(db as never, { migrationsFolder: MIGRATIONS_DIR });
  }
  return { db, kind: 'pglite', pglite: client, close: () => client.close() };
}
