/**
 * How the domains talk to the database, in one place: the handle types, transactions, raw-SQL rows and
 * prepared statements. Both drivers (node-postgres and PGlite) are reached through these, so a domain never
 * needs a cast to get from one handle to another.
 */
import type { Db } from './client';

export type { Db };

/**
 * A transaction's handle. It is a `Db` (a transaction is a database handle that can also roll back), so any
 * helper taking a `Db` runs inside one; take a `Tx` where a function must only ever run in a transaction.
 */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/**
 * Runs `fn` in a transaction: committed when it resolves, rolled back when it throws. Inside another
 * transaction it is a savepoint, so a helper that needs atomicity can ask for it whoever calls it.
 */
export function inTx<T>(db: Db, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(fn);
}

/** A unique index refused the write (PostgreSQL 23505, as node-postgres or drizzle's wrapper reports it). */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } };
  return e.code === '23505' || e.cause?.code === '23505';
}

/**
 * The rows of a raw `db.execute(sql…)`: node-postgres and PGlite both answer `{ rows }`, which drizzle types
 * loosely; `T` names the columns the query selects.
 */
export function rowsOf<T>(result: unknown): T[] {
  return ((result as { rows?: T[] }).rows ?? (result as T[])) as T[];
}

/**
 * One statement per database handle, built once: drizzle builds a query's text on every call (for a select of
 * many columns that costs more than running it), and PostgreSQL parses and plans a named statement once per
 * connection. A transaction is a handle of its own, so statements prepared on it are built per transaction.
 *
 *   const byId = preparedPer((db) => db.select().from(t).where(eq(t.id, sql.placeholder('id'))).prepare('t_by_id'));
 *   const [row] = await byId(db).execute({ id });
 */
export function preparedPer<T>(build: (db: Db) => T): (db: Db) => T {
  const cache = new WeakMap<Db, T>();
  return (db) => {
    let statement = cache.get(db);
    if (!statement) {
      statement = build(db);
      cache.set(db, statement);
    }
    return statement;
  };
}

/** node-postgres and PGlite parse json; a driver that does not hands over the text. */
export const parsedJson = <T>(value: T | string): T =>
  typeof value === 'string' ? (JSON.parse(value) as T) : value;
