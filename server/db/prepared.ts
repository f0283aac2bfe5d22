/**
 * Prepared statements per database handle. drizzle builds a query's text on every call (for a select of
 * many columns that costs more than running it), and PostgreSQL parses and plans a named statement once
 * per connection: a hot path builds its statement once per handle. A transaction is a handle of its own,
 * so statements prepared on it are built per transaction.
 */
import type { Db } from './client';

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
