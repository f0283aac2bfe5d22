/**
 * The rules of ./rules.ts as SQL fragments, one for each, for the statements that apply them in the database
 * itself: the start, the autosave and the evaluation in one statement, and the sweep. Each fragment takes the
 * columns of a link (`linkCols`: a table, a CTE or a VALUES list of test_links' shape, under an alias) and
 * the values it compares them with (a placeholder, a parameter, another row's columns) and is true exactly
 * when its TypeScript twin is, never null — so it may be negated, and ./rules.test.ts compares every pair on
 * the same cases, in the database, on PGlite and PostgreSQL.
 *
 * A statement may add conditions of its own (an index's key, the question being one of the link's); it does
 * not restate a rule.
 */
import { typesWhere } from '@shared/rules/question-types';
import { RETAKE_TYPES } from '@shared/rules/retakes';
import { getTableColumns, type SQL, sql } from 'drizzle-orm';
import { testLinks } from '../tables';
import { ANSWER_GRACE_MS, LEGACY_ATTEMPT, type LinkState } from './rules';

/** The columns of a link the rules read, as SQL (linkCols). */
export type LinkCols = { [K in keyof LinkState]: SQL };

const RULE_COLUMNS = [
  'id',
  'type',
  'status',
  'isCompleted',
  'userId',
  'testKey',
  'startTime',
  'durationHours',
  'expiresAt',
  'startedAt',
  'deadlineAt',
  'completedAt',
  'timeLimitMinutes',
  'createdAt',
  'attemptTokenHash',
  'sandbox',
] as const satisfies readonly (keyof LinkState)[];

/**
 * The columns of a row of test_links' shape named `alias` (`test_links` itself in a statement of the query
 * builder, `t` in one written out, a CTE's or a VALUES list's name).
 */
export function linkCols(alias: string): LinkCols {
  const columns = getTableColumns(testLinks);
  return Object.fromEntries(RULE_COLUMNS.map((k) => [k, sql.raw(`${alias}.${columns[k].name}`)])) as LinkCols;
}

const list = (values: readonly string[]) => sql.raw(`(${values.map((v) => `'${v}'`).join(', ')})`);
const GRACE = sql.raw(`interval '${ANSWER_GRACE_MS} milliseconds'`);
/** `a = b`, false (never null) when either is null. */
const equal = (a: SQL, b: SQL) => sql`(${a} is not null and ${b} is not null and ${a} = ${b})`;

// ---------------------------------------------------------------- a link's clock

/** isOpen */
export const isOpenSql = (t: LinkCols) => sql`(${t.status} = 'TAKE_TEST' and not ${t.isCompleted})`;

/** isTimed */
export const isTimedSql = (t: LinkCols) => sql`(${t.type} <> 'INITIAL-ASSESSMENT')`;

/** windowEnd (null without a window) */
export const windowEndSql = (t: LinkCols) =>
  sql`(${t.startTime} + make_interval(hours => ${t.durationHours}))`;

/** isUnusedPast: `least` passes over a null end, as unusedUntil does. */
export const isUnusedPastSql = (t: LinkCols, now: SQL) =>
  sql`(${isOpenSql(t)} and ${t.startedAt} is null and ${isTimedSql(t)}
    and coalesce(least(${t.expiresAt}, ${windowEndSql(t)}) < ${now}, false))`;

/**
 * pastGrace. The deadline is compared bare (`deadline_at < now - grace`), so that the sweep (isOverdueSql)
 * finds the overdue links through its partial index on it (test_links_due_idx).
 */
export const pastGraceSql = (t: LinkCols, now: SQL) =>
  sql`(${t.deadlineAt} is not null and ${t.deadlineAt} < ${now} - ${GRACE})`;

/** isOverdue */
export const isOverdueSql = (t: LinkCols, now: SQL) =>
  sql`(${isOpenSql(t)} and ${t.startedAt} is not null and ${pastGraceSql(t, now)})`;

/** hasOpened */
export const hasOpenedSql = (t: LinkCols, now: SQL) =>
  sql`(${t.startedAt} is not null or ${t.startTime} is null or ${t.startTime} <= ${now})`;

/** mayStart */
export const mayStartSql = (t: LinkCols, now: SQL) =>
  sql`(${isOpenSql(t)} and ${isTimedSql(t)} and ${t.startedAt} is null and ${hasOpenedSql(t, now)}
    and not ${isUnusedPastSql(t, now)})`;

/** acceptsAnswers */
export const acceptsAnswersSql = (t: LinkCols, now: SQL) =>
  sql`(${isOpenSql(t)} and ${t.startedAt} is not null and not ${pastGraceSql(t, now)})`;

