/**
 * Opens the database: PGlite in DATA_DIR/pglite by default, a PostgreSQL server when DATABASE_URL is set.
 * Migrations (ours, then the job queue's tables, then the activity tables' partitions: server/db/partitions.ts)
 * are applied before the database is handed out. On PostgreSQL any number of processes may
 * start at once: each migrates on a connection of its own holding a session advisory lock, so one applies
 * what is missing while the others wait, then find nothing left to do. With DATABASE_REPLICA_URL a second
 * pool reads from a streaming replica (server/db/replica.ts): `reads()` hands it out while it is in use.
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
import { fromPglite } from 'pg-boss';
import { installJobSchema } from '../jobs/queue';
import { preparePartitions } from './partition-conversion';
import type { Session } from './partitions';
import { Replica } from './replica';
import * as schema from './schema';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
  /** The PGlite instance, when the database is embedded (for cloning in tests). */
  pglite?: PGlite;
  /** The PostgreSQL connection string, when the database is a server. */
  url?: string;
  /**
   * How long (ms) the request waiting longest for one of this process's database connections has waited;
   * 0 when none waits (and always on PGlite, which has no pool). The server sheds load on it (server/http/protections.ts).
   */
  poolWaitMs(): number;
  /**
   * Runs `fn` while this process holds the named lock across every process on the database (a session
   * advisory lock on a connection of its own); PGlite is one process, so there it simply runs `fn`.
   */
  exclusive<T>(name: string, fn: () => Promise<T>): Promise<T>;
  /**
   * Runs `fn` on a connection of its own holding the migration lock (PGlite: its one connection): for
   * work on the tables' structure, one process at a time (the partitions' maintenance).
   */
  structural<T>(fn: (session: Session) => Promise<T>): Promise<T>;
  /**
   * Where a read that may be a little behind goes (reports, exports, the public catalogue): the replica
   * while it is in use, else the primary. Anything that must see its own writes uses `db`.
   */
  reads(): Db;
  /** The read replica (DATABASE_REPLICA_URL), or null. */
  replica: Replica | null;
}

/** The advisory lock migrations run under (hashed to PostgreSQL's 64-bit lock key space). */
export const MIGRATION_LOCK = 'waymark:migrations';

export const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

export interface OpenOptions {
  databaseUrl?: string;
  /** PGlite folder; `memory://` for a throwaway in-memory database. */
  pgliteDir?: string;
  /** A PGlite data dump to start from (tests clone a migrated database this way). */
  pgliteDump?: Blob | File;
  poolSize?: number;
  migrate?: boolean;
  /** Another migrations folder (tests stand up an older release's database with fewer migrations). */
  migrationsDir?: string;
  /**
   * false: leave the activity tables as they are, plain or partitioned, and make no partitions (a database
   * as a release before migration 0023 left it — the conversion's tests — or a bench's own set-up).
   */
  partitions?: boolean;
  /** A streaming replica of `databaseUrl` for the reads that may lag (PostgreSQL only). */
  replicaUrl?: string;
  /** How far behind (ms) the replica may be and still be read. */
  replicaMaxLagMs?: number;
}

