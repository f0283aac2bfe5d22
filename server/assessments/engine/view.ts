/**
 * The taker's view of a link: what the test page shows (its questions without correctness data, the answers
 * saved so far, its subject's name), read as columns of the statement that reads or starts the link. The
 * questions come as references with their versions (frozenRefsJson): their text and options from what the
 * process holds at that version (question-cache.ts), read only when it holds an older one or none.
 */
import { and, eq, getTableColumns, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { parsedJson, preparedPer } from '../../db/helpers';
import { type LinkRow, testLinks } from '../tables';
import { apiAnswersOf, type SavedRow, savedAnswersJson } from './answers';
import { type FrozenRef, frozenRefsJson, takerQuestionsFrom } from './drawing';
import { questionsAt } from './question-cache';
import { callerHolds, type SessionOf, sessionParams } from './session';

/**
 * The view's columns, for the link whose row id and subject id these expressions name. `startedAt`: the
 * link's start as the statement reads it — a link never started has no saved answer to show (an autosave
 * needs a started attempt, rules.ts acceptsAnswers; an untimed link evaluated without a start is completed,
 * and a completed link has no Ready page: assertTakeable), so its Ready page does not look for any; null: a
 * link this statement has just started, which has none either.
 */
export const takerViewFields = (linkRowId: SQL, subjectId: SQL, startedAt: SQL | null) => ({
  frozen: frozenRefsJson(linkRowId),
  answers:
    startedAt === null
      ? sql<SavedRow[] | string>`'[]'::json`
      : sql<
          SavedRow[] | string
        >`case when ${startedAt} is null then '[]'::json else ${savedAnswersJson(linkRowId)} end`,
  subjectName: sql<string | null>`(select s.name from subjects s where s.id = ${subjectId})`,
});

export interface TakerView {
  questions: ReturnType<typeof takerQuestionsFrom>;
  answers: ReturnType<typeof apiAnswersOf>;
  subjectName: string | null;
}

/** The view from what takerViewFields read. */
export async function viewOf(
  db: Db,
  row: { frozen: FrozenRef[] | string; answers: SavedRow[] | string; subjectName: string | null },
): Promise<TakerView> {
  const refs = parsedJson(row.frozen);
  return {
    questions: takerQuestionsFrom(refs, await questionsAt(db, refs)),
    answers: apiAnswersOf(row.answers),
    subjectName: row.subjectName,
  };
}

/** The columns of a link row, taken from a CTE or subquery of test_links' shape (drizzle maps them back). */
export const linkColumnsOf = <T extends Record<string, unknown>>(from: T) =>
  Object.fromEntries(Object.keys(getTableColumns(testLinks)).map((k) => [k, from[k]])) as {
    [K in keyof typeof testLinks._.columns]: (typeof testLinks._.columns)[K];
  };

const viewById = preparedPer((db) =>
  db
    .select(takerViewFields(sql`${testLinks.id}`, sql`${testLinks.subjectId}`, sql`${testLinks.startedAt}`))
    .from(testLinks)
    .where(eq(testLinks.id, sql.placeholder('id')))
    .prepare('test_link_taker_view'),
);

/** The taker's view of a link (by its row id) in one prepared statement. */
export async function takerView(db: Db, link: Pick<LinkRow, 'id'>): Promise<TakerView> {
  const [row] = await viewById(db).execute({ id: link.id });
  return row ? viewOf(db, row) : { questions: [], answers: [], subjectName: null };
}

const linkWithView = preparedPer((db) =>
  db
    .select({
      link: testLinks,
      ...takerViewFields(sql`${testLinks.id}`, sql`${testLinks.subjectId}`, sql`${testLinks.startedAt}`),
    })
    .from(testLinks)
    .where(and(eq(testLinks.linkId, sql.placeholder('linkId')), callerHolds()))
    .limit(1)
    .prepare('test_link_with_taker_view'),
);

/**
 * A link by its public id with its taker's view, in one prepared statement (the Ready page, a resume); null
 * also when the caller's session does not hold (callerHolds).
 */
export async function findLinkWithView(
  db: Db,
  linkId: string,
  caller: SessionOf | null,
): Promise<{ link: LinkRow; view: TakerView } | null> {
  const [row] = await linkWithView(db).execute({ linkId, ...sessionParams(caller) });
  return row ? { link: row.link, view: await viewOf(db, row) } : null;
}
