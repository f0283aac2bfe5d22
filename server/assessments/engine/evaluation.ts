/**
 * The evaluation of a link on the server: the answers given merged over the saved ones, every question
 * scored with the shared rules (answers.ts), the result written once. The whole answer sheet of a test in
 * progress is scored from the questions this process holds and written in one statement (evaluateNow);
 * anything else — a partial sheet, a late, completed or expired link, an edited question — the long way
 * (evaluateLink), which is also what the sweep and settle run for an overdue link.
 */
import { statusAfterEvaluation } from '@shared/rules/scoring';
import type { TestType } from '@shared/schemas/assessment';
import { getTableColumns, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { inTx, preparedPer } from '../../db/helpers';
import { badRequest, HttpError, notFound } from '../../http/errors';
import { questions } from '../../questions/tables';
import { type LinkRow, testLinkQuestions, testLinks } from '../tables';
import {
  type EvaluationState,
  evaluationWrite,
  type KeyQuestion,
  readForEvaluation,
  type Scored,
  scoreAnswers,
  scoredRows,
  upsertScoredAnswers,
} from './answers';
import { holderHolds } from './attempt';
import { type HeldQuestion, heldQuestion, readQuestions } from './question-cache';
import {
  type GivenAnswer,
  isTimed,
  linkExpired,
  normaliseAnswer,
  notStarted,
  pastGrace,
  type StoredAnswer,
  secondsTaken,
} from './rules';
import { acceptsAnswersSql, isOpenSql, isTimedSql, linkCols, secondsTakenSql } from './rules-sql';
import { type SessionOf, sessionParams, takerHolds } from './session';

export interface Hooks {
  /** Runs inside the evaluating transaction when a link earns its award (e.g. completes the roadmap). */
  onEarned?: (db: Db, link: LinkRow) => Promise<void>;
  /** The links onEarned concerns (all when absent); the others are evaluated without a transaction. */
  earns?: (link: LinkRow) => boolean;
  /**
   * The types of link `earns` may be true for (all when absent): an evaluation in one statement
   * (evaluateNow) leaves an earning link of these types to evaluateLink, whose transaction runs onEarned.
   */
  earnsTypes?: readonly TestType[];
  /**
   * What onEarned does, as a part the one-statement evaluation (evaluateNow) can carry, so that an earning link
   * of earnsTypes need not take the long way: a data-modifying statement over `done`, a table expression of the
   * link as just evaluated (its columns, one row) when the sheet earns its award and no row when it does not.
   * It must do to those links exactly what onEarned does. `name` tells its prepared statement apart.
   */
  inStatement?: { name: string; earned: (done: SQL) => SQL };
}

export interface Evaluation {
  link: LinkRow;
  scored: Scored;
}

/**
 * What the one-statement evaluation gives back of the link: what the route answers with and what deciding
 * on an award needs (the credential service reads the rest when it issues one, after the answer). Its
 * columns only: PostgreSQL formats, and the driver describes and parses, these five instead of thirty.
 */
export type EvaluatedLink = Pick<LinkRow, 'id' | 'linkId' | 'type' | 'status' | 'isCompleted'>;

/**
 * Evaluates a link on the server: the given answers (validated; refused after the deadline) are merged over
 * the saved ones and stored, every question is scored with the shared rules, and the link records its
 * score, percentage, status and time taken. Idempotent: a completed link gives back its stored result.
 *
 * Two statements, both prepared: one read (the link, its key and saved answers) and one write that applies
 * only while the link is still open. Two evaluations at once: the first writes, the second finds nothing to
 * write, reads again and gives back the first's result. A transaction is opened only when a hook takes part.
 */
export async function evaluateLink(
  db: Db,
  link: LinkRow,
  given: readonly GivenAnswer[],
  now: Date,
  hooks: Hooks = {},
  /** `read`: readForEvaluation's answer for this link, when the caller has just read it. */
  { read, attempt = 1 }: { read?: EvaluationState; attempt?: number } = {},
): Promise<Evaluation> {
  const state = read && read.link.id === link.id ? read : await readForEvaluation(db, link.linkId, null);
  if (!state) throw notFound('errors.testLinkNotFound');
  const { link: current, key, stored } = state;
  if (current.isCompleted) return { link: current, scored: scoreAnswers(key, stored) };
  if (current.status === 'EXPIRED') throw linkExpired();
  if (isTimed(current.type) && !current.startedAt) throw notStarted();
  const late = isTimed(current.type) && pastGrace(current, now);
  // the given answers, validated (nothing is written when one is wrong); the last to a question wins
  const fresh = new Map<string, StoredAnswer>();
  if (!late && given.length) {
    const byId = new Map(key.map((q) => [q.id, q]));
    given.forEach((a, i) => {
      const q = byId.get(a.questionId);
      if (!q) {
        throw badRequest(
          `answers.${i}.questionId: is not a question of this test`,
          `answers.${i}.questionId`,
        );
      }
      const row = normaliseAnswer(q, a, `answers.${i}.`);
      fresh.delete(row.questionId);
      fresh.set(row.questionId, row);
    });
  }
  const scored = scoreAnswers(key, new Map([...stored, ...fresh]));
  const pointsOf = new Map(scored.perQuestion.map((p) => [p.questionId, p.points]));
  const completedAt =
    late && current.deadlineAt ? new Date(Math.min(now.getTime(), current.deadlineAt.getTime())) : now;
  const completedIn = secondsTaken(current, completedAt);
  const givenRows = scoredRows(fresh.values(), scored);
  const keptRows = [...stored.keys()]
    .filter((id) => !fresh.has(id) && pointsOf.has(id))
    .map((id) => ({ question_id: id, points: pointsOf.get(id)! }));
  // One statement: the link's result, the given answers stored with their points and the points of the
  // answers saved before — only while the link is still open, so of two evaluations at once the first
  // writes and the other gives back its stored result.
  const write = async (on: Db): Promise<LinkRow | null> => {
    const [row] = await evaluationWrite(on).execute({
      id: current.id,
      score: scored.score,
      percentage: scored.percentage,
      questionCount: key.length,
      status: statusAfterEvaluation(scored.eligible, current.certificateGenerated),
      completedAt: completedAt.toISOString(),
      completedIn,
      answeredAt: new Date().toISOString(),
      given: JSON.stringify(givenRows),
      kept: JSON.stringify(keptRows),
    });
    return row ?? null;
  };
  const onEarned = scored.eligible && (!hooks.earns || hooks.earns(current)) ? hooks.onEarned : undefined;
  const done = onEarned
    ? await inTx(db, async (tx) => {
        // what the award changes elsewhere commits with the result, or neither does
        const row = await write(tx);
        if (row) await onEarned(tx, row);
        return row;
      })
    : await write(db);
  if (done) return { link: done, scored };
  // the link changed since it was read (evaluated at the same moment): as it is now
  if (attempt >= 3) throw new HttpError(409, 'This test is being evaluated. Please try again.');
  return evaluateLink(db, link, given, now, hooks, { attempt: attempt + 1 });
}

/**
 * An evaluation in one round trip. The common case — a test in progress, in time, submitted with an answer to
 * every one of its questions (the test page sends its whole answer sheet) — is scored here from the questions
 * this process holds (question-cache.ts) and written by the statement only when it finds everything as
 * assumed: the link open, started and within its deadline and grace, the caller its learner with a session
 * that holds (takerHolds), the request carrying the attempt's token (holderHolds), the answers' questions
 * exactly the link's, and every question still at the version scored against. (No answer can be saved to
 * another question: test_answers' key is a foreign key to the link's questions, migration 0014.) What it
 * writes is evaluateLink's for the same link and answers: the same score, points stored, status
 * (statusAfterEvaluation, the award image's column choosing), completion time (the seconds since the start,
 * rounded as evaluateLink rounds them, within the time limit); it gives back the few columns of the link as
 * written that the route answers with (EvaluatedLink). Anything else — a link that is late, completed,
 * expired or not the caller's, a request without the attempt's token, a question edited meanwhile, an award
 * whose hook must run (Hooks.earnsTypes) — writes nothing and gives no row: the caller then reads what the
 * long way needs (readForEvaluation), which is rare enough to cost its own round trip; the statement the
 * common case runs carries no part of that read, nor of its plan.
 */
/** The statement for a sheet: with the hook's part only when the sheet earns (no hook runs otherwise). */
const evaluationInOne = (db: Db, hooks: Hooks, eligible: boolean) =>
  (eligible && hooks.inStatement ? evaluationInOneWith(hooks.inStatement) : evaluationWithoutHook)(db);

const evaluationWithoutHook = preparedPer((db) => evaluationStatement(db, undefined));
/** The statement with an onEarned part, one per part (a module's constant hooks: a few in all). */
const withHook = new WeakMap<
  NonNullable<Hooks['inStatement']>,
  (db: Db) => ReturnType<typeof evaluationStatement>
>();
function evaluationInOneWith(part: NonNullable<Hooks['inStatement']>) {
  let statement = withHook.get(part);
  if (!statement) {
    statement = preparedPer((db) => evaluationStatement(db, part));
    withHook.set(part, statement);
  }
  return statement;
}

function evaluationStatement(db: Db, part: Hooks['inStatement']) {
  const p = (name: string) => sql.placeholder(name);
  const now = sql`${p('now')}::timestamptz`;
  const t = linkCols('t');
  const open = db.$with('open', {}).as(sql`
    select t.id from ${testLinks} t
    where t.link_id = ${p('linkId')}
      and ${isTimedSql(t)} and ${acceptsAnswersSql(t, now)}
      and ${takerHolds(t.userId)}
      and ${holderHolds('t')}
      and not (${p('eligible')}::boolean and t.type = any(${p('earnsTypes')}::text[]))
      -- the answers' questions are exactly the link's
      and (select count(*) = ${p('n')}::int and count(*) filter (where f.question_id = any(${p('ids')}::uuid[])) = ${p('n')}::int
        from ${testLinkQuestions} f where f.test_link_id = t.id)
      -- every question as it was scored
      and (select count(*) from ${questions} q
        join unnest(${p('ids')}::uuid[], ${p('versions')}::bigint[]) as v(id, version)
          on q.id = v.id and q.version = v.version) = ${p('n')}::int`);
  const done = db.$with('done', getTableColumns(testLinks)).as(sql`
    update ${testLinks} t set
      is_completed = true, score = ${p('score')}, percentage = ${p('percentage')},
      question_count = ${p('n')}::int,
      status = case when t.certificate_generated then ${p('statusWithImage')} else ${p('statusWithout')} end,
      completed_at = ${now},
      completed_in = ${secondsTakenSql(t, now)}
    where t.id = (select id from open) and ${isOpenSql(t)}
    returning t.*`);
  const given = db.$with('given', {}).as(upsertScoredAnswers(sql`d.id`, sql`, done d`));
  // what an earning link changes elsewhere (Hooks.inStatement), committed with the result or not at all
  const earned = part
    ? [db.$with('earned', {}).as(part.earned(sql`(select * from done where ${p('eligible')}::boolean)`))]
    : [];
  const row = done as unknown as typeof testLinks._.columns;
  return db
    .with(open, done, given, ...earned)
    .select({
      id: row.id,
      linkId: row.linkId,
      type: row.type,
      status: row.status,
      isCompleted: row.isCompleted,
    } satisfies { [K in keyof EvaluatedLink]: unknown })
    .from(done)
    .prepare(part ? `test_link_evaluation_in_one_${part.name}` : 'test_link_evaluation_in_one');
}

/**
 * Evaluates a link in one statement when it can (see evaluationInOne): `done`, the evaluation; else `read`,
 * what evaluateLink needs to do it the long way (readForEvaluation's answer); null when there is no such link
 * or the caller's session does not hold (the long way says which).
 */
export async function evaluateNow(
  db: Db,
  linkId: string,
  caller: SessionOf | null,
  /** The hash of the request's attempt token, or null without one. */
  holder: string | null,
  given: readonly GivenAnswer[],
  now: Date,
  hooks: Hooks = {},
): Promise<{ done: { link: EvaluatedLink; scored: Scored } } | { read: EvaluationState } | null> {
  let attempt = scoredSheet(db, given, hooks);
  const missing = attempt ? [] : missingOf(db, given);
  if (missing.length) {
    // the first evaluation of these questions in this process: read them once
    await readQuestions(db, missing);
    attempt = scoredSheet(db, given, hooks);
  }
  if (attempt) {
    const { scored } = attempt;
    const [link] = await evaluationInOne(db, hooks, scored.eligible).execute({
      linkId,
      holder,
      ...sessionParams(caller),
      now: now.toISOString(),
      eligible: scored.eligible,
      // an earning link of these types is left to the long way, unless this statement does what onEarned does
      earnsTypes: hooks.onEarned && !hooks.inStatement ? [...(hooks.earnsTypes ?? [])] : [],
      n: attempt.ids.length,
      ids: attempt.ids,
      versions: attempt.versions,
      score: scored.score,
      percentage: scored.percentage,
      statusWithImage: statusAfterEvaluation(scored.eligible, true),
      statusWithout: statusAfterEvaluation(scored.eligible, false),
      answeredAt: new Date().toISOString(),
      given: JSON.stringify(attempt.rows),
    });
    if (link) return { done: { link, scored } };
  }
  const read = await readForEvaluation(db, linkId, caller);
  return read ? { read } : null;
}

/** The given answers' questions this process does not hold. */
const missingOf = (db: Db, given: readonly { questionId: string }[]) =>
  [...new Set(given.map((a) => a.questionId))].filter((id) => !heldQuestion(db, id));

/**
 * The given answers scored against the questions held, as evaluationInOne writes them; null when they cannot
 * be (none given, a question not held, an answer that does not check, an earning link whose hook has no types).
 */
function scoredSheet(db: Db, given: readonly GivenAnswer[], hooks: Hooks) {
  if (given.length === 0) return null;
  // the last answer to a question wins, as in evaluateLink
  const last = new Map<string, (typeof given)[number]>();
  for (const a of given) {
    last.delete(a.questionId);
    last.set(a.questionId, a);
  }
  const held: HeldQuestion[] = [];
  for (const id of last.keys()) {
    const q = heldQuestion(db, id);
    if (!q) return null;
    held.push(q);
  }
  const key: KeyQuestion[] = held.map((q) => ({ ...q, roadmapId: null }));
  const fresh = new Map<string, StoredAnswer>();
  try {
    for (const q of key) fresh.set(q.id, normaliseAnswer(q, last.get(q.id)!));
  } catch {
    return null; // the long way names the field, after the link's own errors
  }
  const scored = scoreAnswers(key, fresh);
  if (scored.eligible && hooks.onEarned && !hooks.earnsTypes) return null;
  return {
    scored,
    ids: held.map((q) => q.id),
    versions: held.map((q) => q.version),
    rows: scoredRows(fresh.values(), scored),
  };
}
