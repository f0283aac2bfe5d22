/**
 * What the benches of the compiled CLI share (bench/import.ts, bench/seats.ts): building dist/cli when it
 * is older than its sources, and a throwaway PostgreSQL (seeded, opened) with a data folder, stopped with
 * the server a bench starts (also on Ctrl-C).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isStale } from '../../scripts/stale.mjs';
import { type Database, openDatabase } from '../../server/db/client';
import { seed } from '../../server/db/seed';
import { type BenchServer, type Postgres, startPostgres, stopOnInterrupt } from './server';

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));

/** The CLI's executable (it runs dist/cli). */
export const waymarkBin = join(root, 'cli', 'bin', 'waymark.mjs');

/**
 * Builds dist/cli when it is missing or older than its sources: the bench measures the compiled CLI, and an
 * old one measures old code (it once made --help look 3.5 times slower).
 */
export function ensureCliBuilt(log: (line: string) => void): void {
  const sources = ['cli/src', 'cli/bin', 'cli/build.mjs', 'shared'].map((p) => join(root, p));
  if (!isStale(join(root, 'dist', 'cli', 'waymark.js'), sources)) return;
  log('dist/cli is missing or older than its sources: building it (node cli/build.mjs) …');
  const built = spawnSync(process.execPath, ['cli/build.mjs'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) throw new Error('building the CLI failed');
}

export interface BenchStack {
  pg: Postgres;
  /** The bench's own connection to it (the schema and the seed in place). */
  database: Database;
  /** `.tmp/bench-<name>-<pid>`: the server's files, the CLI's home, the bench's inputs. */
  dataDir: string;
  /** The server the bench starts, stopped by stop(). */
  server: BenchServer | null;
  stop(): Promise<void>;
}

/** A throwaway PostgreSQL (database `waymark_bench_<name>`, seeded) and a data folder, stopped together. */
export async function benchStack(name: string): Promise<BenchStack> {
  const pg = await startPostgres({ database: `waymark_bench_${name}` });
  const database = await openDatabase({ databaseUrl: pg.url, poolSize: 4 });
  await seed(database.db, {});
  const dataDir = join(root, '.tmp', `bench-${name}-${process.pid}`);
  mkdirSync(dataDir, { recursive: true });
  const stack: BenchStack = {
    pg,
    database,
    dataDir,
    server: null,
    async stop() {
      await stack.server?.stop();
      await database.close();
      await pg.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  stopOnInterrupt(() => stack.stop());
  return stack;
}

/** The machine line the CLI benches print first. */
export const machineLine = () =>
  `machine: ${cpus().length} × ${cpus()[0]?.model.trim()}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.versions.node}; load before: ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`;
