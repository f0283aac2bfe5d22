/**
 * An answer saved as it is given (the autosave of every answer): in one statement when the link accepts it
 * now (saveAnswerNow), else the long way — the link and the answered question's key in one read
 * (findLinkWithQuestion), the errors that apply, then the upsert (saveAnswer).
 */
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { parsedJson, preparedPer } from '../../db/helpers';
import { badRequest } from '../../http/errors';
import { questionOptions, questions } from '../../questions/tables';
import { type LinkRow, testAnswers, testLinkQuestions, testLinks } from '../tables';
import { answerKey, type KeyQuestion, keyOptionsOf } from './answers';
import { holderHolds } from './attempt';
import { answerForms, type GivenAnswer, normaliseAnswer } from './rules';
import { acceptsAnswersSql, answerAcceptedSql, linkCols, storedIdsSql, storedTextSql } from './rules-sql';
import { type SessionOf, sessionParams, takerHolds } from './session';

/** Saves one answer as it is given: a prepared statement (the long way's). */
const upsertOneAnswer = preparedPer((db) =>
  db
    .insert(testAnswers)
    .values({
      testLinkId: sql.placeholder('link'),
      questionId: sql.placeholder('question'),
      answerIds: sql`${sql.placeholder('ids')}::uuid[]`,
      answerText: sql.placeholder('text'),
      answeredAt: sql`${sql.placeholder('at')}::timestamptz`,
    })
    .onConflictDoUpdate({
      target: [testAnswers.testLinkId, testAnswers.questionId],
      set: {
        answerIds: sql`excluded.answer_ids`,
        answerText: sql`excluded.answer_text`,
        answeredAt: sql`excluded.answered_at`,
      },
    })
    .prepare('test_answer_upsert'),
);

/** Saves one answer as it is given (validated against the frozen question). */
export async function saveAnswer(
  db: Db,
  link: LinkRow,
  answer: GivenAnswer,
  /** The question's key when already read (findLinkWithQuestion); null when it is not of this link. */
  key?: KeyQuestion | null,
) {
  const q = key !== undefined ? key : (await answerKey(db, link.id, answer.questionId))[0];
  if (!q) throw badRequest('questionId: is not a question of this test', 'questionId');
  const row = normaliseAnswer(q, answer);
  await upsertOneAnswer(db).execute({
    link: link.id,
    question: row.questionId,
    ids: row.answerIds,
    text: row.answerText,
    at: new Date().toISOString(),
  });
}

/**
 * An autosave in one statement: the answer is upserted only when the link accepts answers now
 * (acceptsAnswers), the caller may use it (takerHolds: assertTaker and authenticate), the request carries
 * the attempt's token (holds), the question is one of the link's, and normaliseAnswer accepts the answer
 * for the question's type — the row stored is the one normaliseAnswer gives (rules-sql.ts). Anything else
 * writes nothing and gives no row: the caller then takes the long way, which says why.
 */
const saveWhenOpen = preparedPer((db) => {
  const p = (name: string) => sql.placeholder(name);
  const forms = {
    multi: sql`${p('multi')}::uuid[]`,
    single: sql`${p('single')}::uuid`,
    text: sql`${p('text')}::text`,
  };
  const type = sql`k.type`;
  const saved = db.$with('saved', { questionId: testAnswers.questionId }).as(sql`
    insert into ${testAnswers} (test_link_id, question_id, answer_ids, answer_text, answered_at)
    select k.link_row, k.question_id, ${storedIdsSql(type, forms)}, ${storedTextSql(type, forms)},
      ${p('at')}::timestamptz
    from (
      select l.id as link_row, q.id as question_id, q.question_type as type,
        array(select o.id from ${questionOptions} o where o.question_id = q.id) as options
      from ${testLinks} l
        join ${testLinkQuestions} tlq on tlq.test_link_id = l.id and tlq.question_id = ${p('question')}::uuid
        join ${questions} q on q.id = tlq.question_id
      where l.link_id = ${p('linkId')}
        and ${acceptsAnswersSql(linkCols('l'), sql`${p('now')}::timestamptz`)}
        and ${takerHolds(sql`l.user_id`)}
        and ${holderHolds('l')}
    ) k
    where ${answerAcceptedSql(type, sql`k.options`, forms)}
    on conflict (test_link_id, question_id) do update set
      answer_ids = excluded.answer_ids, answer_text = excluded.answer_text, answered_at = excluded.answered_at
    returning question_id`);
  return db
    .with(saved)
    .select({ saved: sql<number>`count(*)::int` })
    .from(saved)
    .prepare('test_answer_save_when_open');
});

/**
 * Saves an answer in one statement when the link accepts it now (saveWhenOpen); false when it wrote nothing
 * (the caller then takes the long way: the error, or a case this statement leaves to it).
 */
export async function saveAnswerNow(
  db: Db,
  linkId: string,
  caller: SessionOf | null,
  /** The hash of the request's attempt token, or null without one. */
  holder: string | null,
  answer: GivenAnswer,
  now: Date,
): Promise<boolean> {
  const { multi, single, text } = answerForms(answer);
  const [row] = await saveWhenOpen(db).execute({
    linkId,
    question: answer.questionId,
    holder,
    ...sessionParams(caller),
    now: now.toISOString(),
    multi,
    single,
    text,
    at: new Date().toISOString(),
  });
  return (row?.saved ?? 0) > 0;
}

/** A link by its public id with the answer key of one of its questions (null when not one of them). */
const linkWithQuestion = preparedPer((db) =>
  db
    .select({
      link: testLinks,
      // a select from one table names its columns without the table, so the subquery uses aliases
      question: sql<KeyQuestion | string | null>`(
        select json_build_object('id', q.id, 'type', q.question_type, 'points', q.points,
          'roadmapId', tlq.roadmap_id, 'options', ${keyOptionsOf(sql`q.id`)})
        from ${testLinkQuestions} tlq join ${questions} q on q.id = tlq.question_id
        where tlq.test_link_id = ${testLinks}.id and tlq.question_id = ${sql.placeholder('question')})`,
    })
    .from(testLinks)
    .where(eq(testLinks.linkId, sql.placeholder('linkId')))
    .limit(1)
    .prepare('test_link_with_question'),
);

/** What saving an answer reads, in one prepared statement: the link and the answered question's key. */
export async function findLinkWithQuestion(
  db: Db,
  linkId: string,
  questionId: string,
): Promise<{ link: LinkRow; question: KeyQuestion | null } | null> {
  const [row] = await linkWithQuestion(db).execute({ linkId, question: questionId });
  if (!row) return null;
  const question = row.question === null ? null : parsedJson(row.question);
  return { link: row.link, question };
}
