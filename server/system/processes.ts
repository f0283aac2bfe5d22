/**
 * The server processes running on one PostgreSQL database (decision 009). Each process keeps a row in
 * `server_processes` while it runs (refreshed every 10 s; a row not refreshed for 30 s is a process that
 * is gone). A process joins under an advisory lock, so processes starting together are checked one after
 * the other, and refuses to start beside a live process that keeps its state elsewhere:
 *
 * - files: without S3_BUCKET files live in DATA_DIR/files, on this machine's disk. Processes may share
 *   them only by sharing the folder itself, which each DATA_DIR's id (a random id written into the folder
 *   once) tells. Otherwise a learner's award image uploaded to one process would be missing on the next.
 *   With S3_BUCKET every process must name the same bucket.
 * - the signing secret: without JWT_SECRET one is generated into DATA_DIR; a process with another secret
 *   would refuse every token the first one signed. Two processes with different JWT_SECRETs (a secret
 *   being rotated) only get a warning.
 * - the sealing key: without INTEGRATIONS_SECRET_KEY one is generated into DATA_DIR; a process with another
 *   key could not open the secrets the first one sealed (decision 039). Two different keys from the
 *   environment (one being replaced) only get a warning.
 *
 * PGlite is one process by construction and keeps no registry.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { and, eq, gt, lt, ne, sql } from 'drizzle-orm';
import type { Config } from '../config';
import type { Database } from '../db/client';
import { serverProcesses } from '../db/schema';
import { createdOnce } from '../lib/created-once';

export const HEARTBEAT_SECONDS = 10;
/** A process whose row was not refreshed for this long is gone. */
export const LIVE_SECONDS = 30;
export const REGISTRY_LOCK = 'waymark:processes';

export interface ProcessIdentity {
  files: string;
  signing: string;
  signingFrom: 'env' | 'generated';
  /** `{env|generated}:{fingerprint}` of the key that seals integrations' secrets. */
  sealing: string;
}

/**
 * The id of a DATA_DIR: written into the folder the first time, so every process using it reads it. The file
 * appears whole or not at all (written beside it, then linked into place: a link fails if the name exists),
 * so processes starting together in an empty folder all read the one id the first of them wrote; creating it
 * in place let another process read it empty between its creation and its writing, and refuse to start
 * beside a process "on another disk" (server/system/scale-out.test.ts caught it).
 */
export function dataDirId(dataDir: string): string {
  return createdOnce(join(dataDir, 'data-dir-id'), () => `${randomUUID()}\n`, { mode: 0o644 }).trim();
}

export function identityOf(config: Config): ProcessIdentity {
  const s3 = config.storage.s3;
  return {
    files: s3 ? `s3:${s3.endpoint.replace(/\/$/, '')}/${s3.bucket}` : `local:${dataDirId(config.dataDir)}`,
    signing: createHmac('sha256', config.jwtSecret)
      .update('waymark process fingerprint')
      .digest('base64url')
      .slice(0, 16),
    signingFrom: config.jwtSecretGenerated ? 'generated' : 'env',
    sealing: `${config.integrations.sealingKeyGenerated ? 'generated' : 'env'}:${createHmac('sha256', config.integrations.sealingKey).update('waymark process fingerprint').digest('base64url').slice(0, 16)}`,
  };
}

type Row = typeof serverProcesses.$inferSelect;

export class ProcessConflictError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProcessConflictError';
  }
}

const whoIs = (p: Row, now: Date) =>
  `${p.host} pid ${p.pid}, started ${p.startedAt.toISOString()}, last seen ${Math.max(0, Math.round((now.getTime() - p.seenAt.getTime()) / 1000))} s ago`;

