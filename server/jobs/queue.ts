/**
 * The job queue: pg-boss on the same database as everything else (decision 008). On PostgreSQL every
 * server process shares it — a job is claimed by one worker (SELECT … FOR UPDATE SKIP LOCKED), a cron
 * schedule sends one job per tick whichever processes are running, jobs are rows so they survive
 * restarts, and failed ones are retried with exponential backoff. On PGlite the same code runs in the one
 * process through pg-boss's PGlite adapter.
 *
 * pg-boss's tables (schema `pgboss`) are installed and upgraded with the migrations, under the same
 * advisory lock (`installJobSchema`), so a running queue never migrates.
 */
import { sql } from 'drizzle-orm';
import { type Db as BossDb, fromDrizzle, fromPglite, PgBoss, type Queue, type SendOptions } from 'pg-boss';
import type { Database, Db } from '../db/client';

export const JOB_SCHEMA = 'pgboss';

type Log = {
  info: (o: object, m: string) => void;
  warn: (o: object, m: string) => void;
  error: (o: object, m: string) => void;
};

/** pg-boss on a database connection it does not own (the migration lock's, or PGlite's). */
function borrowed(db: BossDb, backend: 'postgres' | 'pglite') {
  return new PgBoss({
    db,
    backend,
    schema: JOB_SCHEMA,
    migrate: true,
    supervise: false,
    schedule: false,
    registerInstance: false,
    openTelemetry: { enabled: false },
  });
}

/** Installs or upgrades pg-boss's tables; the caller holds the migration lock (or is PGlite's one process). */
export async function installJobSchema(db: BossDb, backend: 'postgres' | 'pglite'): Promise<void> {
  const boss = borrowed(db, backend);
  boss.on('error', () => undefined);
  await boss.start();
  await boss.stop({ graceful: false, close: false });
}

/** A Drizzle database or transaction, as pg-boss's connection for one call. */
export const onConnection = (tx: Db) => fromDrizzle(tx as never, sql);

export interface JobQueueOptions {
  /** Run workers, schedules and maintenance in this process. */
  work: boolean;
  /** Connections of pg-boss's own pool on PostgreSQL. */
  poolSize?: number;
  log: Log;
}

export class JobQueue {
  readonly boss: PgBoss;
  private started: Promise<void> | null = null;

  constructor(
    database: Database,
    private readonly options: JobQueueOptions,
  ) {
    const common = {
      schema: JOB_SCHEMA,
      // the migrations installed the tables; a process that finds them older refuses to start
      migrate: false,
      supervise: options.work,
      schedule: options.work,
      openTelemetry: { enabled: false },
      instanceName: 'waymark',
      // a delivery job starts the moment it is sent, in whichever process listens first
      useListenNotify: options.work,
    } as const;
    if (database.kind === 'pglite' && database.pglite) {
      this.boss = new PgBoss({ ...common, db: fromPglite(database.pglite), backend: 'pglite' });
    } else {
      if (!database.url) throw new Error('The job queue needs the PostgreSQL connection string');
      this.boss = new PgBoss({
        ...common,
        connectionString: database.url,
        max: options.poolSize ?? 4,
        application_name: 'waymark jobs',
      });
    }
    this.boss.on('error', (err) => options.log.error({ err }, 'job queue error'));
    this.boss.on('warning', (w) => options.log.warn({ warning: w }, 'job queue warning'));
  }

  get working(): boolean {
    return this.options.work;
  }

  start(): Promise<void> {
    this.started ??= this.boss.start().then(() => undefined);
    return this.started;
  }

  async stop(): Promise<void> {
    if (!this.started) return;
    await this.started.catch(() => undefined);
    // workers finish the job in hand (up to 10 s); an unfinished one is retried by another process
    await this.boss.stop({ graceful: true, timeout: 10_000 });
    this.started = null;
  }

  /** Creates missing queues and brings existing ones' settings up to date (one read when nothing changed). */
  async ensureQueues(queues: { name: string; options: Omit<Queue, 'name'> }[]): Promise<void> {
    const existing = new Map(
      (await this.boss.getQueues(queues.map((q) => q.name))).map((q) => [
        q.name,
        q as unknown as Record<string, unknown>,
      ]),
    );
    for (const { name, options } of queues) {
      const found = existing.get(name);
      if (!found) {
        await this.boss.createQueue(name, options);
        continue;
      }
      const { policy: _policy, partition: _partition, ...changeable } = options;
      const stale = Object.entries(changeable).some(([key, value]) => found[key] !== value);
      if (stale) await this.boss.updateQueue(name, changeable);
    }
  }

  /**
   * Sends a job; with `tx` it is written in that transaction, so it exists exactly when the transaction's
   * other writes do. Returns null when the queue's policy refused a duplicate.
   */
  async send(
    name: string,
    data: object | null,
    options: Omit<SendOptions, 'db'> & { tx?: Db } = {},
  ): Promise<string | null> {
    await this.start();
    const { tx, ...rest } = options;
    return this.boss.send(name, data, tx ? { ...rest, db: onConnection(tx) } : rest);
  }
}
