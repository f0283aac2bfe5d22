/**
 * The catalogue list under load, on PostgreSQL, through the real HTTP server:
 *   1. data: a catalogue of N roadmaps (default 1,000) in 3 languages and 10 subjects of 5 topics, each
 *      with 1–3 of 60 curators, 4 sections of 5 resources (with start and end marks), 5 tasks, and one
 *      roadmap in ten with prerequisites — made with bulk SQL;
 *   2. load: 50 connections each sending its next request when the last answer has arrived (closed loop),
 *      asking for gzip as browsers do, after a warm-up, on
 *      (a) GET /api/roadmap/list/no-auth              the landing page's whole catalogue
 *      (b) GET /api/roadmap/list/no-auth?subject=…    one subject (about a tenth)
 *      (c) GET /api/roadmap/list?language=…           a signed-in learner's filtered list
 *
 *   npx tsx bench/catalogue.ts [--roadmaps 1000] [--connections 50] [--seconds 15] [--json]
 *
 * It starts a throwaway cluster with scripts/pg.mjs and the server (server/main.ts, NODE_ENV=production)
 * with tests/support/server.ts, and stops both at the end. Prints the machine, the load average before
 * and after, and per call: requests/s, latency p50/p90/p99/max (ms), the JSON's size and what was sent.
 * docs/PERFORMANCE.md quotes the figures; the target is p99 ≤ 30 ms for (a) at 50 connections.
 *
 * The load comes from undici (one pooled Agent), not autocannon: autocannon's own HTTP parser is the
 * bottleneck on binary bodies — against a bare Node server sending 137 KB, it managed 410 requests/s of
 * random bytes but 12,300 of ASCII — so with gzip it measured itself rather than the server.
 */
import { rmSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { Agent, request } from 'undici';
import { TokenService } from '../server/auth/tokens';
import { loadConfig } from '../server/config';
import { openDatabase } from '../server/db/client';
import { rowsOf } from '../server/db/helpers';
import { serverEnv, startPostgres, startServer, stopOnInterrupt } from './support/server';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));

const { values: opts } = parseArgs({
  options: {
    roadmaps: { type: 'string', default: '1000' },
    connections: { type: 'string', default: '50' },
    seconds: { type: 'string', default: '15' },
    warmup: { type: 'string', default: '3' },
    json: { type: 'boolean', default: false },
  },
});
const ROADMAPS = Number(opts.roadmaps);
const CONNECTIONS = Number(opts.connections);
const SECONDS = Number(opts.seconds);
const WARMUP = Number(opts.warmup);
const log = (...a: unknown[]) => console.error(...a);

interface Figures {
  call: string;
  requests: number;
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  errors: number;
  /** The JSON's size, and the body sent for one request (gzipped). */
  bytes: number;
  wireBytes: number;
  /** The first request, alone: the list read from the database and serialized (not kept yet). */
  firstMs: number;
}

/** The value below which a share `p` of the sorted latencies lie. */
const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]! : Number.NaN;

/** CONNECTIONS loops, each sending its next request once the last answer was read, for `seconds`. */
async function load(url: string, headers: Record<string, string>, seconds: number) {
  const agent = new Agent({ connections: CONNECTIONS, pipelining: 1, keepAliveTimeout: 30_000 });
  const latencies: number[] = [];
  let errors = 0;
  const until = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < until) {
        const started = performance.now();
        try {
          const res = await request(url, { headers, dispatcher: agent });
          await res.body.arrayBuffer();
          if (res.statusCode === 200) latencies.push(performance.now() - started);
          else errors++;
        } catch {
          errors++;
        }
      }
    }),
  );
  await agent.close();
  latencies.sort((a, b) => a - b);
  return { latencies, errors };
}