/** Why this process may not run beside `other`, or null; and a warning that does not stop it. */
export function conflictWith(
  mine: ProcessIdentity,
  other: Row,
  now = new Date(),
): { refuse: string | null; warn: string | null } {
  const who = `another Waymark process on this database (${whoIs(other, now)})`;
  if (mine.files !== other.files) {
    const local = mine.files.startsWith('local:') || other.files.startsWith('local:');
    return {
      refuse: local
        ? `Files (award and question images) are kept on this process's own disk (DATA_DIR/files, no S3_BUCKET), and ${who} keeps them ${other.files.startsWith('local:') ? 'on another disk' : `in ${other.files.slice(3)}`}. A file uploaded to one would be missing on the other. To run more than one process, set S3_BUCKET (S3-compatible storage) on every process, or give them one shared DATA_DIR. A process that has stopped counts as gone ${LIVE_SECONDS} s after it was last seen.`
        : `Files go to ${mine.files.slice(3)} here but to ${other.files.slice(3)} in ${who}: every process must use the same S3_ENDPOINT and S3_BUCKET.`,
      warn: null,
    };
  }
  if (mine.signing !== other.signing) {
    if (mine.signingFrom === 'generated' || other.signingFrom === 'generated') {
      return {
        refuse: `Tokens are signed here with a secret ${mine.signingFrom === 'generated' ? 'generated into this DATA_DIR' : 'from JWT_SECRET'}, and ${who} signs them with another one${other.signingFrom === 'generated' ? ' it generated' : ''}: each would refuse the other's sign-ins. Set the same JWT_SECRET on every process.`,
        warn: null,
      };
    }
    return {
      refuse: null,
      warn: `${who} signs tokens with another JWT_SECRET: sign-ins made there are refused here until it stops (expected only while a secret is being rotated).`,
    };
  }
  // a process of the release before sealing keys registers none
  if (other.sealing && mine.sealing !== other.sealing) {
    const generated = (s: string) => s.startsWith('generated:');
    if (generated(mine.sealing) || generated(other.sealing)) {
      return {
        refuse: `Integrations' secrets are sealed here with a key ${generated(mine.sealing) ? 'generated into this DATA_DIR' : 'from INTEGRATIONS_SECRET_KEY'}, and ${who} seals them with another one${generated(other.sealing) ? ' it generated' : ''}: neither could open what the other sealed. Set the same INTEGRATIONS_SECRET_KEY on every process.`,
        warn: null,
      };
    }
    return {
      refuse: null,
      warn: `${who} seals integrations' secrets with another INTEGRATIONS_SECRET_KEY: list the older key in INTEGRATIONS_PREVIOUS_SECRET_KEYS on every process while it is being replaced.`,
    };
  }
  return { refuse: null, warn: null };
}

type Log = { info: (o: object, m: string) => void; warn: (o: object, m: string) => void };

export class ProcessRegistry {
  private left = false;

  private constructor(
    private readonly database: Database,
    readonly id: string,
    private readonly row: typeof serverProcesses.$inferInsert,
    private readonly log: Log,
  ) {}

  /**
   * Records this process, after checking it may run beside the live ones (throws ProcessConflictError
   * naming the other process and what to change). Null on PGlite.
   */
  static async join(database: Database, config: Config, log: Log): Promise<ProcessRegistry | null> {
    if (database.kind !== 'postgres') return null;
    const mine = identityOf(config);
    const id = randomUUID();
    const row = { id, host: hostname(), pid: process.pid, ...mine };
    const db = database.db;
    await database.exclusive(REGISTRY_LOCK, async () => {
      // rows of processes that stopped without leaving (killed) go after an hour
      await db.delete(serverProcesses).where(lt(serverProcesses.seenAt, sql`now() - interval '1 hour'`));
      const live = await db
        .select()
        .from(serverProcesses)
        .where(
          and(
            gt(serverProcesses.seenAt, sql`now() - make_interval(secs => ${LIVE_SECONDS})`),
            ne(serverProcesses.id, id),
          ),
        );
      const now = new Date();
      for (const other of live) {
        const { refuse, warn } = conflictWith(mine, other, now);
        if (refuse) throw new ProcessConflictError(refuse);
        if (warn) log.warn({ other: other.id }, warn);
      }
      await db.insert(serverProcesses).values(row);
      if (live.length) log.info({ processes: live.length + 1 }, 'joined the other Waymark processes');
    });
    // refreshed every HEARTBEAT_SECONDS by the process timer in server/jobs/jobs.ts
    return new ProcessRegistry(database, id, row, log);
  }

  /** Refreshes this process's row (puts it back if it was swept while the process was paused). */
  async beat(): Promise<void> {
    if (this.left) return;
    try {
      const seen = await this.database.db
        .update(serverProcesses)
        .set({ seenAt: sql`now()` })
        .where(eq(serverProcesses.id, this.id))
        .returning({ id: serverProcesses.id });
      if (!seen.length) await this.database.db.insert(serverProcesses).values(this.row);
    } catch (err) {
      this.log.warn({ err: (err as Error).message }, 'could not refresh this process in the registry');
    }
  }

  async leave(): Promise<void> {
    this.left = true;
    await this.database.db
      .delete(serverProcesses)
      .where(eq(serverProcesses.id, this.id))
      .catch(() => undefined);
  }
}
