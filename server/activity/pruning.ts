/** Pruning the raw heartbeats the rollups no longer need (a daily job, server/jobs/jobs.ts). */
import { MAX_HEARTBEAT_AGE_MS } from '@shared/rules/heartbeats';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rowsOf } from '../db/helpers';

const DAY = 86_400;

/**
 * Deletes raw heartbeats (and erasures) older than the oldest a batch may carry (plus a day): they are needed only to fold
 * in late ones, the rollups keep the time. A daily job (server/jobs/jobs.ts).
 */
export async function pruneHeartbeats(db: Db, now = Date.now()): Promise<number> {
  const cutoff = now - MAX_HEARTBEAT_AGE_MS - DAY * 1000;
  const rows = rowsOf<{ n: string | number }>(
    await db.execute(sql`
      with gone as (
        delete from activity_heartbeats where ctid in (
          select ctid from activity_heartbeats where at < ${cutoff} limit 50000
        ) returning 1
      ) select count(*) as n from gone`),
  );
  // an erased stretch needs keeping only while heartbeats for it may still arrive
  await db.execute(sql`delete from activity_erasures where end_at < ${cutoff}`);
  return Number(rows[0]?.n ?? 0);
}
