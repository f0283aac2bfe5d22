/**
 * Rate-limit counts in the database, so every server process counts against the same limit (decision
 * 009): RATE_LIMIT_AUTH=60 means 60 sign-ins a minute from one address, however many processes answer.
 * A store for @fastify/rate-limit: fixed windows per route and client address, one upsert per limited
 * request (the limited calls are sign-in, e-mail checks, contact and test-link selection: a handful a
 * minute per person). Ended windows are swept by a job (server/jobs/jobs.ts).
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rowsOf } from '../db/helpers';

type Result = { current: number; ttl: number };
type Callback = (error: Error | null, result?: Result) => void;

/** Counts one request for `key` in a window of `windowMs`; returns the count so far and the time left. */
export async function countRequest(db: Db, key: string, windowMs: number): Promise<Result> {
  const rows = rowsOf<{ current: number | string; ttl: number | string }>(
    await db.execute(sql`
      insert into rate_limit_counters as c (key, count, window_ends_at)
      values (${key}, 1, now() + make_interval(secs => ${windowMs / 1000}))
      on conflict (key) do update set
        count = case when c.window_ends_at <= now() then 1 else c.count + 1 end,
        window_ends_at = case when c.window_ends_at <= now() then excluded.window_ends_at else c.window_ends_at end
      returning count as current,
        greatest(0, ceil(extract(epoch from (window_ends_at - now())) * 1000))::int as ttl`),
  );
  const row = rows[0];
  return { current: Number(row?.current ?? 1), ttl: Number(row?.ttl ?? windowMs) };
}

/** Deletes windows that ended more than a minute ago; returns how many. */
export async function sweepRateLimits(db: Db): Promise<number> {
  const rows = rowsOf<{ n: number | string }>(
    await db.execute(sql`
      with gone as (
        delete from rate_limit_counters where window_ends_at < now() - interval '1 minute' returning 1
      ) select count(*) as n from gone`),
  );
  return Number(rows[0]?.n ?? 0);
}

/** The store class @fastify/rate-limit instantiates; one child per limited route. */
export function databaseRateLimitStore(db: Db) {
  return class DatabaseRateLimitStore {
    prefix = '';

    incr(key: string, callback: Callback, timeWindow: number) {
      countRequest(db, `${this.prefix}${key}`, timeWindow).then(
        (result) => callback(null, result),
        (err: Error) => callback(err),
      );
    }

    child(routeOptions: { routeInfo?: { method?: string; url?: string }; url?: string; method?: unknown }) {
      const store = new DatabaseRateLimitStore();
      const route = routeOptions.routeInfo ?? routeOptions;
      // a limiter made for a hook rather than a route (the 404's) names its own keys
      store.prefix = route.url ? `${String(route.method)} ${String(route.url)} ` : '';
      return store;
    }
  };
}
