/**
 * What every benchmark starts and stops the same way: a throwaway PostgreSQL (scripts/pg.mjs), the
 * server's settings in production mode, the server itself (server/main.ts through tsx, its own process, on
 * a free port) and its orderly end.
 *
 * A production start refuses without a mail transport, without the awards' signing key (server/config.ts,
 * decision 013) and without the integrations' sealing key (decision 039): every bench server keeps mail in
 * the outbox table (MAIL_OUTBOX_ONLY) and gets a throwaway CREDENTIAL_SIGNING_KEY and
 * INTEGRATIONS_SECRET_KEY here, so no bench can forget them.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../scripts/service.mjs';
import { newKey } from '../../server/credentials/keys';

export { freePort };

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));

/** The JWT secret of the bench servers: tokens the bench issues in process must verify there. */
export const BENCH_JWT_SECRET = 'bench-secret-bench-secret-bench-secret-0123';

export interface Postgres {
  url: string;
  /** The same database through the server's Unix socket. */
  socketUrl: string;
  pid: number;
  stop(): Promise<void>;
}

/** A throwaway cluster on a free loopback port (scripts/pg.mjs: fsync off unless `settings` turn it on). */
/** The settings a bench that reads PostgreSQL's own time per statement (pg_stat_statements) starts with. */
export const STATEMENT_STATS = {
  shared_preload_libraries: 'pg_stat_statements',
  'pg_stat_statements.track_planning': 'on',
};

export async function startPostgres(options: {
  database: string;
  settings?: Record<string, string>;
}): Promise<Postgres> {
  // a computed specifier: scripts/pg.mjs is plain JavaScript without types of its own
  const { startPostgres: start } = (await import(`${'../../scripts/pg.mjs'}`)) as {
    startPostgres: (o: object) => Promise<Postgres>;
  };
  return start(options);
}

/**
 * The settings of a bench server on `databaseUrl`: production mode, mail kept in the outbox, a throwaway
 * signing key, 2-hour access tokens, no Auth emulator (tokens are issued in process), sandbox payments, no
 * demo seed (the bench seeds what it needs), rate limits out of the way, warnings only, files in `dataDir`
 * and no portal files. `settings` are added last (DATABASE_POOL_SIZE, …). PORT is set by startServer.
 */
export async function serverEnv(options: {
  databaseUrl: string;
  dataDir: string;
  settings?: Record<string, string>;
}): Promise<Record<string, string>> {
  return {
    ...(process.env as Record<string, string>),
    NODE_ENV: 'production',
    // no SMTP here: mail stays in the outbox table (a production start otherwise refuses)
    MAIL_OUTBOX_ONLY: 'true',
    // a production start needs the awards' signing key (decision 013): a throwaway one
    CREDENTIAL_SIGNING_KEY: (await newKey()).secretKeyMultibase,
    // and the key that seals the integrations' secrets (decision 039): a throwaway one
    INTEGRATIONS_SECRET_KEY: randomBytes(32).toString('base64'),
    HOST: '127.0.0.1',
    DATABASE_URL: options.databaseUrl,
    JWT_SECRET: BENCH_JWT_SECRET,
    ACCESS_TOKEN_TTL: '7200',
    FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:1',
    PAYMENTS_SANDBOX: 'true',
    SEED_DEMO: 'false',
    RATE_LIMIT_AUTH: '100000000',
    RATE_LIMIT_STRICT: '100000000',
    LOG_LEVEL: 'warn',
    DATA_DIR: options.dataDir,
    STATIC_DIR: join(options.dataDir, 'no-static'),
    ...options.settings,
  };
}

export interface BenchServer {
  child: ChildProcess;
  pid: number;
  port: number;
  /** `http://127.0.0.1:{port}` */
  url: string;
  /** SIGTERM, SIGKILL after 15 s; resolves once it has exited. */
  stop(): Promise<void>;
}

/**
 * Starts the server with `env` (from serverEnv) on a free port and resolves once `/api/health` answers;
 * `inspectPort` opens its inspector there (for a CPU profile); `nodeArgs` are Node's (and V8's) flags for it.
 */
export async function startServer(
  env: Record<string, string>,
  options: { inspectPort?: number; timeoutMs?: number; nodeArgs?: readonly string[] } = {},
): Promise<BenchServer> {
  const port = await freePort();
  const timeoutMs = options.timeoutMs ?? 150_000;
  mkdirSync(env.DATA_DIR ?? join(root, '.tmp'), { recursive: true });
  const child = spawn(
    process.execPath,
    [
      ...(options.inspectPort ? [`--inspect=127.0.0.1:${options.inspectPort}`] : []),
      ...(options.nodeArgs ?? []),
      '--import',
      'tsx',
      'server/main.ts',
    ],
    { cwd: root, env: { ...env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const server: BenchServer = {
    child,
    pid: child.pid!,
    port,
    url: `http://127.0.0.1:${port}`,
    stop: () => stopProcess(child),
  };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`a server stopped while starting (exit code ${child.exitCode})`);
    try {
      if ((await fetch(`${server.url}/api/health`)).ok) return server;
    } catch {
      // not yet
    }
    if (Date.now() > deadline) {
      await server.stop();
      throw new Error(`a server did not start within ${timeoutMs / 1000} s`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Ends a child process: SIGTERM, SIGKILL after 15 s; resolves once it has exited (at once if it has). */
export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const force = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(force);
}

/** Runs `stop` on Ctrl-C before exiting with 130, so an interrupted bench leaves no cluster or server behind. */
export function stopOnInterrupt(stop: () => Promise<void>): void {
  process.once('SIGINT', () => void stop().then(() => process.exit(130)));
}
