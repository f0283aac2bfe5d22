/**
 * A rate limit means what it says however many server processes answer: the counts live in the database
 * every process shares, not in each process's memory (where the real limit was the setting × processes).
 */
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../db/helpers';
import { TestServer } from '../test/helper';
import { countRequest, sweepRateLimits } from './rate-limit-store';

describe('rate limits across server processes', () => {
  const first = new TestServer({ env: { RATE_LIMIT_AUTH: '4', RATE_LIMIT_STRICT: '3' } });
  let second: Awaited<ReturnType<TestServer['anotherProcess']>>;

  beforeAll(async () => {
    await first.start();
    second = await first.anotherProcess();
  }, 120_000);
  afterAll(async () => {
    await second?.close();
    await first.close();
  });

  const signIn = (app: FastifyInstance, ip: string) =>
    app.inject({
      method: 'POST',
      url: '/api/login/sign-in-with-firebase',
      payload: { token: 'not-a-token' },
      remoteAddress: ip,
    });

  it('counts sign-ins from one address on every process against one limit', async () => {
    const apps = [first.app, second.app];
    const replies = [];
    for (let i = 0; i < 6; i++) replies.push(await signIn(apps[i % 2]!, '198.51.100.7'));
    expect(replies.map((r) => r.statusCode)).toEqual([400, 400, 400, 400, 429, 429]);
    expect(replies.map((r) => r.headers['x-ratelimit-remaining'])).toEqual(['3', '2', '1', '0', '0', '0']);
    expect(replies[4]!.json().message).toMatch(/Too many requests/);
    // another address has its own count
    expect((await signIn(second.app, '198.51.100.8')).statusCode).toBe(400);
  });

  it('keeps each limited call’s count apart', async () => {
    const contact = (app: FastifyInstance) =>
      app.inject({
        method: 'POST',
        url: '/api/contact-us/send-email',
        payload: { name: 'A', email: 'a@example.com', subject: 'Hi', message: 'Hello' },
        remoteAddress: '198.51.100.7',
      });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await contact(i % 2 ? second.app : first.app)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it('starts a new window when the last one ended, and sweeps ended windows', async () => {
    const key = `test-window-${Date.now()}`;
    expect(await countRequest(first.db, key, 200)).toMatchObject({ current: 1 });
    expect((await countRequest(second.database.db, key, 200)).current).toBe(2);
    await new Promise((r) => setTimeout(r, 250));
    const fresh = await countRequest(first.db, key, 60_000);
    expect(fresh.current).toBe(1);
    expect(fresh.ttl).toBeGreaterThan(59_000);

    await first.db.execute(
      sql`insert into rate_limit_counters (key, count, window_ends_at) values ('ended', 9, now() - interval '2 minutes')`,
    );
    expect(await sweepRateLimits(first.db)).toBeGreaterThanOrEqual(1);
    const left = rowsOf<{ key: string }>(
      await first.db.execute(sql`select key from rate_limit_counters where key in ('ended', ${key})`),
    );
    expect(left.map((r) => r.key)).toEqual([key]);
  });
});