async function measure(name: string, url: string, extra: Record<string, string> = {}): Promise<Figures> {
  // as a browser asks: gzip accepted (the probe reads the JSON's size; one more request, what was sent)
  const headers = { 'accept-encoding': 'gzip', ...extra };
  const t0 = performance.now();
  const probe = await fetch(url, { headers });
  if (!probe.ok) throw new Error(`${name}: ${probe.status} ${await probe.text()}`);
  const bytes = (await probe.arrayBuffer()).byteLength;
  const firstMs = performance.now() - t0;
  const once = await request(url, { headers });
  const wireBytes = (await once.body.arrayBuffer()).byteLength;
  await load(url, headers, WARMUP);
  const { latencies, errors } = await load(url, headers, SECONDS);
  const ms = (v: number) => Math.round(v * 10) / 10;
  return {
    call: name,
    requests: latencies.length,
    rps: Math.round(latencies.length / SECONDS),
    p50: ms(percentile(latencies, 0.5)),
    p90: ms(percentile(latencies, 0.9)),
    p99: ms(percentile(latencies, 0.99)),
    max: ms(latencies.at(-1) ?? Number.NaN),
    errors,
    bytes,
    wireBytes,
    firstMs: ms(firstMs),
  };
}

/** The catalogue, in bulk SQL: see the file comment. */
async function makeCatalogue(exec: (q: ReturnType<typeof sql>) => Promise<unknown>): Promise<void> {
  await exec(sql`
    insert into languages (name) select unnest(array['English', 'Spanish', 'Hindi'])
    on conflict do nothing`);
  await exec(sql`
    insert into subjects (name) select 'Subject ' || s from generate_series(1, 10) s on conflict do nothing`);
  await exec(sql`
    insert into topics (subject_id, name)
    select s.id, s.name || ' topic ' || t from subjects s cross join generate_series(1, 5) t
    where s.name like 'Subject %'`);
  await exec(sql`
    insert into authors (name, profile_path, designation, short_description, long_description)
    select 'Curator ' || a, '/images/authors/curator-' || a || '.svg', 'Senior Engineer',
           'Teaches what they use every day at work.',
           repeat('Has built and maintained production systems for a decade and mentors new engineers. ', 3)
    from generate_series(1, 60) a`);
  await exec(sql`
    create temporary table bench_roadmaps as
    select i as idx, gen_random_uuid() as id from generate_series(0, ${ROADMAPS - 1}) i`);
  await exec(sql`
    insert into roadmaps (id, name, description, language_id, subject_id, topic_id, img_path)
    select b.id,
           'Roadmap ' || lpad(b.idx::text, 5, '0'),
           repeat('A curated path through the best public documentation and videos on the topic. ', 3),
           (select id from languages order by name offset (b.idx % 3) limit 1),
           t.subject_id, t.id, '/images/roadmaps/bench-' || (b.idx % 12) || '.svg'
    from bench_roadmaps b
    join lateral (
      select id, subject_id from topics where name like 'Subject %'
      order by name offset (b.idx % 50) limit 1
    ) t on true`);
  await exec(sql`
    insert into roadmap_authors (roadmap_id, author_id, position)
    select b.id, a.id, k
    from bench_roadmaps b
    cross join generate_series(0, 2) k
    join lateral (
      select id from authors where name like 'Curator %' order by name offset ((b.idx * 7 + k * 13) % 60) limit 1
    ) a on true
    where k <= b.idx % 3`);
  await exec(sql`
    create temporary table bench_sections as
    select gen_random_uuid() as id, b.id as roadmap_id, b.idx, s as position
    from bench_roadmaps b cross join generate_series(0, 3) s`);
  await exec(sql`
    insert into sections (id, roadmap_id, name, position)
    select id, roadmap_id, 'Section ' || (position + 1), position from bench_sections`);
  await exec(sql`
    create temporary table bench_resources as
    select gen_random_uuid() as id, s.id as section_id, s.idx, s.position as section_position, r as position
    from bench_sections s cross join generate_series(0, 4) r`);
  await exec(sql`
    insert into resources (id, actual_title, type, url, short_id, start_seconds, end_seconds)
    select id, 'Resource ' || idx || '.' || section_position || '.' || position,
           case when position % 2 = 0 then 'WATCH' else 'READ' end,
           'https://bench.example/' || idx || '/' || section_position || '/' || position,
           'b' || substr(md5(id::text), 1, 10),
           case when position % 2 = 0 then 30 else null end,
           case when position % 2 = 0 then 30 + 60 * (5 + position * 3) else null end
    from bench_resources`);
  await exec(sql`
    insert into section_resources (section_id, resource_id, position)
    select section_id, id, position from bench_resources`);
  await exec(sql`
    insert into tasks (roadmap_id, actual_title, url, position)
    select b.id, 'Task ' || t, 'https://bench.example/task/' || b.idx || '/' || t, t
    from bench_roadmaps b cross join generate_series(0, 4) t`);
  await exec(sql`
    insert into roadmap_prerequisites (roadmap_id, prerequisite_id, position)
    select b.id, p.id, 0 from bench_roadmaps b join bench_roadmaps p on p.idx = b.idx - 1
    where b.idx % 10 = 5`);
  await exec(sql`analyze`);
}