/** A PostgreSQL connection or PGlite as a partitions session. */
const sessionOf = (c: {
  query(text: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
}): Session => ({
  query: async <R>(text: string, params?: unknown[]) => (await c.query(text, params)).rows as R[],
});

/** The partitions, converted or ahead, when the database is opened (every start; nothing when all is there). */
const partitionsNow = async (session: Session, opts: OpenOptions) => {
  if (opts.partitions !== false) await preparePartitions(session, { now: Date.now() });
};

/**
 * Holds a session advisory lock on a connection of its own while `fn` runs. A process starting behind a
 * long migration waits for it, asking again and again (`pg_try_advisory_lock`) rather than in one statement:
 * a statement waiting holds a snapshot, which the holder's CREATE INDEX CONCURRENTLY and DETACH … CONCURRENTLY
 * (server/db/partitions.ts) would wait for in turn — a deadlock. Ending the connection releases the lock
 * even when `fn` throws or the process dies.
 */
export async function withAdvisoryLock<T>(url: string, name: string, fn: (client: pg.Client) => Promise<T>) {
  const client = new pg.Client({ connectionString: url, application_name: `waymark ${name}` });
  await client.connect();
  try {
    for (let wait = 20; ; wait = Math.min(wait * 2, 500)) {
      const { rows } = await client.query<{ got: boolean }>(
        'select pg_try_advisory_lock(hashtextextended($1, 0)) as got',
        [name],
      );
      if (rows[0]?.got) break;
      await new Promise((r) => setTimeout(r, wait));
    }
    return await fn(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Times every wait for a connection of `pool` (its queries and transactions all take one through
 * `connect`) and gives the age of the oldest wait still open. A Set keeps insertion order, so its first
 * entry is the oldest: O(1) per request.
 */
function timeWaits(pool: pg.Pool): () => number {
  const waits = new Set<{ since: number }>();
  const connect = pool.connect.bind(pool) as (
    cb: (err: Error | undefined, client?: pg.PoolClient, done?: (release?: unknown) => void) => void,
  ) => void;
  const timed = (
    cb?: (err: Error | undefined, client?: pg.PoolClient, done?: (r?: unknown) => void) => void,
  ) => {
    const wait = { since: performance.now() };
    waits.add(wait);
    if (cb) {
      connect((err, client, done) => {
        waits.delete(wait);
        cb(err, client, done);
      });
      return undefined;
    }
    return new Promise<pg.PoolClient>((resolve, reject) =>
      connect((err, client) => {
        waits.delete(wait);
        if (err || !client) reject(err);
        else resolve(client);
      }),
    );
  };
  // pool.query takes its connection through this.connect, so the instance's own method sees every wait
  (pool as unknown as { connect: typeof timed }).connect = timed;
  return () => {
    const oldest = waits.values().next().value;
    return oldest ? performance.now() - oldest.since : 0;
  };
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
    const poolWaitMs = timeWaits(pool);
    const db: Db = drizzlePg(pool, { schema });
    const url = opts.databaseUrl;
    if (opts.migrate !== false) {
      try {
        await withAdvisoryLock(url, MIGRATION_LOCK, async (client) => {
          await migratePg(drizzlePg(client, { schema }), {
            migrationsFolder: opts.migrationsDir ?? MIGRATIONS_DIR,
          });
          // the job queue's tables, on the same locked connection
          await installJobSchema(
            { executeSql: (text: string, values?: unknown[]) => client.query(text, values) },
            'postgres',
          );
          await partitionsNow(sessionOf(client), opts);
        });
      } catch (err) {
        await pool.end().catch(() => undefined);
        throw err;
      }
    } else {
      // a database migrated before (tests' templates, a bench's): its partitions ahead may have run out
      if (opts.partitions !== false) {
        await withAdvisoryLock(url, MIGRATION_LOCK, (client) => partitionsNow(sessionOf(client), opts));
      }
    }
    const replica = opts.replicaUrl
      ? new Replica(opts.replicaUrl, pool, opts.replicaMaxLagMs ?? 5000, opts.poolSize ?? 10)
      : null;
    return {
      db,
      kind: 'postgres',
      url,
      close: async () => {
        await replica?.close();
        await pool.end();
      },
      poolWaitMs,
      exclusive: (name, fn) => withAdvisoryLock(url, name, () => fn()),
      structural: (fn) => withAdvisoryLock(url, MIGRATION_LOCK, (client) => fn(sessionOf(client))),
      reads: () => (replica?.inUse ? replica.db : db),
      replica,
    };
  }
  const dir = opts.pgliteDir ?? 'memory://';
  if (!dir.startsWith('memory://')) mkdirSync(dir, { recursive: true });
  const client = opts.pgliteDump
    ? new PGlite({ loadDataDir: opts.pgliteDump })
    : new PGlite(dir.startsWith('memory://') ? undefined : dir);
  await client.waitReady;
  const pgliteDb = drizzlePglite(client, { schema });
  const db: Db = pgliteDb;
  if (opts.migrate !== false && !opts.pgliteDump) {
    await migratePglite(pgliteDb, { migrationsFolder: opts.migrationsDir ?? MIGRATIONS_DIR });
    await installJobSchema(fromPglite(client), 'pglite');
  }
  await partitionsNow(sessionOf(client), opts);
  return {
    db,
    kind: 'pglite',
    pglite: client,
    close: () => client.close(),
    poolWaitMs: () => 0,
    exclusive: (_name, fn) => fn(),
    structural: (fn) => fn(sessionOf(client)),
    reads: () => db,
    replica: null,
  };
}
