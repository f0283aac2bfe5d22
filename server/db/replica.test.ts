/**
 * Reports from a real streaming replica (decision 035), PostgreSQL only: a `pg_basebackup` of the test
 * cluster started as a hot standby on a port of its own (scripts/pg.mjs `startReplica`). The mentor's
 * reports, exports and the public catalogue read it while it is in use — proven by pausing its replay: they
 * then answer what the replica holds while the learner's own pages, the seat checks and a just-deleted span
 * read the primary. Past the lag bound, or with the replica down, every read goes to the primary, and
 * /api/health says why.
 */
import { randomUUID } from 'node:crypto';
import { DAY_MS } from '@shared/rules/heartbeats';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Person, signedInPerson } from '../test/harness';
import { TestServer, testDbKind } from '../test/helper';
import { rowsOf } from './helpers';
import type { Replica } from './replica';

type Started = { url: string; stop(): Promise<void> };
const MAX_LAG_MS = 3000;
const DAY = 86_400;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(testDbKind() !== 'postgres')('reports from a streaming replica', () => {
  let standby: Started;
  let server: TestServer;
  let replica: Replica;
  let mentor: Person;
  let learner: Person;
  let newcomer: Person;
  let onReplica: pg.Client;
  const resource = randomUUID();
  const roadmap = `Replicated roadmap ${resource.slice(0, 8)}`;
  const today = Math.floor(Date.now() / DAY_MS) * DAY;
  const range = `startTime=${today - 7 * DAY}&endTime=${today + DAY - 1}`;

  const primaryLsn = async () =>
    rowsOf<{ lsn: string }>(await server.db.execute('select pg_current_wal_insert_lsn()::text as lsn'))[0]!
      .lsn;
  /**
   * Until the replica has replayed everything committed so far: up to the insert position, since the test
   * cluster's asynchronous commits return before their records reach the write position (the flake this
   * fixed: caught up with the write position, the replica did not have the last commit yet).
   */
  async function caughtUp() {
    const target = await primaryLsn();
    for (let i = 0; i < 200; i++) {
      const { rows } = await onReplica.query('select pg_last_wal_replay_lsn() >= $1::pg_lsn as done', [
        target,
      ]);
      if (rows[0]?.done) return;
      await sleep(50);
    }
    throw new Error('the replica did not catch up within 10 s');
  }
  /** A measurement started now (one already under way may be older). */
  const checked = async () => {
    await replica.check();
    return replica.check();
  };
  const get = (url: string, who?: Person) =>
    server.app.inject({ method: 'GET', url, headers: who?.headers ?? {} });
  const daywise = async (userId: string) =>
    (await get(`/api/tenant/dashboard/time-spent-by-user-daywise/${userId}?${range}`, mentor))
      .json()
      .data.find((d: { date: number }) => d.date === today)?.timespent as number;
  const trackedToday = async () =>
    (await get('/api/activity/tracked?skip=1&limit=7', learner)).json().data.days[0]?.spans as {
      _id: string;
      seconds: number;
    }[];
  const health = async () => (await get('/api/health')).json().replica;

  /** A span of `seconds` today and the rollups that go with it, as the ingestion writes them. */
  async function learnt(userId: string, seconds: number, at: number) {
    const id = randomUUID();
    await server.db.execute(`
      with s as (
        insert into activity_spans (id, user_id, resource_id, day, start_at, end_at, tab_active)
        values ('${id}', '${userId}', '${resource}', to_timestamp(${today})::date, ${at}, ${at + seconds * 1000}, true)
      ), d as (
        insert into activity_daily as d (user_id, day, resource_id, ms)
        values ('${userId}', to_timestamp(${today})::date, '${resource}', ${seconds * 1000})
        on conflict (user_id, day, resource_id) do update set ms = d.ms + excluded.ms
      )
      insert into activity_resource_totals as t (user_id, resource_id, ms, last_at)
      values ('${userId}', '${resource}', ${seconds * 1000}, ${at + seconds * 1000})
      on conflict (user_id, resource_id) do update set ms = t.ms + excluded.ms`);
    return id;
  }

  beforeAll(async () => {
    const primaryUrl = process.env.TEST_DATABASE_URL!;
    const { startReplica } = (await import(`${'../../scripts/pg.mjs'}`)) as {
      startReplica(o: { primaryUrl: string }): Promise<Started>;
    };
    standby = await startReplica({ primaryUrl });
    const port = new URL(standby.url).port;
    server = new TestServer({
      replica: {
        urlOf: (db) => {
          const u = new URL(db);
          u.port = port;
          return u.toString();
        },
        maxLagMs: MAX_LAG_MS,
      },
    });
    await server.start();
    replica = server.database.replica!;
    const replicaDb = new URL(server.database.url!);
    replicaDb.port = port;
    // the test's database was made after the copy: it reaches the replica as the WAL is replayed
    for (let i = 0; ; i++) {
      onReplica = new pg.Client({ connectionString: replicaDb.toString() });
      try {
        await onReplica.connect();
        break;
      } catch (err) {
        await onReplica.end().catch(() => undefined);
        if (i > 100) throw err;
        await sleep(100);
      }
    }
    mentor = await signedInPerson(server, 'TENANT', { name: 'Mona Mentor' });
    learner = await signedInPerson(server, 'USER', { name: 'Lara Learner' });
    newcomer = await signedInPerson(server, 'USER', { name: 'Nico Newcomer' });
    await server.db.execute(`
      insert into resources (id, actual_title, type, url, short_id)
      values ('${resource}', 'Replicated', 'READ', 'https://example.com/replicated', 'rep-${resource.slice(0, 8)}')`);
    await server.db.execute(
      `insert into tenant_users (tenant_id, learner_id) values ('${mentor.id}', '${learner.id}')`,
    );
    await learnt(learner.id, 600, today * 1000 + 9 * 3600_000);
    await caughtUp();
  }, 120_000);

  afterAll(async () => {
    await onReplica?.end().catch(() => undefined);
    await server?.close();
    await standby?.stop();
  });

  it('reads the reports, the exports and the public catalogue from the replica while it is in use', async () => {
    expect(await checked()).toMatchObject({ state: 'in use', maxLagMs: MAX_LAG_MS });
    expect(await health()).toMatchObject({ state: 'in use', maxLagMs: MAX_LAG_MS });
    expect(await daywise(learner.id)).toBe(600);

    // the replica stops replaying: what is written now reaches only the primary
    await onReplica.query('select pg_wal_replay_pause()');
    await checked();
    await learnt(learner.id, 300, today * 1000 + 11 * 3600_000);
    await server.db.execute(
      `insert into tenant_users (tenant_id, learner_id) values ('${mentor.id}', '${newcomer.id}')`,
    );
    await learnt(newcomer.id, 120, today * 1000 + 10 * 3600_000);
    await server.db.execute(`
      with l as (insert into languages (name) values ('${roadmap}') returning id),
           s as (insert into subjects (name) values ('${roadmap}') returning id)
      insert into roadmaps (name, description, language_id, subject_id)
      select '${roadmap}', 'd', l.id, s.id from l, s`);
    expect(await checked()).toMatchObject({ state: 'in use' });

    // the mentor's figures come from the replica: the 300 s just written are not there yet
    expect(await daywise(learner.id)).toBe(600);
    const stats = (await get('/api/tenant/dashboard/stats', mentor)).json().data;
    expect(stats.totalUserCount).toBe(1);
    const csv = (await get('/api/tenant/export/learning-report?format=csv', mentor)).body;
    expect(csv).toContain('Lara Learner');
    expect(csv).not.toContain('Nico Newcomer');
    // the seat check reads the primary: the newcomer is a seat, though the replica does not know it yet
    const theirs = await get(
      `/api/tenant/dashboard/time-spent-by-user-daywise/${newcomer.id}?${range}`,
      mentor,
    );
    expect(theirs.statusCode).toBe(200);
    expect(theirs.json().data.every((d: { timespent: number }) => d.timespent === 0)).toBe(true);
    expect((await get('/api/roadmap/list/no-auth')).body).not.toContain(roadmap);
    // the learner's own page reads the primary: both spans
    const spans = await trackedToday();
    expect(spans.map((s) => s.seconds).sort()).toEqual([300, 600]);

    // a span deleted is gone from the learner's page at once, though the replica still has it
    const gone = spans.find((s) => s.seconds === 600)!;
    const del = await server.app.inject({
      method: 'DELETE',
      url: `/api/activity/tracked/spans/${gone._id}`,
      headers: learner.headers,
    });
    expect(del.statusCode).toBe(200);
    expect((await trackedToday()).map((s) => s.seconds)).toEqual([300]);
    const still = await onReplica.query('select count(*)::int as n from activity_spans where id = $1', [
      gone._id,
    ]);
    expect(still.rows[0].n).toBe(1);
  });

  it('skips a replica that lags past the bound, says so, and takes it back when it catches up', async () => {
    await sleep(MAX_LAG_MS + 500);
    expect(await checked()).toMatchObject({ state: 'lagging' });
    const said = await health();
    expect(said.state).toBe('lagging');
    expect(said.lagMs).toBeGreaterThan(MAX_LAG_MS);
    // the reports read the primary: the 300 s written, the 600 s deleted
    expect(await daywise(learner.id)).toBe(300);
    expect((await get('/api/tenant/dashboard/stats', mentor)).json().data.totalUserCount).toBe(2);
    expect((await get('/api/roadmap/list/no-auth')).body).toContain(roadmap);

    await onReplica.query('select pg_wal_replay_resume()');
    await caughtUp();
    expect(await checked()).toMatchObject({ state: 'in use' });
    expect(await health()).toMatchObject({ state: 'in use' });
    expect(await daywise(learner.id)).toBe(300);
    expect(await daywise(newcomer.id)).toBe(120);
  });

  it('skips a replica that is down, and the reports still answer from the primary', async () => {
    await onReplica.end();
    await standby.stop();
    expect(await checked()).toMatchObject({ state: 'down', lagMs: null });
    expect(await health()).toMatchObject({ state: 'down' });
    expect(await daywise(learner.id)).toBe(300);
    const csv = await get('/api/tenant/export/learning-report?format=csv', mentor);
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain('Nico Newcomer');
  });
});
