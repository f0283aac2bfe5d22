#!/usr/bin/env node
/**
 * A throwaway PostgreSQL cluster on a free loopback port, for integration tests and benchmarks.
 *
 * As a module:
 *   const pg = await startPostgres({ database: 'waymark_test' });
 *   pg.url   // postgres://postgres@127.0.0.1:41234/waymark_test
 *   await pg.stop();   // stops the server and removes its data folder
 *
 *   const replica = await startReplica({ primaryUrl: pg.url });
 *   replica.url   // the same database on a streaming replica (read-only), on a port of its own
 *   await replica.stop();
 *
 * As a command (runs until Ctrl-C, prints the URL on stdout; with --replica, the replica's URL too):
 *   node scripts/pg.mjs [--database waymark_test] [--port N] [--replica]
 *
 * A replica is a `pg_basebackup -R` of a running cluster (this module's or any reachable one that trusts
 * replication connections from loopback, as initdb's default pg_hba.conf does) started as a hot standby
 * with hot_standby_feedback on, streaming from the primary until stopped.
 *
 * The cluster lives in a fresh folder under /tmp, trusts loopback connections only, and runs with fsync,
 * synchronous commit and full-page writes off: it is for tests, its data is thrown away. initdb refuses
 * to run as root, so as root the cluster belongs to the `postgres` user (initdb through runuser, the
 * server spawned with that user's uid and gid so this process owns it directly).
 * The binaries come from PG_BIN, /usr/lib/postgresql/<newest>/bin, or the PATH; when they are missing and
 * this process is root with apt-get, Debian's `postgresql` package is installed.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  appendFileSync,
  chownSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { freePort, option, runAsCommand, stopOnSignal } from './service.mjs';

const MIN_VERSION = 15;
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const onPath = (cmd) =>
  spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' }).stdout.trim() || null;

/** The folder holding initdb and postgres (15 or newer), or null. */
export function findPostgresBin() {
  const candidates = [];
  if (process.env.PG_BIN) candidates.push(process.env.PG_BIN);
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    for (const v of readdirSync(debian)
      .filter((d) => /^\d+$/.test(d))
      .sort((a, b) => Number(b) - Number(a))) {
      if (Number(v) >= MIN_VERSION) candidates.push(join(debian, v, 'bin'));
    }
  }
  const pgConfig = onPath('pg_config');
  if (pgConfig) {
    const dir = spawnSync(pgConfig, ['--bindir'], { encoding: 'utf8' }).stdout?.trim();
    if (dir) candidates.push(dir);
  }
  const initdb = onPath('initdb');
  if (initdb) candidates.push(resolve(initdb, '..'));
  for (const dir of candidates) {
    if (existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'postgres'))) {
      const out = spawnSync(join(dir, 'postgres'), ['--version'], { encoding: 'utf8' }).stdout ?? '';
      const major = Number(/(\d+)(\.\d+)?/.exec(out)?.[1] ?? 0);
      if (major >= MIN_VERSION) return dir;
    }
  }
  return null;
}

export const INSTALL_HINT =
  'PostgreSQL 15 or newer is needed for the integration tests. On Debian or Ubuntu: sudo apt-get install -y postgresql ' +
  '(or set PG_BIN to the folder holding initdb and postgres).';

/** Finds the binaries, installing Debian's package when that is possible (root with apt-get). */
export function ensurePostgresBin({ log = console.error, install = true } = {}) {
  const found = findPostgresBin();
  if (found) return found;
  if (install && isRoot && onPath('apt-get')) {
    log('PostgreSQL is missing: installing Debian’s postgresql package');
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    const args = ['install', '-y', '--no-install-recommends', 'postgresql'];
    let res = spawnSync('apt-get', args, { stdio: 'inherit', env });
    if (res.status !== 0) {
      spawnSync('apt-get', ['update'], { stdio: 'inherit', env });
      res = spawnSync('apt-get', args, { stdio: 'inherit', env });
    }
    const after = findPostgresBin();
    if (after) return after;
  }
  throw new Error(INSTALL_HINT);
}

function userIds(name) {
  try {
    const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8' }).trim());
    return { uid, gid };
  } catch {
    return null;
  }
}

/** Processes to stop if this process exits without calling stop(). */
const live = new Set();
process.once('exit', () => {
  for (const entry of live) entry.killNow();
});

/**
 * @param {object} [options]
 * @param {string} [options.database] database to create (default waymark_test)
 * @param {number} [options.port] a free one when absent
 * @param {string} [options.binDir] where initdb and postgres are
 * @param {Record<string, string|number>} [options.settings] extra server settings (-c name=value)
 * @param {(line: string) => void} [options.log]
 * @returns {Promise<{url: string, socketUrl: string, adminUrl: string, port: number, dataDir: string, pid: number, stop: () => Promise<void>}>}
 */
