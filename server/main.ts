/** Starts the server: settings, database and migrations, demo content, jobs, then listens. */
import { buildApp } from './app';
import { startLinkSweep } from './assessments/routes';
import { ConfigError, loadConfig } from './config';
import { openDatabase } from './db/client';
import { emulatorAccounts, seed } from './db/seed';
import { purgeDeletedAccounts } from './profile/deletion-job';

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
  const { identity, mail } = app.services;

  if (config.seedDemo) {
    const accounts = config.firebase.emulatorHost
      ? emulatorAccounts(config.firebase.emulatorHost, config.firebase.projectId, config.firebase.apiKey)
      : undefined;
    try {
      await seed(database.db, { accounts, log: (m) => app.log.info(m) });
    } catch (err) {
      app.log.warn({ err: (err as Error).message }, 'demo content could not be seeded');
    }
  }

  const hourly = setInterval(() => {
    purgeDeletedAccounts(database.db, identity, config.deletionGraceDays, app.log).catch((err) =>
      app.log.error({ err }, 'account deletion job failed'),
    );
  }, 3600_000);
  const mailRetry = setInterval(() => {
    mail.retryFailed().catch((err) => app.log.error({ err }, 'mail retry failed'));
  }, 300_000);
  hourly.unref();
  mailRetry.unref();
  // tests whose time is up are evaluated with the answers they have; unused links past expiry expire
  const stopLinkSweep = startLinkSweep(database.db, app.log);
  await purgeDeletedAccounts(database.db, identity, config.deletionGraceDays, app.log);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    clearInterval(hourly);
    clearInterval(mailRetry);
    stopLinkSweep();
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
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
