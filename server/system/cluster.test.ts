/**
 * WEB_CONCURRENCY: one `server/main.ts` (as a deployment runs it) starting two server processes on its port
 * with Node's cluster module, on a real PostgreSQL: both come up as processes of the registry, requests are
 * answered while one is killed and replaced, a second cluster that would keep its files on another disk
 * stops as a whole with the refusal's exit code, and SIGTERM stops every process and leaves the registry
 * empty. PostgreSQL only (PGlite refuses WEB_CONCURRENCY > 1: config.unit.test.ts).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type MainProcess, startMain, throwawayDatabase } from '../test/main-process';

const adminUrl = process.env.TEST_DATABASE_URL;

/** The parent of a running process, from /proc; null when it is gone. */
function parentOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return null;
  }
}

/** GET /api/health on a new connection (a kept-alive one may belong to the process just killed): its status. */
const health = (base: string) =>
  new Promise<number>((done, fail) => {
    const req = get(`${base}/api/health`, { agent: false, timeout: 10_000 }, (res) => {
      res.resume();
      done(res.statusCode ?? 0);
    });
    req.on('timeout', () => req.destroy(new Error('no answer within 10 s')));
    req.on('error', fail);
  });

/** Whether a process is running (not gone, not a zombie waiting for its parent). */
function alive(pid: number): boolean {
  try {
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
  } catch {
    return false;
  }
}

describe.skipIf(!adminUrl)('WEB_CONCURRENCY: server processes of one cluster on one PostgreSQL', () => {
  const database = throwawayDatabase(adminUrl, 'waymark_cluster');
  const databaseUrl = database.url;
  const dataDir = mkdtempSync(join(tmpdir(), 'wm-cluster-'));
  const otherDataDir = mkdtempSync(join(tmpdir(), 'wm-cluster-other-'));
  const jwtSecret = randomBytes(32).toString('base64url');
  const clusters: MainProcess[] = [];
  let main: MainProcess;
  let db: pg.Client;

  async function start(dir: string): Promise<MainProcess> {
    const cluster = await startMain({
      DATA_DIR: dir,
      DATABASE_URL: databaseUrl,
      DATABASE_POOL_SIZE: '3',
      WEB_CONCURRENCY: '2',
      JWT_SECRET: jwtSecret,
      // 'Waymark is ready' is an info line: said by each process once it listens
      LOG_LEVEL: 'info',
    });
    clusters.push(cluster);
    return cluster;
  }

  /** The pids of the registry's processes that are running (a killed one's row stays until it is stale). */
  const registered = async () =>
    (
      await db
        .query<{ pid: number }>('select pid from server_processes order by pid')
        .catch(() => ({ rows: [] }))
    ).rows
      .map((r) => r.pid)
      .filter(alive);

  beforeAll(async () => {
    await database.create();
    db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    main = await start(dataDir);
    // both processes up: two in the registry, and the port answering
    await vi.waitFor(
      async () => {
        if (main.child.exitCode !== null)
          throw new Error(`exited with ${main.child.exitCode}:\n${main.output.join('').slice(-3000)}`);
        expect(await health(main.url)).toBe(200);
        expect(await registered()).toHaveLength(2);
        // and both listening: a process joins the registry before it listens, and the first test kills one
        // (when it was the only one listening, the port refused connections until the replacement came)
        expect(main.output.join('').split('Waymark is ready').length - 1).toBe(2);
      },
      { timeout: 150_000, interval: 250 },
    );
  }, 180_000);

  afterAll(async () => {
    for (const c of clusters) if (c.child.exitCode === null) c.child.kill('SIGKILL');
    await db?.end().catch(() => undefined);
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(otherDataDir, { recursive: true, force: true });
  }, 60_000);

  it('runs the server in two processes started by the one, each in the registry', async () => {
    const pids = await registered();
    expect(pids).not.toContain(main.child.pid);
    for (const pid of pids) expect(parentOf(pid)).toBe(main.child.pid);
  });

  it('keeps answering while a process is killed, and starts another in its place', async () => {
    const [victim, survivor] = await registered();
    process.kill(victim!, 'SIGKILL');
    // the port still answers (through the other process) while the replacement starts — once the primary
    // has seen the death: a connection it handed to the victim in the moment before is reset (Node's
    // cluster closes handles queued for a dead worker), as a load balancer's would be; at load 10 in CI
    // that moment was long enough for the first request to land in it
    await vi.waitFor(
      () => expect(main.output.join('')).toMatch(new RegExp(`server process ${victim} ended \\(SIGKILL\\)`)),
      { timeout: 30_000, interval: 20 },
    );
    for (let i = 0; i < 10; i++) expect(await health(main.url)).toBe(200);
    await vi.waitFor(
      async () => {
        const children = (await registered()).filter((pid) => parentOf(pid) === main.child.pid);
        expect(children).not.toContain(victim);
        expect(children).toContain(survivor);
        expect(children).toHaveLength(2);
      },
      { timeout: 60_000, interval: 250 },
    );
    expect(main.output.join('')).toMatch(
      new RegExp(`server process ${victim} ended \\(SIGKILL\\); starting another`),
    );
    expect(await health(main.url)).toBe(200);
  }, 90_000);

  it('stops as a whole, with the refusal’s exit code, when its processes cannot run beside the others', async () => {
    const other = await start(otherDataDir);
    const code = await Promise.race([
      other.exited,
      new Promise((r) => setTimeout(() => r('running'), 90_000)),
    ]);
    expect(code).toBe(3);
    const said = other.output.join('');
    expect(said).toMatch(/Waymark cannot start: Files .* own disk/);
    expect(said).toMatch(/a server process cannot run \(exit code 3\); stopping the others/);
    // the first cluster is untouched
    expect(await health(main.url)).toBe(200);
  }, 120_000);

  it('stops every process on SIGTERM and leaves the registry empty', async () => {
    const pids = await registered();
    main.child.kill('SIGTERM');
    const code = await Promise.race([
      main.exited,
      new Promise((r) => setTimeout(() => r('running'), 30_000)),
    ]);
    expect(code).toBe(0);
    for (const pid of pids) expect(alive(pid)).toBe(false);
    // each that stopped took its row away (a killed one's stays until it is stale)
    const left = (await db.query<{ pid: number }>('select pid from server_processes')).rows.map((r) => r.pid);
    for (const pid of pids) expect(left).not.toContain(pid);
  }, 60_000);
});
