/**
 * Answers and scoring: the answer key (server-side only), the saved answers in the API's shape, what an
 * evaluation reads and writes (one prepared statement each), and scoring with the shared rules
 * (shared/rules/scoring.ts: an MSQ is scored there, per option, decision 005). What an answer must be for its
 * question is rules.ts `normaliseAnswer`; saving one, autosave.ts.
 */
import { isMultiAnswer, isTextAnswer } from '@shared/rules/question-types';
import { scoreQuestion, summarise } from '@shared/rules/scoring';
import type { Answer, QuestionType } from '@shared/schemas/assessment';
import { and, asc, eq, getTableColumns, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { parsedJson, preparedPer } from '../../db/helpers';
import { questionOptions, questions } from '../../questions/tables';
import { type LinkRow, testAnswers, testLinkQuestions, testLinks } from '../tables';
import { forgetOlder } from './question-cache';
import type { StoredAnswer } from './rules';
import { isOpenSql, linkCols } from './rules-sql';
import { callerHolds, type SessionOf, sessionParams } from './session';

/** Saved answers in the API's shape: one id, a list for multi-select, the typed value for fill-in-blank. */
export async function savedAnswers(db: Db, testLinkRowId: string): Promise<(Answer & { points?: number })[]> {
  const rows = await db
    .select({
      questionId: testAnswers.questionId,
      answerIds: testAnswers.answerIds,
      answerText: testAnswers.answerText,
      points: testAnswers.points,
      type: questions.questionType,
    })
    .from(testAnswers)
    .innerJoin(questions, eq(questions.id, testAnswers.questionId))
    .innerJoin(
      testLinkQuestions,
      and(
        eq(testLinkQuestions.testLinkId, testAnswers.testLinkId),
        eq(testLinkQuestions.questionId, testAnswers.questionId),
      ),
    )
    .where(eq(testAnswers.testLinkId, testLinkRowId))
    .orderBy(asc(testLinkQuestions.position));
  return rows.map((r) => toApiAnswer(r));
}

function toApiAnswer(r: {
  questionId: string;
  answerIds: string[];
  answerText: string | null;
  points?: number | null;
  type: QuestionType;
}): Answer & { points?: number } {
  const out: Answer & { points?: number } = { questionId: r.questionId };
  if (isTextAnswer(r.type)) out.answer = r.answerText ?? '';
  else if (isMultiAnswer(r.type)) out.answerId = r.answerIds;
  else if (r.answerIds[0]) out.answerId = r.answerIds[0];
  if (r.points !== null && r.points !== undefined) out.points = Number(r.points);
  return out;
}

/** One saved answer as savedAnswersJson gives it. */
export interface SavedRow {
  questionId: string;
  answerIds: string[];
  answerText: string | null;
  type: QuestionType;
}

/**
 * A link's saved answers as one JSON array in question order, without points (the taker's view: the
 * start's statement and the Ready page read it beside the questions); `linkRowId` names the link's row id.
 */
export const savedAnswersJson = (linkRowId: SQL) => sql<SavedRow[] | string>`coalesce((
  select json_agg(json_build_object('questionId', a.question_id, 'answerIds', a.answer_ids,
      'answerText', a.answer_text, 'type', q.question_type) order by tlq.position)
  from ${testAnswers} a join ${questions} q on q.id = a.question_id
    join ${testLinkQuestions} tlq on tlq.test_link_id = a.test_link_id and tlq.question_id = a.question_id
  where a.test_link_id = ${linkRowId}), '[]'::json)`;

/** savedAnswersJson's rows in the API's shape. */
export const apiAnswersOf = (rows: SavedRow[] | string): Answer[] =>
  parsedJson(rows).map((r) => toApiAnswer(r));

/** A question of a link with what is needed to check and score answers. */
export interface KeyQuestion {
  id: string;
  /** The question's version (questions.version) when the key was read with it. */
  version?: number;
  type: QuestionType;
  points: number;
  roadmapId: string | null;
  options: { id: string; value: string; isCorrect: boolean; points: number }[];
}

/** A question's options with their correctness, in position order, as one JSON array. */
export const keyOptionsOf = (questionId: SQL) => sql<KeyQuestion['options'] | string>`coalesce((
  select json_agg(json_build_object('id', o.id, 'value', o.value, 'isCorrect', o.is_correct, 'points', o.points)
    order by o.position)
  from ${questionOptions} o where o.question_id = ${questionId}), '[]'::json)`;
const keyFields = {
  id: questions.id,
  type: questions.questionType,
  points: questions.points,
  roadmapId: testLinkQuestions.roadmapId,
  options: keyOptionsOf(sql`${questions.id}`),
};
const wholeKey = preparedPer((db) =>
  db
    .select(keyFields)
    .from(testLinkQuestions)
    .innerJoin(questions, eq(questions.id, testLinkQuestions.questionId))
    .where(eq(testLinkQuestions.testLinkId, sql.placeholder('link')))
    .orderBy(asc(testLinkQuestions.position))
    .prepare('test_link_answer_key'),
);
const oneQuestionKey = preparedPer((db) =>
  db
    .select(keyFields)
    .from(testLinkQuestions)
    .innerJoin(questions, eq(questions.id, testLinkQuestions.questionId))
    .where(
      and(
        eq(testLinkQuestions.testLinkId, sql.placeholder('link')),
        eq(testLinkQuestions.questionId, sql.placeholder('question')),
      ),
    )
    .prepare('test_link_answer_key_one'),
);

/** The answer key of a link (server-side only), in question order: one statement, prepared. */
export async function answerKey(
  db: Db,
  testLinkRowId: string,
  onlyQuestion?: string,
): Promise<KeyQuestion[]> {
  const rows = onlyQuestion
    ? await oneQuestionKey(db).execute({ link: testLinkRowId, question: onlyQuestion })
    : await wholeKey(db).execute({ link: testLinkRowId });
  return rows.map((r) => ({ ...r, options: parsedJson(r.options) }));
}

/**
 * A link's whole answer key as one JSON array in question order (keyFields' shape). The options are joined
 * and grouped once for the link rather than read by a subquery per question: measured on PostgreSQL, 0.42–0.55
 * against 0.81–0.83 ms for a key of 20 questions (bench/exam-day.ts, issue 15), the same JSON.
 */
const keyJson = (linkRowId: SQL) => sql<KeyQuestion[] | string>`coalesce((
  select json_agg(json_build_object('id', k.id, 'version', k.version, 'type', k.question_type,
      'points', k.points, 'roadmapId', k.roadmap_id, 'options', k.options) order by k.position)
  from (
    select q.id, q.version, q.question_type, q.points, tlq.roadmap_id, tlq.position,
      coalesce(json_agg(json_build_object('id', o.id, 'value', o.value, 'isCorrect', o.is_correct,
          'points', o.points) order by o.position) filter (where o.id is not null), '[]'::json) as options
    from ${testLinkQuestions} tlq join ${questions} q on q.id = tlq.question_id
      left join ${questionOptions} o on o.question_id = q.id
    where tlq.test_link_id = ${linkRowId}
    group by q.id, tlq.roadmap_id, tlq.position) k), '[]'::json)`;

/** What an evaluation reads of a link, as columns of a select from test_links: its answer key and the answers saved. */
const evaluationReadFields = () => ({
  // a select from one table names its columns without the table, so the subqueries use aliases
  key: keyJson(sql`${testLinks}.id`),
  saved: sql<StoredAnswer[] | string>`coalesce((
    select json_agg(json_build_object('questionId', a.question_id, 'answerIds', a.answer_ids,
        'answerText', a.answer_text))
    from ${testAnswers} a where a.test_link_id = ${testLinks}.id), '[]'::json)`,
});

/** What an evaluation reads, in one prepared statement: the link, its answer key and the answers saved. */
const evaluationRead = preparedPer((db) =>
  db
    .select({ link: testLinks, ...evaluationReadFields() })
    .from(testLinks)
    .where(and(eq(testLinks.linkId, sql.placeholder('linkId')), callerHolds()))
    .limit(1)
    .prepare('test_link_evaluation_read'),
);

/**
 * Upserts given answers with their points (the placeholders `given`, scoredRows' JSON, and `answeredAt`) for
 * the link `linkRowId`, when `condition` (a WHERE clause, or a FROM item and its WHERE) lets them through:
 * the answers part of both evaluation writes (evaluationWrite, evaluation.ts evaluationInOne).
 */
export const upsertScoredAnswers = (linkRowId: SQL, condition: SQL) => sql`
    insert into ${testAnswers} (test_link_id, question_id, answer_ids, answer_text, answered_at, points)
    select ${linkRowId}, g.question_id, g.answer_ids, g.answer_text, ${sql.placeholder('answeredAt')}::timestamptz, g.points
    from json_to_recordset(${sql.placeholder('given')}::json)
      as g(question_id uuid, answer_ids uuid[], answer_text text, points numeric)
    ${condition}
    on conflict (test_link_id, question_id) do update set
      answer_ids = excluded.answer_ids, answer_text = excluded.answer_text,
      answered_at = excluded.answered_at, points = excluded.points`;

/** Given answers with the points each scored, as upsertScoredAnswers takes them (its `given`, as JSON). */
export const scoredRows = (fresh: Iterable<StoredAnswer>, scored: Scored) => {
  const pointsOf = new Map(scored.perQuestion.map((q) => [q.questionId, q.points]));
  return [...fresh].map((r) => ({
    question_id: r.questionId,
    answer_ids: r.answerIds,
    answer_text: r.answerText,
    points: pointsOf.get(r.questionId) ?? 0,
  }));
};

/**
 * What an evaluation writes, in one prepared statement: the link's result, the given answers stored with
 * their points and the points of the answers saved before — only while the link is still open, so of two
 * evaluations at once the first writes and the other finds the link completed.
 */
export const evaluationWrite = preparedPer((db) => {
  const p = (name: string) => sql.placeholder(name);
  const done = db.$with('done', getTableColumns(testLinks)).as(sql`
    update ${testLinks} set
      is_completed = true, score = ${p('score')}, percentage = ${p('percentage')},
      question_count = ${p('questionCount')}, status = ${p('status')},
      completed_at = ${p('completedAt')}::timestamptz, completed_in = ${p('completedIn')}
    where id = ${p('id')}::uuid and ${isOpenSql(linkCols('test_links'))}
    returning *`);
  const given = db
    .$with('given', {})
    .as(upsertScoredAnswers(sql`${p('id')}::uuid`, sql`where exists (select 1 from done)`));
  const kept = db.$with('kept', {}).as(sql`
    update ${testAnswers} a set points = k.points
    from json_to_recordset(${p('kept')}::json) as k(question_id uuid, points numeric)
    where a.test_link_id = ${p('id')}::uuid and a.question_id = k.question_id
      and exists (select 1 from done)`);
  return db.with(done, given, kept).select().from(done).prepare('test_link_evaluation_write');
});

export interface EvaluationState {
  link: LinkRow;
  key: KeyQuestion[];
  stored: Map<string, StoredAnswer>;
}

/**
 * A link by its public id with what evaluating it needs (its answer key and saved answers), or null — also
 * when the caller's session does not hold (callerHolds; null: no caller, nothing to check).
 */
export async function readForEvaluation(
  db: Db,
  linkId: string,
  caller: SessionOf | null,
): Promise<EvaluationState | null> {
  const [row] = await evaluationRead(db).execute({ linkId, ...sessionParams(caller) });
  return row ? evaluationStateOf(db, row) : null;
}

/** The state of an evaluation from what evaluationReadFields read beside the link. */
function evaluationStateOf(
  db: Db,
  row: { link: LinkRow; key: KeyQuestion[] | string; saved: StoredAnswer[] | string },
): EvaluationState {
  const saved = parsedJson(row.saved);
  const key = parsedJson(row.key);
  // what this process holds of a question edited since is read again when next used (evaluateNow)
  forgetOlder(db, key);
  return { link: row.link, key, stored: new Map(saved.map((a) => [a.questionId, a])) };
}

// ---------------------------------------------------------------- scoring

export interface QuestionResult {
  questionId: string;
  roadmapId: string | null;
  points: number;
  answered: boolean;
}

export interface Scored {
  perQuestion: QuestionResult[];
  score: number;
  percentage: number;
  questionCount: number;
  eligible: boolean;
}

/** Scores stored answers against the key with the shared rules (shared/rules/scoring.ts). */
export function scoreAnswers(
  key: readonly KeyQuestion[],
  answers: ReadonlyMap<string, StoredAnswer>,
): Scored {
  const perQuestion = key.map((q) => {
    const a = answers.get(q.id);
    return {
      questionId: q.id,
      roadmapId: q.roadmapId,
      answered: Boolean(a && (a.answerIds.length > 0 || (a.answerText ?? '') !== '')),
      points: a ? scoreQuestion(q, a) : 0,
    };
  });
  const summary = summarise(
    perQuestion.map((p) => p.points),
    key.length,
  );
  return { perQuestion, ...summary };
}
