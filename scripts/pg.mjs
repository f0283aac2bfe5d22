#!/usr/bin/env node
/**
 * A throwaway PostgreSQL cluster on a free loopback port, for integration tests and benchmarks.
 *
 * As a module:
 *   const pg = await startPostgres({ database: 'waymark_test' });
 *   pg.url   // postgres://postgres@127.0.0.1:41234/waymark_test
 *   await pg.stop();   // stops the server and removes its data folder
 *
 * As a command (runs until Ctrl-C, prints the URL on stdout):
 *   node scripts/pg.mjs [--database waymark_test] [--port N]
 *
 * The cluster lives in a fresh folder under /tmp, trusts loopback connections only, and runs with fsync,
 * synchronous commit and full-page writes off: it is for tests, its data is thrown away. initdb refuses
 * to run as root, so as root the cluster belongs to the `postgres` user (initdb through runuser, the
 * server spawned with that user's uid and gid so this process owns it directly).
 * The binaries come from PG_BIN, /usr/lib/postgresql/<newest>/bin, or the PATH; when they are missing and
 * this process is root with apt-get, Debian's `postgresql` package is installed.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
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
  const initdb = join(bin, 'initdb');
  const init = owner
    ? spawnSync('runuser', ['-u', 'postgres', '--', initdb, ...initArgs], { encoding: 'utf8' })
    : spawnSync(initdb, initArgs, { encoding: 'utf8' });
  if (init.status !== 0) {
    cleanupDir();
    throw new Error(`initdb failed:\n${init.stderr || init.stdout || init.error?.message}`);
  }

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
  writeFileSync(
    join(dataDir, 'postgresql.auto.conf'),
    `${Object.entries(settings)
      .map(([k, v]) => `${k} = '${String(v).replace(/'/g, "''")}'`)
      .join('\n')}\n`,
  );
  if (owner) chownSync(join(dataDir, 'postgresql.auto.conf'), owner.uid, owner.gid);

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
      await client.query(`CREATE DATABASE ${database}`);
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
  log(`PostgreSQL is ready on 127.0.0.1:${port} after ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/${database}`,
    // the same server through its Unix socket (in the data folder): no loopback TCP between the processes
    socketUrl: `postgres://postgres@/${database}?host=${encodeURIComponent(dataDir)}&port=${port}`,
    adminUrl,
    port,
    dataDir,
    pid: child.pid,
    stop,
  };
}

async function main() {
  const argv = process.argv.slice(2);
  const opt = (name) => option(argv, name);
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(`Usage: node scripts/pg.mjs [--database waymark_test] [--port N]

Starts a throwaway PostgreSQL cluster on a free loopback port and prints its URL (for DATABASE_URL or
TEST_DATABASE_URL). Runs until Ctrl-C or SIGTERM, then stops it and removes its data folder.`);
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
  stopOnSignal(() => server.stop());
}

runAsCommand(import.meta.url, main);
