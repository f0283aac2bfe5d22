/**
 * Vitest's global set-up for the server tests: starts what they need when the caller has not, so
 * `npx vitest run --project server` works from a clean checkout (PostgreSQL installed for its run):
 * - the Firebase Auth emulator, unless FIREBASE_AUTH_EMULATOR_HOST names one (`npm test` shares its own);
 * - with TEST_DB=postgres and no TEST_DATABASE_URL, a throwaway PostgreSQL cluster (scripts/pg.mjs).
 * What it starts is stopped when the run ends. The test files read both settings from the environment,
 * which the workers inherit from this process.
 */
import type { TestProject } from 'vitest/node';

type Stoppable = { stop(): Promise<void> };

export default async function setup(_project: TestProject) {
  const stops: Stoppable[] = [];
  const root = new URL('../../', import.meta.url);
  try {
    if (!process.env.FIREBASE_AUTH_EMULATOR_HOST) {
      const { startEmulator } = (await import(new URL('scripts/emulator.mjs', root).href)) as {
        startEmulator(o: { projectId: string }): Promise<Stoppable & { host: string }>;
      };
      const emulator = await startEmulator({ projectId: 'demo-waymark' });
      stops.push(emulator);
      process.env.FIREBASE_AUTH_EMULATOR_HOST = emulator.host;
    }
    if (process.env.TEST_DB === 'postgres' && !process.env.TEST_DATABASE_URL) {
      const { ensurePostgresBin, startPostgres } = (await import(new URL('scripts/pg.mjs', root).href)) as {
        ensurePostgresBin(): string;
        startPostgres(o: { database: string; binDir?: string }): Promise<Stoppable & { url: string }>;
      };
      const pg = await startPostgres({ database: 'waymark_test', binDir: ensurePostgresBin() });
      stops.push(pg);
      process.env.TEST_DATABASE_URL = pg.url;
    }
  } catch (err) {
    await Promise.all(stops.map((s) => s.stop()));
    throw err;
  }
  return async () => {
    await Promise.all(stops.map((s) => s.stop().catch(() => undefined)));
  };
}
