/** Whether this process can serve: the database answers; with a read replica, whether reports read it. */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { Replica } from '../db/replica';
import { HttpError } from '../http/errors';

/** 503 when the database does not answer. */
export async function assertDatabase(db: Db) {
  try {
    await db.execute(sql`select 1`);
  } catch {
    throw new HttpError(503, 'The database is not reachable.');
  }
}

/**
 * The health answer: the primary answers (else 503), and — with DATABASE_REPLICA_URL set — the replica's
 * state as this process last checked it (in use, or why the reports read the primary instead; decision 035).
 * A replica that is down or lagging never makes the process unhealthy: its reads go to the primary.
 */
export async function healthOf(db: Db, replica: Replica | null) {
  await assertDatabase(db);
  const uptime = Math.round(process.uptime());
  return replica
    ? { status: 'ok' as const, uptime, replica: replica.status }
    : { status: 'ok' as const, uptime };
}