export async function startPostgres(options = {}) {
  const log = options.log ?? (() => {});
  const database = options.database ?? 'waymark_test';
  if (!/^[a-z_][a-z0-9_]*$/.test(database)) throw new Error(`Not a plain database name: ${database}`);
  const bin = options.binDir ?? ensurePostgresBin({ log });
  const port = options.port ?? (await freePort());
  const owner = isRoot ? userIds('postgres') : null;
  if (isRoot && !owner) {
    throw new Error(
      'Running as root, but there is no `postgres` user to own the cluster (initdb refuses root). Create one: useradd --system postgres',
    );
  }

  const dataDir = mkdtempSync('/tmp/waymark-pg-');
  const cleanupDir = () => rmSync(dataDir, { recursive: true, force: true });
  if (owner) chownSync(dataDir, owner.uid, owner.gid);

  // initdb: as the postgres user when root
  const initArgs = [
    '-D',
    dataDir,
    '-U',
    'postgres',
    '--auth=trust',
    '--encoding=UTF8',
    '--no-locale',
    '--no-sync',
    '--no-instructions',
  ];
  runAs(owner, join(bin, 'initdb'), initArgs, cleanupDir);

  const settings = {
    listen_addresses: '127.0.0.1',
    port,
    unix_socket_directories: dataDir,
    fsync: 'off',
    synchronous_commit: 'off',
    full_page_writes: 'off',
    max_connections: 300,
    shared_buffers: '128MB',
    log_min_messages: 'warning',
    logging_collector: 'off',
    ...(options.settings ?? {}),
  };
  // written to the cluster's own config so pg_ctl and a person inspecting it see the same settings
  writeSettings(dataDir, settings, owner);

  const server = await runServer({
    bin,
    dataDir,
    owner,
    port,
    cleanupDir,
    ready: (client) => client.query(`CREATE DATABASE ${database}`),
  });
  log(`PostgreSQL is ready on 127.0.0.1:${port} after ${server.seconds.toFixed(1)} s`);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/${database}`,
    // the same server through its Unix socket (in the data folder): no loopback TCP between the processes
    socketUrl: `postgres://postgres@/${database}?host=${encodeURIComponent(dataDir)}&port=${port}`,
    adminUrl: server.adminUrl,
    port,
    dataDir,
    pid: server.pid,
    stop: server.stop,
  };
}

/**
 * Runs `postgres -D dataDir` (as `owner` when root) until it accepts connections and `ready` (given an
 * admin connection) succeeds or says the work is done already; `stop` ends it and removes the folder.
 */
async function runServer({ bin, dataDir, owner, port, cleanupDir, ready }) {
  const output = [];
  const child = spawn(join(bin, 'postgres'), ['-D', dataDir], {
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(owner ? { uid: owner.uid, gid: owner.gid } : {}),
    env: { ...process.env, LC_ALL: 'C' },
    detached: true,
  });
  const keep = (chunk) => {
    output.push(chunk.toString());
    if (output.length > 200) output.splice(0, output.length - 200);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  let exited = null;
  child.once('exit', (code, signal) => {
    exited = { code, signal };
  });

  const entry = {
    killNow() {
      if (!exited) {
        try {
          child.kill('SIGQUIT');
        } catch {
          // gone
        }
      }
      cleanupDir();
    },
  };
  live.add(entry);

  let stopped = null;
  const stop = () => {
    stopped ??= (async () => {
      if (!exited) {
        child.kill('SIGINT'); // fast shutdown
        const deadline = Date.now() + 10_000;
        while (!exited && Date.now() < deadline) await sleep(50);
        if (!exited) {
          child.kill('SIGKILL');
          await sleep(200);
        }
      }
      live.delete(entry);
      cleanupDir();
    })();
    return stopped;
  };

  const { default: pg } = await import('pg');
  const adminUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const started = Date.now();
  while (true) {
    if (exited) {
      live.delete(entry);
      cleanupDir();
      throw new Error(`PostgreSQL exited before accepting connections:\n${output.join('').slice(-3000)}`);
    }
    const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 1000 });
    try {
      await client.connect();
      // the server on the port is this one (another started at once may have been given the same port)
      const { rows } = await client.query("select current_setting('data_directory') as dir");
      if (rows[0]?.dir !== dataDir) throw new Error(`another server answers on port ${port}`);
      await ready(client);
      await client.end();
      break;
    } catch (err) {
      await client.end().catch(() => {});
      if (err && /already exists/.test(String(err.message))) break;
      if (Date.now() - started > 30_000) {
        await stop();
        throw new Error(
          `PostgreSQL did not accept connections within 30 s (${err.message}):\n${output.join('').slice(-3000)}`,
        );
      }
      await sleep(100);
    }
  }
  return { adminUrl, pid: child.pid, stop, seconds: (Date.now() - started) / 1000 };
}

