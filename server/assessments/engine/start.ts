/**
 * Starting a test: the clock starts once (the deadline on the server's clock, rules.ts deadlineFor), the
 * attempt is numbered among the learner's started attempts of the same test, and bound to the hash of the
 * starting browser's attempt token (decision 031). The common case — a link that may simply start now — is
 * one statement that also reads the taker's view (startNow); anything else takes the long way (startLink,
 * after the checks that say why a link cannot start).
 */
import { and, eq, getTableColumns, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { preparedPer } from '../../db/helpers';
import { type LinkRow, testLinks } from '../tables';
import { findLink } from './link-life';
import { deadlineFor } from './rules';
import { attemptNumberSql, deadlineSql, isOpenSql, linkCols, mayStartSql, retakeHeldSql } from './rules-sql';
import { type SessionOf, sessionParams, takerHolds } from './session';
import { linkColumnsOf, type TakerView, takerViewFields, viewOf } from './view';

/**
 * Starts the clock (idempotent) once the long way has checked the link may start. A link started already is
 * given back as it is (whoever holds it).
 */
export async function startLink(db: Db, link: LinkRow, now: Date, holder: string): Promise<LinkRow> {
  if (link.startedAt) return link;
  const [row] = await db
    .update(testLinks)
    .set({
      startedAt: now,
      deadlineAt: deadlineFor(link, now),
      attemptTokenHash: holder,
      // the outer row named by its table, never by a bare column the subquery shadows
      attempt: attemptNumberSql(linkCols('test_links')),
    })
    .where(and(eq(testLinks.id, link.id), isNull(testLinks.startedAt)))
    .returning();
  return row ?? (await findLink(db, link.linkId)) ?? link;
}

/**
 * Moves a started attempt to another browser's token (the learner's own takeover, decision 031): from now
 * on only that browser's writes are accepted. Null when the attempt is no longer open (ended meanwhile).
 */
export async function moveAttempt(db: Db, link: LinkRow, holder: string): Promise<LinkRow | null> {
  const [row] = await db
    .update(testLinks)
    .set({ attemptTokenHash: holder })
    .where(and(eq(testLinks.id, link.id), isNotNull(testLinks.startedAt), isOpenSql(linkCols('test_links'))))
    .returning();
  return row ?? null;
}

/**
 * The start of a link that may start now, in one statement: startLink's UPDATE under the rules the long way
 * checks — mayStart (open, timed, not started, its window open, not past its expiry: settle and
 * assertTakeable), the caller its learner with a session that holds (assertTaker, authenticate), and no
 * failure of the same test in its cool-down (assertRetakeOpen) — returning the started row with its taker's
 * view. A link any rule stops gives no row: the caller then takes the long way, which says why (or, for a
 * started link, gives it back as it is).
 */
const startWithView = preparedPer((db) => {
  const p = (name: string) => sql.placeholder(name);
  const now = sql`${p('now')}::timestamptz`;
  const t = linkCols('t');
  const started = db.$with('started', getTableColumns(testLinks)).as(sql`
    update ${testLinks} t set
      started_at = ${now},
      -- the hash of the starting browser's attempt token: its writes, and only its, are the attempt's
      attempt_token_hash = ${p('holder')}::text,
      deadline_at = ${deadlineSql(t, now)},
      attempt = ${attemptNumberSql(t)}
    where t.link_id = ${p('linkId')}
      and ${mayStartSql(t, now)}
      and ${takerHolds(t.userId)}
      and not ${retakeHeldSql(t, now, sql`${p('cooldownMs')}::bigint`)}
    returning t.*`);
  return db
    .with(started)
    .select({
      link: linkColumnsOf(started as unknown as Record<string, unknown>),
      // started by this statement: no answer saved yet
      ...takerViewFields(sql`"started"."id"`, sql`"started"."subject_id"`, null),
    })
    .from(started)
    .prepare('test_link_start_with_view');
});

/**
 * Starts a link that may start now and reads its taker's view, in one statement; null when the link is
 * not one that may simply start (see startWithView): the caller then takes the long way.
 */
export async function startNow(
  db: Db,
  linkId: string,
  caller: SessionOf | null,
  /** The hash of the starting browser's attempt token (attempt.ts attemptTokenHash). */
  holder: string,
  now: Date,
  cooldownMs: number,
): Promise<{ link: LinkRow; view: TakerView } | null> {
  const [row] = await startWithView(db).execute({
    linkId,
    holder,
    now: now.toISOString(),
    ...sessionParams(caller),
    cooldownMs: Math.max(0, Math.round(cooldownMs)),
  });
  return row ? { link: row.link as LinkRow, view: await viewOf(db, row) } : null;
}
