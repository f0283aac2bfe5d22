/**
 * Shedding on the database pool (issue 15): when a request has waited longer than SHED_POOL_WAIT_MS for
 * one of the process's PostgreSQL connections, the server answers new requests with 503 + Retry-After
 * (the event-loop shedding's answer) instead of queueing them behind it; once the pool catches up it
 * serves again. The pool is held busy for real: every connection sleeps in PostgreSQL, one more query waits.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, type Harness, openHarness, type Person } from '../test/harness';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// PostgreSQL only: PGlite is embedded in the process and has no pool to wait on
describe.skipIf(!BACKENDS.includes('postgres')).each(BACKENDS)(
  'shedding on the database pool (%s)',
  (kind) => {
    let h: Harness;
    let learner: Person;
    beforeAll(async () => {
      h = await openHarness(kind, { env: { SHED_POOL_WAIT_MS: '200', SHED_RETRY_AFTER: '3' } });
      learner = await h.learner();
    });
    afterAll(() => h.close());

    // a connection held for `seconds` (a drizzle query runs once awaited: Promise.resolve starts it now)
    const hold = (seconds: number) => Promise.resolve(h.db.execute(sql`select pg_sleep(${seconds})`));
    const profile = () =>
      h.app.inject({ method: 'GET', url: '/api/testlink/list', headers: learner.headers });

    it('answers 503 with Retry-After while a request waits too long for a connection, then serves again', {
      timeout: 30_000,
    }, async () => {
      expect((await profile()).statusCode).toBe(200);
      const size = h.app.services.config.databasePoolSize;
      // every connection busy for 1.5 s and more queries waiting behind them (the setting is at least the
      // test pool's size)
      const busy = Array.from({ length: size + 1 }, () => hold(1.5));
      await sleep(500);
      const shed = await profile();
      expect(shed.statusCode).toBe(503);
      expect(shed.headers['retry-after']).toBe('3');
      expect(shed.json()).toEqual({
        statusCode: 503,
        error: 'Service Unavailable',
        message: 'The server is busy, please try again shortly.',
      });
      await Promise.all(busy);
      // nothing waits any more: served as before
      expect((await profile()).statusCode).toBe(200);
    });

    it('does not shed while requests wait less than the setting', async () => {
      const size = h.app.services.config.databasePoolSize;
      // the pool full for a moment only: the waiting query gets a connection well inside 200 ms
      const busy = Array.from({ length: size + 1 }, () => hold(0.05));
      expect((await profile()).statusCode).toBe(200);
      await Promise.all(busy);
    });
  },
);
