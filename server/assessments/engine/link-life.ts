/**
 * The assessment engine, part three — a link's life on the server's clock: finding a link, settling it when
 * its time is past (evaluated when overdue, expired when unused), retakes and their cool-down, and the
 * periodic sweep. The rules themselves are ./rules.ts (and ./rules-sql.ts for the statements); the start is
 * ./start.ts, an answer saved ./autosave.ts, the evaluation ./evaluation.ts, the taker's view ./view.ts.
 */
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { preparedPer } from '../../db/helpers';
import { type LinkRow, testLinks } from '../tables';
import { evaluateLink, type Hooks } from './evaluation';
import { isOverdue, isUnusedPast, retakeApplies, retakeCooldown } from './rules';
import { failureHoldsSql, isOverdueSql, isUnusedPastSql, linkCols } from './rules-sql';

/** test_links' columns in a statement of the query builder, which names the table itself. */
const table = () => linkCols('test_links');
const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;

const linkByLinkId = preparedPer((db) =>
  db
    .select()
    .from(testLinks)
    .where(eq(testLinks.linkId, sql.placeholder('linkId')))
    .limit(1)
    .prepare('test_link_by_link_id'),
);

/** A link by its public id (a prepared statement: every test call starts here). */
export async function findLink(db: Db, linkId: string): Promise<LinkRow | null> {
  const [row] = await linkByLinkId(db).execute({ linkId });
  return row ?? null;
}

/**
 * Brings a link up to date with the clock: a started link past its deadline is evaluated with the answers
 * it has; an unused link past its expiry becomes EXPIRED. Returns the current row.
 */
export async function settle(db: Db, link: LinkRow, now: Date, hooks: Hooks = {}): Promise<LinkRow> {
  if (isOverdue(link, now)) return (await evaluateLink(db, link, [], now, hooks)).link;
  if (isUnusedPast(link, now)) {
    const [row] = await db
      .update(testLinks)
      .set({ status: 'EXPIRED' })
      .where(and(eq(testLinks.id, link.id), isUnusedPastSql(table(), at(now))))
      .returning();
    return row ?? (await findLink(db, link.linkId)) ?? link;
  }
  return link;
}

// ---------------------------------------------------------------- retakes

/**
 * The latest failure of a learner's test that still holds a retake back (completed after `since`), other
 * than `except`; null when none. One indexed read (test_links_user_test_idx).
 */
export async function failureSince(
  db: Db,
  userId: string,
  testKey: string,
  since: Date,
  except?: string,
): Promise<Date | null> {
  const of = {
    id: sql`${except ?? null}::uuid`,
    userId: sql`${userId}::uuid`,
    testKey: sql`${testKey}::text`,
  };
  const [row] = await db
    .select({ at: testLinks.completedAt })
    .from(testLinks)
    .where(failureHoldsSql(table(), of, at(since)))
    .orderBy(desc(testLinks.completedAt))
    .limit(1);
  return row?.at ?? null;
}

/**
 * Refuses to start a link while a failure of the same test is in its cool-down (a second link of the test
 * drawn before that failure — one an older version could leave behind — must not be the retake).
 */
export async function assertRetakeOpen(db: Db, link: LinkRow, now: Date, cooldownMs: number) {
  if (!retakeApplies(link, cooldownMs)) return;
  const since = new Date(now.getTime() - cooldownMs);
  const failed = await failureSince(db, link.userId!, link.testKey!, since, link.id);
  if (failed) throw retakeCooldown(new Date(failed.getTime() + cooldownMs), now);
}

/** Serialises the creation of a learner's links to one test, across server processes (until commit). */
export async function lockTest(db: Db, userId: string, testKey: string) {
  await db.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${`test-link|${userId}|${testKey}`}, 0))`,
  );
}

// ---------------------------------------------------------------- the sweep

/**
 * The periodic sweep: evaluates started links whose deadline has passed and expires unused links past
 * their expiry. Returns how many of each it handled.
 */
export async function sweepLinks(
  db: Db,
  now: Date,
  hooks: Hooks = {},
  batch = 200,
): Promise<{ evaluated: number; expired: number }> {
  // isOverdue, through test_links_due_idx (the deadline compared bare)
  const overdue = await db
    .select()
    .from(testLinks)
    .where(isOverdueSql(table(), at(now)))
    .limit(batch);
  let evaluated = 0;
  for (const link of overdue) {
    await evaluateLink(db, link, [], now, hooks);
    evaluated++;
  }
  const expiredRows = await db
    .update(testLinks)
    .set({ status: 'EXPIRED' })
    .where(
      and(
        // a link's expiry is never later than its window's end (the share sets both; migration 0016), so
        // expires_at alone finds what isUnusedPast does, through test_links_unused_idx
        sql`${testLinks.expiresAt} < ${at(now)}`,
        isUnusedPastSql(table(), at(now)),
      ),
    )
    .returning({ id: testLinks.id });
  return { evaluated, expired: expiredRows.length };
}
