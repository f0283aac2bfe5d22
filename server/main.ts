/**
 * Starts the server: settings, database and migrations, the process registry, demo content, then listens.
 * The timers, scheduled and queued jobs start when the app is ready (server/jobs/jobs.ts).
 */
import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { openDatabase } from './db/client';
import { emulatorAccounts, seed } from './db/seed';
import { ProcessConflictError, ProcessRegistry } from './system/processes';

/** The accept queue's length asked of the kernel (see the listen call). */
const LISTEN_BACKLOG = 4096;

async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDir: config.pgliteDir,
    poolSize: config.databasePoolSize,
  });
  const app = await buildApp({ config, database });

  // beside other processes on the same PostgreSQL: refuse to start when state would be split between them
  let registry: ProcessRegistry | null = null;
  try {
    registry = await ProcessRegistry.join(database, config, app.log);
    // kept alive by its heartbeat, a process timer that starts with the jobs (server/jobs/jobs.ts)
    app.services.processes = registry;
  } catch (err) {
    if (!(err instanceof ProcessConflictError)) throw err;
    console.error(`Waymark cannot start: ${err.message}`);
    await database.close();
    process.exit(3);
  }

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