async function main() {
  const pg = await startPostgres({ database: 'waymark_bench_catalogue' });
  let stopServer: (() => Promise<void>) | null = null;
  const dataDir = join(root, '.tmp', `bench-catalogue-${process.pid}`);
  const stopAll = async () => {
    await stopServer?.();
    await pg.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  stopOnInterrupt(stopAll);
  try {
    const database = await openDatabase({ databaseUrl: pg.url, poolSize: 4 });
    const exec = (q: ReturnType<typeof sql>) => database.db.execute(q);
    log(`making a catalogue of ${ROADMAPS} roadmaps …`);
    const t0 = Date.now();
    await makeCatalogue(exec);
    log(`  done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    const env = await serverEnv({ databaseUrl: pg.url, dataDir });
    // a learner for the signed-in list, and a token of theirs
    const [learner] = rowsOf<{ id: string }>(
      await exec(sql`
        insert into users (firebase_uid, email, role, name, is_first_login, is_profile_completed)
        values ('bench-learner', 'learner@bench.local', 'USER', 'Bench learner', false, true)
        returning id`),
    );
    const config = loadConfig({ ...env, NODE_ENV: 'test' });
    const token = (
      await new TokenService(database.db, config).issue({ id: learner!.id, role: 'USER' }, 'WEB_APP')
    ).token;
    await database.close();

    const server = await startServer(env);
    stopServer = server.stop;
    const before = loadavg();
    const results = [
      await measure('GET /api/roadmap/list/no-auth', `${server.url}/api/roadmap/list/no-auth`),
      await measure(
        'GET /api/roadmap/list/no-auth?subject=Subject 3',
        `${server.url}/api/roadmap/list/no-auth?subject=Subject%203`,
      ),
      await measure(
        'GET /api/roadmap/list?language=Spanish (signed in)',
        `${server.url}/api/roadmap/list?language=Spanish`,
        {
          authorization: `Bearer ${token}`,
        },
      ),
    ];
    const after = loadavg();
    const machine = {
      cpus: `${cpus().length} × ${cpus()[0]?.model ?? '?'}`,
      memoryGiB: Math.round(totalmem() / 2 ** 30),
      node: process.version,
      loadBefore: before.map((l) => l.toFixed(2)).join(' '),
      loadAfter: after.map((l) => l.toFixed(2)).join(' '),
    };
    if (opts.json) {
      console.log(
        JSON.stringify(
          { roadmaps: ROADMAPS, connections: CONNECTIONS, seconds: SECONDS, machine, results },
          null,
          2,
        ),
      );
    } else {
      console.log(
        `catalogue: ${ROADMAPS} roadmaps on PostgreSQL, ${CONNECTIONS} connections, ${SECONDS} s per call`,
      );
      console.log(`machine: ${machine.cpus}, ${machine.memoryGiB} GiB, Node ${machine.node}`);
      console.log(`load average before ${machine.loadBefore}, after ${machine.loadAfter}`);
      console.log(
        'call'.padEnd(52),
        'req/s'.padStart(7),
        'p50'.padStart(6),
        'p90'.padStart(6),
        'p99'.padStart(6),
        'max'.padStart(6),
        'errors'.padStart(7),
        'KB'.padStart(7),
        'sent KB'.padStart(8),
        'first ms'.padStart(9),
      );
      for (const r of results) {
        console.log(
          r.call.padEnd(52),
          String(r.rps).padStart(7),
          ...[r.p50, r.p90, r.p99, r.max].map((v) => String(v).padStart(6)),
          String(r.errors).padStart(7),
          (r.bytes / 1024).toFixed(0).padStart(7),
          (r.wireBytes / 1024).toFixed(0).padStart(8),
          String(r.firstMs).padStart(9),
        );
      }
    }
  } finally {
    await stopAll();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