/**
 * A streaming replica of the running cluster at `primaryUrl`: `pg_basebackup -R` (as the `postgres` user
 * when root) into a fresh folder, then a hot standby on a port of its own, read-only, following the
 * primary until stopped. Its `url` names the same database as `primaryUrl`; databases created on the
 * primary later appear on it as they are replayed.
 * @param {object} options
 * @param {string} options.primaryUrl a postgres:// URL of the primary (host, port, user, database)
 * @param {number} [options.port]
 * @param {string} [options.binDir]
 * @param {Record<string, string|number>} [options.settings] extra server settings
 * @param {(line: string) => void} [options.log]
 * @returns {Promise<{url: string, socketUrl: string, adminUrl: string, port: number, dataDir: string, pid: number, stop: () => Promise<void>}>}
 */
export async function startReplica(options) {
  const log = options.log ?? (() => {});
  const primary = new URL(options.primaryUrl);
  const bin = options.binDir ?? ensurePostgresBin({ log });
  const port = options.port ?? (await freePort());
  const owner = isRoot ? userIds('postgres') : null;
  const dataDir = mkdtempSync('/tmp/waymark-pg-replica-');
  const cleanupDir = () => rmSync(dataDir, { recursive: true, force: true });
  if (owner) chownSync(dataDir, owner.uid, owner.gid);
  const started = Date.now();
  const args = [
    '-h',
    primary.hostname,
    '-p',
    primary.port || '5432',
    '-U',
    decodeURIComponent(primary.username || 'postgres'),
    '-D',
    dataDir,
    '-R',
    '-X',
    'stream',
    '--checkpoint=fast',
    '--no-sync',
  ];
  runAs(owner, join(bin, 'pg_basebackup'), args, cleanupDir);
  // the copy carries the primary's own settings (its port, its socket folder): this server's come last
  writeSettings(
    dataDir,
    {
      listen_addresses: '127.0.0.1',
      port,
      unix_socket_directories: dataDir,
      hot_standby: 'on',
      hot_standby_feedback: 'on',
      ...(options.settings ?? {}),
    },
    owner,
    true,
  );
  const server = await runServer({
    bin,
    dataDir,
    owner,
    port,
    cleanupDir,
    ready: async (client) => {
      const { rows } = await client.query('select pg_is_in_recovery() as standby');
      if (!rows[0]?.standby) throw new Error('the copy is not a standby');
    },
  });
  log(
    `PostgreSQL replica of ${primary.host} is ready on 127.0.0.1:${port} after ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  const url = new URL(options.primaryUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return {
    url: url.toString(),
    // the same server through its Unix socket (in the data folder)
    socketUrl: `postgres://${url.username || 'postgres'}@${url.pathname}?host=${encodeURIComponent(dataDir)}&port=${port}`,
    adminUrl: server.adminUrl,
    port,
    dataDir,
    pid: server.pid,
    stop: server.stop,
  };
}

/** Runs one of PostgreSQL's programs, as the `postgres` user when root (`owner`); a failure removes the folder. */
function runAs(owner, program, args, cleanupDir) {
  const run = owner
    ? spawnSync('runuser', ['-u', 'postgres', '--', program, ...args], { encoding: 'utf8' })
    : spawnSync(program, args, { encoding: 'utf8' });
  if (run.status !== 0) {
    cleanupDir();
    throw new Error(`${program} failed:\n${run.stderr || run.stdout || run.error?.message}`);
  }
}

/** Server settings into the cluster's postgresql.auto.conf (appended: later lines win), owned by `owner`. */
function writeSettings(dataDir, settings, owner, append = false) {
  const file = join(dataDir, 'postgresql.auto.conf');
  const lines = `${Object.entries(settings)
    .map(([k, v]) => `${k} = '${String(v).replace(/'/g, "''")}'`)
    .join('\n')}\n`;
  if (append) appendFileSync(file, lines);
  else writeFileSync(file, lines);
  if (owner) chownSync(file, owner.uid, owner.gid);
}

async function main() {
  const argv = process.argv.slice(2);
  const opt = (name) => option(argv, name);
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(`Usage: node scripts/pg.mjs [--database waymark_test] [--port N] [--replica]

Starts a throwaway PostgreSQL cluster on a free loopback port and prints its URL (for DATABASE_URL or
TEST_DATABASE_URL); with --replica also a streaming replica of it, whose URL comes on a second line (for
DATABASE_REPLICA_URL). Runs until Ctrl-C or SIGTERM, then stops them and removes their data folders.`);
    return;
  }
  const port = opt('port');
  const server = await startPostgres({
    database: opt('database') ?? 'waymark_test',
    port: port ? Number(port) : undefined,
    log: (m) => console.error(`[pg] ${m}`),
  });
  console.log(server.url);
  console.error(`[pg] export DATABASE_URL=${server.url}   (Ctrl-C stops it and deletes its data)`);
  const replica = argv.includes('--replica')
    ? await startReplica({ primaryUrl: server.url, log: (m) => console.error(`[pg] ${m}`) })
    : null;
  if (replica) {
    console.log(replica.url);
    console.error(`[pg] export DATABASE_REPLICA_URL=${replica.url}`);
  }
  stopOnSignal(async () => {
    await replica?.stop();
    await server.stop();
  });
}

runAsCommand(import.meta.url, main);
