/**
 * Deletes accounts whose deletion was requested more than the grace period ago (90 days), with their data
 * (every table that belongs to a user references it with ON DELETE CASCADE) and their identity account.
 */
import { and, eq, lt } from 'drizzle-orm';
import type { IdentityAdapter } from '../adapters/identity';
import type { Db } from '../db/client';
import { users } from '../db/schema';

export async function purgeDeletedAccounts(
  db: Db,
  identity: IdentityAdapter,
  graceDays: number,
  log: { info: (o: object, m: string) => void; warn: (o: object, m: string) => void },
  now = new Date(),
): Promise<number> {
  const cutoff = new Date(now.getTime() - graceDays * 86400_000);
  const due = await db
    .select({ id: users.id, firebaseUid: users.firebaseUid })
    .from(users)
    .where(and(eq(users.isDeleted, true), lt(users.deletionRequestedAt, cutoff)))
    .limit(500);
  for (const user of due) {
    await db.delete(users).where(and(eq(users.id, user.id), eq(users.isDeleted, true)));
    try {
      const removed = await identity.deleteAccount(user.firebaseUid);
      if (!removed)
        log.warn({ userId: user.id }, 'identity account left in place: this adapter cannot delete accounts');
    } catch (err) {
      log.warn({ userId: user.id, err: (err as Error).message }, 'identity account could not be deleted');
    }
  }
  if (due.length) log.info({ count: due.length }, 'deleted accounts past their grace period');
  return due.length;
}
