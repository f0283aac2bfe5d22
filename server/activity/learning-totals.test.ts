/**
 * The sums the reports over many learners read (decision 049): activity_user_days and
 * activity_learning_totals follow every change of activity_daily — inserts, upserts, updates down to zero,
 * deletes, a resource's and an account's deletion cascading — through the table's triggers, and the
 * mentor's statistics read them.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../db/helpers';
import { type SignedIn, setupServer } from '../test/helper';

const server = setupServer();
let mentor: SignedIn;
let ana: SignedIn;
let ben: SignedIn;
const resources = [randomUUID(), randomUUID()] as const;

/** What the sums hold for a learner, beside what they must be (from activity_daily itself). */
async function sums(userId: string) {
  const [row] = rowsOf<{ kept: string | null; truth: string | null; total: string | null; want: string }>(
    await server.db.execute(sql`
      select
        (select string_agg(day || '=' || ms, ',' order by day) from activity_user_days
          where user_id = ${userId} and ms <> 0) as kept,
        (select string_agg(day || '=' || ms, ',' order by day)
          from (select day, sum(ms) as ms from activity_daily where user_id = ${userId} group by day) d
          where ms <> 0) as truth,
        (select ms || '/' || days from activity_learning_totals where user_id = ${userId}) as total,
        (select coalesce(sum(ms), 0) || '/' || count(*) filter (where ms > 0)
          from (select day, sum(ms) as ms from activity_daily where user_id = ${userId} group by day) d) as want`),
  );
  expect(row!.kept, 'per day').toBe(row!.truth);
  expect(row!.total ?? '0/0', 'overall').toBe(row!.want);
  return row!.want;
}

const write = (q: ReturnType<typeof sql>) => server.db.execute(q);

beforeAll(async () => {
  mentor = await server.signedIn('TENANT', { profile: true, name: 'Totals Mentor' });
  ana = await server.signedIn('USER', { profile: true, name: 'Ana' });
  ben = await server.signedIn('USER', { profile: true, name: 'Ben' });
  for (const [i, id] of resources.entries())
    await write(sql`insert into resources (id, actual_title, type, url, short_id)
      values (${id}, ${`Totals ${i}`}, 'READ', ${`https://example.com/totals-${i}`}, ${`tot-${id.slice(0, 8)}`})`);
  await write(sql`insert into tenant_users (tenant_id, learner_id) values
    (${mentor.user._id}, ${ana.user._id}), (${mentor.user._id}, ${ben.user._id})`);
}, 60_000);

describe('the learning sums kept from the daily rollups', () => {
  it('follow inserts, upserts, updates to zero and deletes, in one statement or many', async () => {
    const [a, b] = resources;
    const u = ana.user._id;
    await write(sql`insert into activity_daily (user_id, day, resource_id, ms) values
      (${u}, '2026-11-01', ${a}, 60000), (${u}, '2026-11-01', ${b}, 30000), (${u}, '2026-11-02', ${a}, 5000)`);
    expect(await sums(u)).toBe('95000/2');
    // the ingestion's upsert: one row changed, one new
    await write(sql`insert into activity_daily as d (user_id, day, resource_id, ms) values
      (${u}, '2026-11-02', ${a}, 1000), (${u}, '2026-11-03', ${b}, 7000)
      on conflict (user_id, day, resource_id) do update set ms = d.ms + excluded.ms`);
    expect(await sums(u)).toBe('103000/3');
    // a day's time taken back to zero: no longer a learning day, the row kept
    await write(sql`update activity_daily set ms = 0 where user_id = ${u} and day = '2026-11-02'`);
    expect(await sums(u)).toBe('97000/2');
    await write(sql`update activity_daily set ms = 4000 where user_id = ${u} and day = '2026-11-02'`);
    expect(await sums(u)).toBe('101000/3');
    await write(
      sql`delete from activity_daily where user_id = ${u} and day = '2026-11-01' and resource_id = ${a}`,
    );
    expect(await sums(u)).toBe('41000/3');
  });

  it('follow a resource deleted and an account deleted, whose rows go with them', async () => {
    const [a, b] = resources;
    const u = ben.user._id;
    await write(sql`insert into activity_daily (user_id, day, resource_id, ms) values
      (${u}, '2026-11-05', ${a}, 10000), (${u}, '2026-11-06', ${b}, 20000)`);
    expect(await sums(u)).toBe('30000/2');
    await write(sql`delete from resources where id = ${b}`);
    expect(await sums(u)).toBe('10000/1');
    // Ana's time on it goes too: 4,000 ms on one day is left
    expect(await sums(ana.user._id)).toBe('4000/1');
    // the account's deletion takes its rows and its sums, and nothing refuses it
    await write(sql`delete from users where id = ${u}`);
    const left = rowsOf<{ n: number }>(
      await server.db.execute(sql`select (select count(*) from activity_user_days where user_id = ${u})::int
        + (select count(*) from activity_learning_totals where user_id = ${u})::int as n`),
    );
    expect(left[0]!.n).toBe(0);
  });

  it("give the mentor's statistics their average learning time", async () => {
    const stats = await server.get('/api/tenant/dashboard/stats', mentor.auth);
    expect(stats.status, stats.text).toBe(200);
    // Ana: 4,000 ms over one learning day (Ben's account is gone)
    expect(stats.body.data).toMatchObject({ totalUserCount: 1, totalUserAverageLearningTime: 4 });
  });
});
