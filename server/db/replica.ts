/**
 * A streaming replica for the reads that may be a little behind (decision 035): the mentor's reports and
 * exports and the public catalogue. `reads()` hands out the replica while it is in use and the primary
 * otherwise; what must read its own writes never asks for it.
 *
 * Whether it is in use is decided by `check()`, which a process timer runs every REPLICA_CHECK_MS
 * (server/jobs/jobs.ts): it notes the primary's WAL position with the time, then asks the replica how far
 * it has replayed. The replica's lag is the age of the newest noted position it has replayed past — a bound
 * on how stale its answers are, whether or not the primary is writing (an idle primary's position does not
 * move, so a caught-up replica is 0 behind), with no write of our own to measure it. Past `maxLagMs`, down,
 * or not a standby at all (a promoted one no longer follows the primary): skipped, and said so in the log
 * once and in /api/health while it lasts. A connection the replica refuses marks it down at once.
 */
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Db } from './client';
import * as schema from './schema';

/** How often each process checks its replica. */
export const REPLICA_CHECK_MS = 1000;

export type ReplicaState = 'starting' | 'in use' | 'lagging' | 'down' | 'not a standby';

export interface ReplicaStatus {
  state: ReplicaState;
  /** How far behind the primary the replica's answers may be (ms); null when unknown. */
  lagMs: number | null;
  maxLagMs: number;
  checkedAt: string | null;
}

type Log = { info: (o: object, m: string) => void; warn: (o: object, m: string) => void };

/** A WAL position ('16/B374D848') as a number of bytes. */
export function lsnBytes(lsn: string): bigint {
  const [hi, lo] = lsn.split('/');
  return (BigInt(`0x${hi}`) << 32n) + BigInt(`0x${lo}`);
}

export class Replica {
  readonly db: Db;
  private readonly pool: pg.Pool;
  /** The primary's WAL position over time, oldest first. */
  private samples: { at: number; lsn: bigint }[] = [];
  private current: ReplicaStatus;
  private checking: Promise<ReplicaStatus> | null = null;
  private log: Log | null = null;

  constructor(
    url: string,
    private readonly primary: pg.Pool,
    private readonly maxLagMs: number,
    poolSize: number,
  ) {
    this.pool = new pg.Pool({
      connectionString: url,
      max: poolSize,
      idleTimeoutMillis: 30_000,
      connectionTimeoutMillis: 2000,
      statement_timeout: 15_000,
      application_name: 'waymark reads',
    });
    this.pool.on('error', () => {
      // an idle client lost its connection; the pool replaces it, the next check says whether it is down
    });
    const connect = this.pool.connect.bind(this.pool) as (...a: unknown[]) => unknown;
    // a refused connection marks the replica down at once: the next reads go to the primary
    (this.pool as unknown as { connect: (...a: unknown[]) => unknown }).connect = (...a: unknown[]) => {
      const cb = a[0] as ((err: Error | undefined, ...rest: unknown[]) => void) | undefined;
      if (typeof cb === 'function') {
        return connect((err: Error | undefined, ...rest: unknown[]) => {
          if (err) this.set({ state: 'down', lagMs: null }, err);
          cb(err, ...rest);
        });
      }
      return (connect() as Promise<pg.PoolClient>).catch((err: Error) => {
        this.set({ state: 'down', lagMs: null }, err);
        throw err;
      });
    };
    this.db = drizzle(this.pool, { schema });
    this.current = { state: 'starting', lagMs: null, maxLagMs, checkedAt: null };
  }

  /** Where state changes are said (the app's logger, once it exists). */
  setLog(log: Log) {
    this.log = log;
  }

  get status(): ReplicaStatus {
    return this.current;
  }

  get inUse(): boolean {
    return this.current.state === 'in use';
  }

  private set(next: { state: ReplicaState; lagMs: number | null }, err?: Error) {
    const before = this.current.state;
    this.current = { ...next, maxLagMs: this.maxLagMs, checkedAt: new Date().toISOString() };
    if (before === next.state) return;
    const about = { replica: next.state, lagMs: next.lagMs, maxLagMs: this.maxLagMs, err: err?.message };
    if (next.state === 'in use') this.log?.info(about, 'the read replica takes the reports again');
    else if (before === 'in use' || before === 'starting')
      this.log?.warn(about, `the read replica is skipped (${next.state}): reports read the primary`);
  }

  /** Measures the lag now and decides whether the replica is in use (one check at a time). */
  check(now = Date.now()): Promise<ReplicaStatus> {
    this.checking ??= this.measure(now).finally(() => {
      this.checking = null;
    });
    return this.checking;
  }

  private async measure(now: number): Promise<ReplicaStatus> {
    try {
      // the insert position, not the write position: with synchronous_commit off a commit has returned
      // before its record is written, and a replica caught up with the write position lacks it
      const { rows } = await this.primary.query<{ lsn: string }>(
        'select pg_current_wal_insert_lsn()::text as lsn',
      );
      this.samples.push({ at: now, lsn: lsnBytes(rows[0]!.lsn) });
    } catch {
      // the primary is not answering: the replica's lag cannot be known; keep the last state
      return this.current;
    }
    // keep what can tell a lag up to the bound, and one sample older than it
    const horizon = now - this.maxLagMs - 2 * REPLICA_CHECK_MS;
    while (this.samples.length > 2 && this.samples[1]!.at < horizon) this.samples.shift();
    let replayed: { standby: boolean; lsn: string | null };
    try {
      const { rows } = await this.pool.query<{ standby: boolean; lsn: string | null }>(
        'select pg_is_in_recovery() as standby, pg_last_wal_replay_lsn()::text as lsn',
      );
      replayed = rows[0]!;
    } catch (err) {
      this.set({ state: 'down', lagMs: null }, err as Error);
      return this.current;
    }
    if (!replayed.standby || !replayed.lsn) {
      this.set({ state: 'not a standby', lagMs: null });
      return this.current;
    }
    const position = lsnBytes(replayed.lsn);
    const caughtUp = this.samples.findLast((s) => s.lsn <= position);
    // behind every noted position: at least as old as the oldest (not yet known, just after the start)
    const lagMs = Math.max(0, now - (caughtUp ?? this.samples[0]!).at);
    const state: ReplicaState =
      caughtUp && lagMs <= this.maxLagMs
        ? 'in use'
        : !caughtUp && lagMs < this.maxLagMs && this.current.state === 'starting'
          ? 'starting'
          : 'lagging';
    this.set({ state, lagMs });
    return this.current;
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}
