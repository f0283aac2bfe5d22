/**
 * `npm run seed`: seeds the demo content into the database the settings name (DATABASE_URL, or PGlite in
 * DATA_DIR), migrating it first, without starting the server. The server seeds on start too
 * (SEED_DEMO); this is for a database prepared ahead of time. Safe to run again. On PGlite, stop the
 * server first: one process at a time may open its folder.
 */
import { ConfigError, loadConfig } from '../config';
import { openDatabase } from './client';
import { emulatorAccounts, seed } from './seed';

async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.error(err.message);
    return 2;
  }
  const database = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: config.pgliteDir });
  try {
    const accounts = config.firebase.emulatorHost
      ? emulatorAccounts(config.firebase.emulatorHost, config.firebase.projectId, config.firebase.apiKey)
      : undefined;
    if (!accounts)
      console.log('no Auth emulator (FIREBASE_AUTH_EMULATOR_HOST): the demo accounts are skipped');
    await database.exclusive('waymark:seed', () => seed(database.db, { accounts, log: console.log }));
    console.log(`demo content seeded (${database.kind})`);
    return 0;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
