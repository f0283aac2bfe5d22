/**
 * Starts the server: settings, database and migrations, demo content, then listens. The scheduled and
 * queued jobs start with the app (server/jobs/jobs.ts).
 */
import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { openDatabase } from './db/client';
import { emulatorAccounts, seed } from './db/seed';
import { ProcessConflictError, ProcessRegistry } from './system/processes';

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

  await app.listen({ port: config.port, host: config.host });
  app.log.info({ url: config.publicUrl, database: database.kind }, 'Waymark is ready');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
