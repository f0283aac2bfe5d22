/**
 * Starts the server: settings, database and migrations, the process registry, demo content, then listens.
 * The timers, scheduled and queued jobs start when the app is ready (server/jobs/jobs.ts).
 *
 * With WEB_CONCURRENCY=N (N > 1, PostgreSQL only) this process starts N server processes on its port with
 * Node's cluster module and keeps them running: each is a whole server as above (its own pool, registry
 * entry and job workers — several processes on one PostgreSQL, decisions 008 and 009), all accepting
 * connections from the one listening socket; this one only supervises them (decision 028).
 */
import cluster, { type Worker } from 'node:cluster';
import { buildApp } from './app';
import { type Config, ConfigError, loadConfig } from './config';
import { openDatabase } from './db/client';
import { emulatorAccounts, seed } from './db/seed';
import { ProcessConflictError } from './system/processes';

/** The accept queue's length asked of the kernel (see the listen call). */
const LISTEN_BACKLOG = 4096;

/** Exit codes that say a process cannot run as set up (settings, another process's state): never restarted. */
const EXIT_SETTINGS = 2;
const EXIT_CONFLICT = 3;

function settings(): Config {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(EXIT_SETTINGS);
    }
    throw err;
  }
}

/**
 * The processes' supervisor (WEB_CONCURRENCY > 1): starts them, starts again one that ends unasked (after
 * 1 s, doubling up to 30 s while they keep ending within a minute of starting), stops them all on SIGTERM or
 * SIGINT and ends when they have. One that ends because it cannot run as set up (exit code 2 or 3) stops
 * the rest: starting it again would fail the same way.
 */
function supervise(count: number) {
  let stopping = false;
  let exitCode = 0;
  // the wait before a restart: 1 s, doubled each time one ends within a minute of its start (at most 30 s)
  let delayMs = 500;
  const startedAt = new Map<Worker, number>();
  const start = () => startedAt.set(cluster.fork(), Date.now());
  const stopAll = (code: number) => {
    if (stopping) return;
    stopping = true;
    exitCode = code;
    // none running (all ended, a restart pending): nothing will end to say so
    if (startedAt.size === 0) process.exit(exitCode);
    for (const worker of startedAt.keys()) worker.process.kill('SIGTERM');
  };
  cluster.on('exit', (worker, code, signal) => {
    const lived = Date.now() - (startedAt.get(worker) ?? 0);
    startedAt.delete(worker);
    if (!stopping && (code === EXIT_SETTINGS || code === EXIT_CONFLICT)) {
      console.error(`Waymark: a server process cannot run (exit code ${code}); stopping the others`);
      stopAll(code);
    } else if (!stopping) {
      delayMs = lived > 60_000 ? 1000 : Math.min(delayMs * 2, 30_000);
      console.error(
        `Waymark: server process ${worker.process.pid} ended (${signal ?? `exit code ${code}`}); starting another in ${delayMs / 1000} s`,
      );
      // not unref'd: when every process has ended, this timer is what keeps the supervisor here to restart
      setTimeout(() => !stopping && start(), delayMs);
    }
    if (stopping && startedAt.size === 0) process.exit(exitCode);
  });
  process.on('SIGINT', () => stopAll(0));
  process.on('SIGTERM', () => stopAll(0));
  // the processes accept from the one listening socket themselves: with Node's round robin this process
  // accepts each connection and hands it to one, and a connection handed to one that has just died is lost
  // (it hangs, unanswered, until the client gives up); the kernel's queue gives it to one that takes it
  cluster.schedulingPolicy = cluster.SCHED_NONE;
  for (let i = 0; i < count; i++) start();
}

async function main() {
  const config = settings();
  if (config.processes > 1 && cluster.isPrimary) return supervise(config.processes);
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDir: config.pgliteDir,
    poolSize: config.databasePoolSize,
    replicaUrl: config.replica?.url,
    replicaMaxLagMs: config.replica?.maxLagMs,
  });
  // a server process joins the registry of processes on its PostgreSQL, kept alive by its heartbeat (a process
  // timer that starts with the jobs, server/jobs/jobs.ts); beside other processes on the same PostgreSQL it
  // refuses to start when state would be split between them
  let app: Awaited<ReturnType<typeof buildApp>>;
  try {
    app = await buildApp({ config, database, serverProcess: true });
  } catch (err) {
    if (!(err instanceof ProcessConflictError)) throw err;
    console.error(`Waymark cannot start: ${err.message}`);
    await database.close();
    process.exit(EXIT_CONFLICT);
  }
  const registry = app.services.processes;

  if (config.seedDemo) {
    const accounts = config.firebase.emulatorHost
      ? emulatorAccounts(config.firebase.emulatorHost, config.firebase.projectId, config.firebase.apiKey)
      : undefined;
    try {
      // processes starting together seed one after the other; the later ones find the content there
      await database.exclusive('waymark:seed', () =>
        seed(database.db, { accounts, log: (m) => app.log.info(m) }),
      );
    } catch (err) {
      app.log.warn({ err: (err as Error).message }, 'demo content could not be seeded');
    }
  }

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    await registry?.leave();
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  // connections not yet accepted wait in the kernel's queue: Node's default of 511 overflowed when ten
  // thousand takers opened the test in one minute (bench/exam-day.ts: connect timeouts, then resets), so
  // the queue is as long as the kernel allows (net.core.somaxconn caps it)
  await app.listen({ port: config.port, host: config.host, backlog: LISTEN_BACKLOG });
  app.log.info({ url: config.publicUrl, database: database.kind }, 'Waymark is ready');
  // where mail goes, said once at start
  if (config.smtpUrl) app.log.info(`mail is delivered through ${new URL(config.smtpUrl).host}`);
  else if (config.devMailbox)
    app.log.info(
      `mail is not sent: it lands in the local mailbox, ${config.publicUrl}/mailbox (this machine only)`,
    );
  else
    app.log.warn(
      'mail is NOT delivered: SMTP_URL is unset (MAIL_OUTBOX_ONLY=true), so invitations, test links and contact messages stay in the database table outbox; set SMTP_URL to send them',
    );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