/** deadlineFor: `least` passes over a null window end. */
export const deadlineSql = (t: LinkCols, now: SQL) =>
  sql`least(${now} + make_interval(mins => ${t.timeLimitMinutes}), ${windowEndSql(t)})`;

/** secondsTaken: Math.round is floor(x + 0.5) for the non-negative seconds it rounds. */
export function secondsTakenSql(t: LinkCols, at: SQL) {
  const taken = sql`greatest(0, floor(extract(epoch from (${at} - coalesce(${t.startedAt}, ${t.createdAt}))) + 0.5))`;
  return sql`(case when ${isTimedSql(t)} then least(${taken}, ${t.timeLimitMinutes} * 60) else ${taken} end)::int`;
}

/**
 * The attempt number a start gives: 1 + the learner's started attempts of the same test (no TypeScript twin:
 * only statements count attempts).
 */
export const attemptNumberSql = (t: LinkCols) => sql`(select count(*)::int + 1 from ${testLinks} o
  where o.user_id = ${t.userId} and o.test_key = ${t.testKey} and o.started_at is not null and o.id <> ${t.id})`;

// ---------------------------------------------------------------- who may take and write it

/** isTaker, for the caller's id (null: no caller). */
export const isTakerSql = (userId: SQL, callerId: SQL) =>
  sql`(${callerId} is null or ${userId} is null or ${userId} = ${callerId})`;

/** holds, for the request's hash (null: no token). */
export const holdsSql = (t: Pick<LinkCols, 'attemptTokenHash'>, hash: SQL) =>
  sql`coalesce(${t.attemptTokenHash} = ${sql.raw(`'${LEGACY_ATTEMPT}'`)} or ${t.attemptTokenHash} = ${hash}, false)`;

// ---------------------------------------------------------------- retakes

/** retakeApplies, for a cool-down of `cooldownMs` milliseconds (a bigint). */
export const retakeAppliesSql = (t: LinkCols, cooldownMs: SQL) =>
  sql`(not ${t.sandbox} and ${t.startedAt} is null and ${t.userId} is not null and ${t.testKey} is not null
    and ${t.type} in ${list(RETAKE_TYPES)} and ${cooldownMs} > 0)`;

/**
 * failureHolds: `f`, a failure of `link`'s test completed after `since`. Each comparison is a conjunct of its
 * own, so that a read of failures by learner and test uses test_links_user_test_idx.
 */
export const failureHoldsSql = (f: LinkCols, link: Pick<LinkCols, 'id' | 'userId' | 'testKey'>, since: SQL) =>
  sql`(${equal(f.userId, link.userId)} and ${equal(f.testKey, link.testKey)} and ${f.status} = 'NO_ENOUGH_MARKS'
    and ${f.completedAt} is not null and ${f.completedAt} > ${since} and ${f.id} is distinct from ${link.id})`;

/** Whether a failure of the same test within the cool-down holds back `t`'s start (assertRetakeOpen). */
export const retakeHeldSql = (t: LinkCols, now: SQL, cooldownMs: SQL) =>
  sql`(${retakeAppliesSql(t, cooldownMs)} and exists (select 1 from ${testLinks} f
    where ${failureHoldsSql(linkCols('f'), t, sql`${now} - ${cooldownMs} * interval '1 millisecond'`)}))`;

// ---------------------------------------------------------------- an answer for its question

const TEXT = list(typesWhere((t) => t.answer === 'text'));
const MULTI = list(typesWhere((t) => t.answer === 'multiple'));

/** An answer's forms (answerForms) as SQL values: `multi` a uuid[], `single` a uuid, `text` a text. */
export interface AnswerFormsSql {
  multi: SQL;
  single: SQL;
  text: SQL;
}

/** Whether normaliseAnswer accepts the answer for a question of this type with these options (a uuid[]). */
export const answerAcceptedSql = (type: SQL, options: SQL, a: AnswerFormsSql) => sql`coalesce(case
    when ${type} in ${TEXT} then ${a.text} is not null
    when ${type} in ${MULTI} then ${a.multi} <@ ${options}
    else ${a.single} is not null and ${a.single} = any(${options}) end, false)`;

/** The option ids normaliseAnswer stores (for an answer it accepts). */
export const storedIdsSql = (type: SQL, a: AnswerFormsSql) => sql`case
    when ${type} in ${TEXT} then '{}'::uuid[] when ${type} in ${MULTI} then ${a.multi} else array[${a.single}] end`;

/** The text normaliseAnswer stores (for an answer it accepts). */
export const storedTextSql = (type: SQL, a: AnswerFormsSql) =>
  sql`case when ${type} in ${TEXT} then ${a.text} end`;
