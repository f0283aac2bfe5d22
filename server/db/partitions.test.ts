/**
 * The raw activity tables by time (decision 035), on this run's backend: a database as a release before
 * migration 0023 left it — plain tables, with rows — is converted at the next start with every row kept,
 * the partitions ahead are made, a resent heartbeat is still refused, deleting a learner still removes
 * their rows from every partition, and retention drops whole partitions past it (never rows one by one).
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDbKind } from '../test/helper';
import { type Database, MIGRATIONS_DIR, type OpenOptions, openDatabase } from './client';
import {
  type Dropped,
  legacyName,
  maintainPartitions,
  PARTITIONED,
  partitionName,
  partitionsOf,
  unitStart,
} from './partitions';

const DAY = 86_400_000;
const kind = testDbKind();
const now = Date.now();
const today = unitStart('day', now);

const USERS = ['00000000-0000-4000-8000-00000000000a', '00000000-0000-4000-8000-00000000000b'];
const RESOURCE = '00000000-0000-4000-8000-0000000000c1';

describe(`the activity tables by time on ${kind}`, () => {
  const folders: string[] = [];
  let place: OpenOptions;
  let dropDatabase = async () => {};
  let database: Database;
  const before = { heartbeats: '', spans: '', erasures: '' };

  const run = async <R>(text: string) => database.structural(async (s) => s.query<R>(text)) as Promise<R[]>;
  const one = async <R>(text: string) => (await run<R>(text))[0]!;

  /** What the rows hold, whatever their table's shape: compared before and after the conversion. */
  const fingerprint = {
    heartbeats: `select count(*)::text || ':' || sum(at)::text || ':' || count(distinct client_id)::text
                   || ':' || sum(case when tab_active then 1 else 0 end)::text as f from activity_heartbeats`,
    spans: `select count(*)::text || ':' || sum(end_at - start_at)::text || ':' || min(day)::text
              || ':' || count(distinct id)::text as f from activity_spans`,
    erasures: `select count(*)::text || ':' || sum(end_at)::text as f from activity_erasures`,
  };

  beforeAll(async () => {
    // the migrations of the release before: every one but 0023 (the partitions come after it)
    const older = mkdtempSync(join(tmpdir(), 'wm-before-partitions-'));
    folders.push(older);
    cpSync(MIGRATIONS_DIR, older, { recursive: true });
    const journal = JSON.parse(readFileSync(join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8')) as {
      entries: { tag: string }[];
    };
    const cut = journal.entries.findIndex((e) => e.tag === '0023_activity_partitions');
    expect(cut).toBeGreaterThan(0);
    writeFileSync(
      join(older, 'meta', '_journal.json'),
      JSON.stringify({ ...journal, entries: journal.entries.slice(0, cut) }),
    );

    const admin = process.env.TEST_DATABASE_URL;
    if (admin) {
      const name = `waymark_parts_${Math.random().toString(36).slice(2, 10)}`;
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`create database ${name}`);
      await c.end();
      const u = new URL(admin);
      u.pathname = `/${name}`;
      place = { databaseUrl: u.toString(), poolSize: 2 };
      dropDatabase = async () => {
        const d = new pg.Client({ connectionString: admin });
        await d.connect();
        await d.query(`drop database if exists ${name} with (force)`);
        await d.end();
      };
    } else {
      const dir = mkdtempSync(join(tmpdir(), 'wm-pglite-parts-'));
      folders.push(dir);
      place = { pgliteDir: dir };
    }

    // the older release's database, with rows in every table
    database = await openDatabase({ ...place, migrationsDir: older, partitions: false });
    for (const t of PARTITIONED) {
      expect(
        await one<{ relkind: string }>(`select relkind from pg_class where relname = '${t.name}'`),
      ).toEqual({
        relkind: 'r',
      });
    }
    await run(`insert into users (id, firebase_uid, email, role, name)
      values ('${USERS[0]}', 'parts-a', 'parts-a@example.com', 'USER', 'A'),
             ('${USERS[1]}', 'parts-b', 'parts-b@example.com', 'USER', 'B')`);
    await run(`insert into resources (id, actual_title, type, url, short_id)
      values ('${RESOURCE}', 'Parts', 'READ', 'https://example.com/parts', 'parts-1')`);
    // 45 days of heartbeats (some older than the retention), a span a day, three erasures
    await run(`insert into activity_heartbeats (user_id, client_id, resource_id, at, tab_active, audible)
      select u, 'hb-' || d || '-' || k, '${RESOURCE}', ${today} - d * ${DAY}::bigint + k * 30000, k % 7 <> 0, false
      from unnest(array['${USERS[0]}', '${USERS[1]}']::uuid[]) u, generate_series(0, 45) d, generate_series(0, 19) k`);
    await run(`insert into activity_spans (user_id, resource_id, day, start_at, end_at, tab_active)
      select u, '${RESOURCE}', to_timestamp((${today} - d * ${DAY}::bigint) / 1000)::date,
             ${today} - d * ${DAY}::bigint, ${today} - d * ${DAY}::bigint + 570000, true
      from unnest(array['${USERS[0]}', '${USERS[1]}']::uuid[]) u, generate_series(0, 45) d`);
    await run(`insert into activity_erasures (user_id, resource_id, start_at, end_at)
      values ('${USERS[0]}', null, ${today - 3 * DAY}, ${today - 2 * DAY}),
             ('${USERS[0]}', '${RESOURCE}', ${today - 40 * DAY}, ${today - 39 * DAY}),
             ('${USERS[1]}', null, ${today}, ${today + DAY})`);
    for (const [key, text] of Object.entries(fingerprint)) {
      before[key as keyof typeof before] = (await one<{ f: string }>(text)).f;
    }
    await database.close();

    // this release starts on it: migration 0023, then the conversion
    database = await openDatabase(place);
  }, 120_000);

  afterAll(async () => {
    await database?.close();
    await dropDatabase();
    for (const dir of folders) rmSync(dir, { recursive: true, force: true });
  });

  it('converts each plain table into a partitioned one, keeping every row in the table it was', async () => {
    for (const t of PARTITIONED) {
      expect(
        await one<{ relkind: string }>(`select relkind from pg_class where relname = '${t.name}'`),
      ).toEqual({
        relkind: 'p',
      });
    }
    for (const [key, text] of Object.entries(fingerprint)) {
      expect((await one<{ f: string }>(text)).f, key).toBe(before[key as keyof typeof before]);
    }
    const heartbeats = PARTITIONED.find((t) => t.name === 'activity_heartbeats')!;
    const parts = await database.structural((s) => partitionsOf(s, heartbeats));
    // the old table holds everything before T (two days ahead), then a partition a day, a week ahead
    const bound = today + 2 * DAY;
    expect(parts[0]).toMatchObject({
      name: legacyName(heartbeats),
      from: Number.NEGATIVE_INFINITY,
      to: bound,
    });
    expect(parts.slice(1).map((p) => [p.name, p.to - p.from])).toEqual(
      Array.from({ length: 6 }, (_, i) => [partitionName(heartbeats, bound + i * DAY), DAY]),
    );
    const where = await run<{ part: string; n: string }>(
      `select tableoid::regclass::text as part, count(*)::text as n from activity_heartbeats group by 1`,
    );
    expect(where).toEqual([{ part: 'activity_heartbeats_legacy', n: String(2 * 46 * 20) }]);
    // each parent's key is the new one, and the old table's unique constraint on it is its part
    // (the old key stays with the old rows until retention drops them); the superseded indexes are gone
    for (const t of PARTITIONED) {
      const parts = await run<{ parent: string; part: string | null; columns: string }>(`
        select p.conname as parent, c.conname as part,
               (select string_agg(a.attname, ',' order by k.n) from unnest(p.conkey) with ordinality k(attnum, n)
                join pg_attribute a on a.attrelid = p.conrelid and a.attnum = k.attnum) as columns
        from pg_constraint p
        left join pg_constraint c on c.conparentid = p.oid and c.conrelid = '${legacyName(t)}'::regclass
        where p.conrelid = '${t.name}'::regclass and p.contype = 'u'`);
      expect(parts, t.name).toEqual([
        { parent: t.key.name, part: expect.any(String), columns: t.key.columns.join(',') },
      ]);
    }
    for (const gone of PARTITIONED.flatMap((t) => t.superseded)) {
      expect(await one<{ r: string | null }>(`select to_regclass('${gone}')::text as r`)).toEqual({
        r: null,
      });
    }
  });

  it('puts a new row in its day, refuses a resent heartbeat, and deletes a learner from every partition', async () => {
    const later = today + 3 * DAY + 3_600_000;
    const insert = (at: number) =>
      run<{
        part: string;
      }>(`insert into activity_heartbeats (user_id, client_id, resource_id, at, tab_active, audible)
        values ('${USERS[1]}', 'hb-new', '${RESOURCE}', ${at}, true, false)
        on conflict do nothing returning tableoid::regclass::text as part`);
    expect(await insert(later)).toEqual([{ part: partitionName(PARTITIONED[0]!, today + 3 * DAY) }]);
    // the same heartbeat again: the key refuses it
    expect(await insert(later)).toEqual([]);
    await run(`delete from users where id = '${USERS[1]}'`);
    expect(
      await one<{ n: string }>(
        `select ((select count(*) from activity_heartbeats where user_id = '${USERS[1]}')
              + (select count(*) from activity_spans where user_id = '${USERS[1]}')
              + (select count(*) from activity_erasures where user_id = '${USERS[1]}'))::text as n`,
      ),
    ).toEqual({ n: '0' });
  });

  it('drops whole partitions past the retention, the spans kept, and makes the ones ahead', async () => {
    const beats = () =>
      run<{ part: string }>(`select distinct tableoid::regclass::text as part from activity_heartbeats`);
    await run(`insert into activity_heartbeats (user_id, client_id, resource_id, at, tab_active, audible)
      values ('${USERS[0]}', 'hb-kept', '${RESOURCE}', ${today + 6 * DAY}, true, false)`);
    const spansBefore = (await one<{ f: string }>(fingerprint.spans)).f;
    // 35 days on, with 31 kept: every partition wholly before today + 4 days goes
    const later = today + 35 * DAY;
    const cutoff = later - 31 * DAY;
    const expired: string[] = [];
    for (const t of PARTITIONED.filter((x) => x.retained)) {
      const parts = await database.structural((s) => partitionsOf(s, t));
      expired.push(...parts.filter((p) => p.to <= cutoff).map((p) => p.name));
    }
    expect(expired).toEqual(
      expect.arrayContaining([
        'activity_heartbeats_legacy',
        partitionName(PARTITIONED[0]!, today + 2 * DAY),
        partitionName(PARTITIONED[0]!, today + 3 * DAY),
        'activity_erasures_legacy',
      ]),
    );
    const done = await database.structural((s) =>
      maintainPartitions(s, { now: later, retentionDays: 31, concurrently: kind === 'postgres' }),
    );
    const names = (d: Dropped[]) => d.map((x) => x.name);
    expect(names(done.dropped)).toEqual(expired);
    for (const d of done.dropped) {
      expect(await one<{ r: string | null }>(`select to_regclass('${d.name}')::text as r`)).toEqual({
        r: null,
      });
    }
    expect(await beats()).toEqual([{ part: partitionName(PARTITIONED[0]!, today + 6 * DAY) }]);
    expect((await one<{ f: string }>(fingerprint.spans)).f).toBe(spansBefore);
    // the days ahead of the later now exist (a week)
    const heartbeats = await database.structural((s) => partitionsOf(s, PARTITIONED[0]!));
    expect(heartbeats.at(-1)!.to).toBe(later + 8 * DAY);
    expect(heartbeats[0]!.from).toBe(today + 4 * DAY);
  });
});
