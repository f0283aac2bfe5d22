/**
 * The assessment engine, part three — a link's life on the server's clock: finding a link, who may take
 * it, starting it (the deadline), retakes and their cool-down, accepting answers until the deadline and
 * its grace, evaluating it once, settling it when its time is past, and the periodic sweep. The errors a
 * test page maps to screens say the shared messages (shared/rules/test-links.ts).
 */
import { typesWhere } from '@shared/rules/question-types';
import { isRetakeLimited, RETAKE_TYPES } from '@shared/rules/retakes';
import { statusAfterEvaluation } from '@shared/rules/scoring';
import { LINK_MESSAGES } from '@shared/rules/test-links';
import type { TestType } from '@shared/schemas/assessment';
import { and, desc, eq, getTableColumns, gt, isNotNull, isNull, lt, ne, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { inTx, parsedJson, preparedPer } from '../../db/helpers';
import { badRequest, conflict, forbidden, HttpError } from '../../http/errors';
import { questionOptions, questions } from '../../questions/tables';
import { type LinkRow, testAnswers, testLinkQuestions, testLinks } from '../tables';
import {
  apiAnswersOf,
  type EvaluationState,
  evaluationWrite,
  type KeyQuestion,
  normaliseAnswer,
  readForEvaluation,
  type SavedRow,
  type Scored,
  type StoredAnswer,
  savedAnswersJson,
  scoreAnswers,
  scoredRows,
  upsertScoredAnswers,
} from './answers';
import { holderHolds } from './attempt';
import { type FrozenRef, frozenRefsJson, TEXT_TYPES, takerQuestionsFrom } from './drawing';
import { type HeldQuestion, heldQuestion, questionsAt, readQuestions } from './question-cache';
import { callerHolds, type SessionOf, sessionParams, takerHolds } from './session';

/** An unused link expires this long after it was created. */
export const LINK_VALIDITY_MS = 7 * 24 * 3600_000;
/** Time allowed once started: a minute a question, at least five. */
export const MINUTES_PER_QUESTION = 1;
export const MIN_MINUTES = 5;
/** Answers arriving this long after the deadline still count (network latency). */
export const ANSWER_GRACE_MS = 5_000;
/** The default wait before a failed test can be taken again (RETAKE_COOLDOWN_HOURS). */
export const DEFAULT_RETAKE_COOLDOWN_MS = 24 * 3600_000;

export const timeLimitFor = (questionCount: number) =>
  Math.max(MIN_MINUTES, Math.ceil(questionCount * MINUTES_PER_QUESTION));

// ---------------------------------------------------------------- errors the test page maps to screens

export const linkExpired = () => new HttpError(410, LINK_MESSAGES.expired, { errorCode: 'LINK_EXPIRED' });
export const testCompleted = () =>
  new HttpError(410, LINK_MESSAGES.completed, { errorCode: 'TEST_COMPLETED' });
/** 403: the link is valid but may not be used yet (docs/decisions/004-test-links-and-award-images.md). */
export const notYetStarted = (start: Date) =>
  new HttpError(403, LINK_MESSAGES.notYetStarted(start), { errorCode: 'ASSESSMENT_NOT_YET_STARTED' });

/**
 * 409 RETAKE_COOLDOWN: a failed test may be taken again from `opensAt` (decision 010); the body names the
 * time (`opensAt`) and Retry-After says how many seconds remain.
 */
export const retakeCooldown = (opensAt: Date, now: Date, field?: string) =>
  new HttpError(
    409,
    LINK_MESSAGES.retakeCooldown(opensAt),
    { errorCode: 'RETAKE_COOLDOWN', opensAt: opensAt.toISOString(), ...(field ? { field } : {}) },
    { 'retry-after': String(Math.max(1, Math.ceil((opensAt.getTime() - now.getTime()) / 1000))) },
  );

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
  const [row] = await db
    .select({ at: testLinks.completedAt })
    .from(testLinks)
    .where(
      and(
        eq(testLinks.userId, userId),
        eq(testLinks.testKey, testKey),
        eq(testLinks.status, 'NO_ENOUGH_MARKS'),
        gt(testLinks.completedAt, since),
        except ? ne(testLinks.id, except) : undefined,
      ),
    )
    .orderBy(desc(testLinks.completedAt))
    .limit(1);
  return row?.at ?? null;
}

/**
 * Refuses to start a link while a failure of the same test is in its cool-down (a second link of the test
 * drawn before that failure — one an older version could leave behind — must not be the retake).
 */
export async function assertRetakeOpen(db: Db, link: LinkRow, now: Date, cooldownMs: number) {
  // a sandbox's attempts are reset on demand instead (decision 041)
  if (link.sandbox) return;
  if (link.startedAt || !link.userId || !link.testKey || !isRetakeLimited(link.type) || cooldownMs <= 0)
    return;
  const failed = await failureSince(
    db,
    link.userId,
    link.testKey,
    new Date(now.getTime() - cooldownMs),
    link.id,
  );
  if (failed) throw retakeCooldown(new Date(failed.getTime() + cooldownMs), now);
}

/** Serialises the creation of a learner's links to one test, across server processes (until commit). */
export async function lockTest(db: Db, userId: string, testKey: string) {
  await db.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${`test-link|${userId}|${testKey}`}, 0))`,
  );
}

// ---------------------------------------------------------------- a link's life

/** Whether the link has a clock (a prerequisite assessment has none). */
export const isTimed = (type: TestType) => type !== 'INITIAL-ASSESSMENT';

/** The end of a custom test's window. */
export function windowEnd(link: Pick<LinkRow, 'startTime' | 'durationHours'>): Date | null {
  if (!link.startTime || link.durationHours === null || link.durationHours === undefined) return null;
  return new Date(link.startTime.getTime() + link.durationHours * 3600_000);
}

/** When an unused link stops being usable. */
export function unusedUntil(link: Pick<LinkRow, 'expiresAt' | 'startTime' | 'durationHours'>): Date | null {
  const ends = [link.expiresAt, windowEnd(link)].filter((d): d is Date => Boolean(d));
  return ends.length ? new Date(Math.min(...ends.map((d) => d.getTime()))) : null;
}

/** Refuses a caller who is not the link's learner (no caller: the link id is the capability). */
export function assertTaker(link: Pick<LinkRow, 'userId'>, caller: { id: string } | null) {
  if (caller && link.userId && caller.id !== link.userId) throw forbidden(LINK_MESSAGES.notYours);
}

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

/**
 * Brings a link up to date with the clock: a started link past its deadline is evaluated with the answers
 * it has; an unused link past its expiry becomes EXPIRED. Returns the current row.
 */
export async function settle(db: Db, link: LinkRow, now: Date, hooks: Hooks = {}): Promise<LinkRow> {
  if (link.isCompleted || link.status !== 'TAKE_TEST') return link;
  if (link.startedAt && link.deadlineAt && now.getTime() > link.deadlineAt.getTime() + ANSWER_GRACE_MS) {
    return (await evaluateLink(db, link, [], now, hooks)).link;
  }
  const until = unusedUntil(link);
  if (!link.startedAt && isTimed(link.type) && until && now > until) {
    const [row] = await db
      .update(testLinks)
      .set({ status: 'EXPIRED' })
      .where(and(eq(testLinks.id, link.id), isNull(testLinks.startedAt), eq(testLinks.status, 'TAKE_TEST')))
      .returning();
    return row ?? (await findLink(db, link.linkId)) ?? link;
  }
  return link;
}

/** The errors of a link that cannot be taken now (after `settle`). */
export function assertTakeable(link: LinkRow, now: Date) {
  if (link.isCompleted) throw testCompleted();
  if (link.status === 'EXPIRED') throw linkExpired();
  if (link.status !== 'TAKE_TEST') throw testCompleted();
  if (!link.startedAt && link.startTime && now < link.startTime) throw notYetStarted(link.startTime);
}

/**
 * Starts the clock (idempotent): records the start and the deadline on the server's clock, numbers the
 * attempt among the learner's started attempts of the same test, and binds it to the hash of the starting
 * browser's attempt token (decision 031). A link started already is given back as it is (whoever holds it).
 */
export async function startLink(db: Db, link: LinkRow, now: Date, holder: string): Promise<LinkRow> {
  if (link.startedAt) return link;
  const byLimit = now.getTime() + link.timeLimitMinutes * 60_000;
  const end = windowEnd(link);
  const deadline = new Date(end ? Math.min(byLimit, end.getTime()) : byLimit);
  const [row] = await db
    .update(testLinks)
    .set({
      startedAt: now,
      deadlineAt: deadline,
      attemptTokenHash: holder,
      // written out: the outer row must be named by its table, never by a bare column the subquery shadows
      attempt: sql`(select count(*)::int + 1 from test_links o
        where o.user_id = test_links.user_id and o.test_key = test_links.test_key
          and o.started_at is not null and o.id <> test_links.id)`,
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
    .where(
      and(
        eq(testLinks.id, link.id),
        isNotNull(testLinks.startedAt),
        eq(testLinks.isCompleted, false),
        eq(testLinks.status, 'TAKE_TEST'),
      ),
    )
    .returning();
  return row ?? null;
}

// ---------------------------------------------------------------- the taker's view, and the start in one statement

/**
 * What the test page shows of a link (its questions, the answers saved so far, its subject's name) as
 * columns of one statement, for the link whose row id and subject id these expressions name. The questions
 * come as references with their versions (frozenRefsJson): their text and options from what the process
 * holds at that version (question-cache.ts), read only when it holds an older one or none.
 */
const takerViewFields = (linkRowId: SQL, subjectId: SQL) => ({
  frozen: frozenRefsJson(linkRowId),
  answers: savedAnswersJson(linkRowId),
  subjectName: sql<string | null>`(select s.name from subjects s where s.id = ${subjectId})`,
});

export interface TakerView {
  questions: ReturnType<typeof takerQuestionsFrom>;
  answers: ReturnType<typeof apiAnswersOf>;
  subjectName: string | null;
}

async function viewOf(
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
const linkColumnsOf = <T extends Record<string, unknown>>(from: T) =>
  Object.fromEntries(Object.keys(getTableColumns(testLinks)).map((k) => [k, from[k]])) as {
    [K in keyof typeof testLinks._.columns]: (typeof testLinks._.columns)[K];
  };

const viewById = preparedPer((db) =>
  db
    .select(takerViewFields(sql`${testLinks.id}`, sql`${testLinks.subjectId}`))
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
      ...takerViewFields(sql`${testLinks.id}`, sql`${testLinks.subjectId}`),
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

/**
 * The start of a link that may start now, in one statement: the UPDATE of startLink under every rule the
 * long way checks (assertTaker, settle's expiry, assertTakeable, assertRetakeOpen), returning the started
 * row with its taker's view. A link any rule stops — or one already started, or a prerequisite assessment —
 * is not touched and gives no row: the caller then takes the long way, which says why (or, for a started
 * link, gives it back as it is). The conditions may only be stricter than the long way's, never looser.
 */
const startWithView = preparedPer((db) => {
  const p = (name: string) => sql.placeholder(name);
  const now = sql`${p('now')}::timestamptz`;
  const started = db.$with('started', getTableColumns(testLinks)).as(sql`
    update ${testLinks} t set
      started_at = ${now},
      -- the hash of the starting browser's attempt token: its writes, and only its, are the attempt's
      attempt_token_hash = ${p('holder')}::text,
      -- startLink's deadline: the time limit, cut at the end of the window
      deadline_at = least(${now} + make_interval(mins => t.time_limit_minutes),
        t.start_time + make_interval(hours => t.duration_hours)),
      -- startLink's attempt number: the learner's started attempts of the same test, and this one
      attempt = (select count(*)::int + 1 from ${testLinks} o
        where o.user_id = t.user_id and o.test_key = t.test_key and o.started_at is not null and o.id <> t.id)
    where t.link_id = ${p('linkId')}
      -- not started, open, timed (the long way gives a started link back; a prerequisite has no clock)
      and t.started_at is null and t.status = 'TAKE_TEST' and not t.is_completed
      and t.type <> 'INITIAL-ASSESSMENT'
      -- assertTaker: the link's learner, or no caller (the id is the capability); authenticate: the session holds
      and ${takerHolds(sql`t.user_id`)}
      -- assertTakeable: the window has opened; settle: not past its expiry nor the window's end
      and (t.start_time is null or t.start_time <= ${now})
      and (t.expires_at is null or t.expires_at >= ${now})
      and (t.start_time is null or t.duration_hours is null
        or t.start_time + make_interval(hours => t.duration_hours) >= ${now})
      -- assertRetakeOpen: no failure of the same test within the cool-down (none holds a sandbox's link back)
      and (t.sandbox or t.user_id is null or t.test_key is null or not (t.type = any(${p('limited')}::text[]))
        or not exists (select 1 from ${testLinks} f
          where f.user_id = t.user_id and f.test_key = t.test_key and f.status = 'NO_ENOUGH_MARKS'
            and f.completed_at > ${p('failedSince')}::timestamptz and f.id <> t.id))
    returning t.*`);
  return db
    .with(started)
    .select({
      link: linkColumnsOf(started as unknown as Record<string, unknown>),
      ...takerViewFields(sql`"started"."id"`, sql`"started"."subject_id"`),
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
    limited: cooldownMs > 0 ? [...RETAKE_TYPES] : [],
    failedSince: new Date(now.getTime() - Math.max(0, cooldownMs)).toISOString(),
  });
  return row ? { link: row.link as LinkRow, view: await viewOf(db, row) } : null;
}

/** Whether answers may still be saved. */
export function acceptsAnswers(link: LinkRow, now: Date): boolean {
  if (link.isCompleted || link.status !== 'TAKE_TEST') return false;
  if (!isTimed(link.type)) return true;
  if (!link.startedAt) return false;
  return !link.deadlineAt || now.getTime() <= link.deadlineAt.getTime() + ANSWER_GRACE_MS;
}

// ---------------------------------------------------------------- an answer saved in one statement

const MULTI_TYPES = typesWhere((t) => t.answer === 'multiple');

/**
 * An autosave in one statement: the answer is upserted only when the link accepts answers now (started, open,
 * within its deadline and grace: inProgress, settle, acceptsAnswers), the caller may use it (assertTaker),
 * the request carries the attempt's token (assertHolder), the question is one of the link's, and the answer is valid for the question's type as normaliseAnswer
 * says — the row stored is the one normaliseAnswer gives, for each kind of answer. Anything else writes
 * nothing and gives no row: the caller then takes the long way, which says why. The conditions may only be
 * stricter than the long way's, never looser.
 */
const saveWhenOpen = preparedPer((db) => {
  const p = (name: string) => sql.placeholder(name);
  const isText = sql`k.type = any(${p('textTypes')}::text[])`;
  const isMulti = sql`k.type = any(${p('multiTypes')}::text[])`;
  const saved = db.$with('saved', { questionId: testAnswers.questionId }).as(sql`
    insert into ${testAnswers} (test_link_id, question_id, answer_ids, answer_text, answered_at)
    select k.link_row, k.question_id,
      case when ${isText} then '{}'::uuid[] when ${isMulti} then ${p('multi')}::uuid[]
        else array[${p('single')}::uuid] end,
      case when ${isText} then ${p('text')}::text end,
      ${p('at')}::timestamptz
    from (
      select l.id as link_row, q.id as question_id, q.question_type as type,
        array(select o.id from ${questionOptions} o where o.question_id = q.id) as options
      from ${testLinks} l
        join ${testLinkQuestions} tlq on tlq.test_link_id = l.id and tlq.question_id = ${p('question')}::uuid
        join ${questions} q on q.id = tlq.question_id
      where l.link_id = ${p('linkId')}
        and l.status = 'TAKE_TEST' and not l.is_completed and l.started_at is not null
        and (l.deadline_at is null or l.deadline_at >= ${p('acceptsFrom')}::timestamptz)
        and ${takerHolds(sql`l.user_id`)}
        -- the browser that holds the attempt (its token's hash): decision 031
        and ${holderHolds(sql`l.attempt_token_hash`)}
    ) k
    where case when ${isText} then ${p('text')}::text is not null
      when ${isMulti} then ${p('multi')}::uuid[] <@ k.options
      else ${p('single')}::uuid is not null and ${p('single')}::uuid = any(k.options) end
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
  answer: { questionId: string; answerId?: string | string[]; answer?: string | number },
  now: Date,
): Promise<boolean> {
  // what normaliseAnswer stores for each kind of answer, the question's type choosing in the statement
  const ids =
    answer.answerId === undefined ? [] : Array.isArray(answer.answerId) ? answer.answerId : [answer.answerId];
  const single = Array.isArray(answer.answerId)
    ? answer.answerId.length === 1
      ? answer.answerId[0]
      : undefined
    : answer.answerId;
  const text =
    answer.answer === undefined ||
    answer.answer === null ||
    (typeof answer.answer === 'number' && !Number.isFinite(answer.answer))
      ? null
      : String(answer.answer).trim();
  const [row] = await saveWhenOpen(db).execute({
    linkId,
    question: answer.questionId,
    holder,
    ...sessionParams(caller),
    acceptsFrom: new Date(now.getTime() - ANSWER_GRACE_MS).toISOString(),
    textTypes: [...TEXT_TYPES],
    multiTypes: [...MULTI_TYPES],
    multi: [...new Set(ids)],
    single: single ?? null,
    text,
    at: new Date().toISOString(),
  });
  return (row?.saved ?? 0) > 0;
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
  given: readonly { questionId: string; answerId?: string | string[]; answer?: string | number }[],
  now: Date,
  hooks: Hooks = {},
  /** `read`: readForEvaluation's answer for this link, when the caller has just read it. */
  { read, attempt = 1 }: { read?: EvaluationState; attempt?: number } = {},
): Promise<Evaluation> {
  const state = read && read.link.id === link.id ? read : await readForEvaluation(db, link.linkId, null);
  if (!state) throw new HttpError(404, 'Test link not found');
  const { link: current, key, stored } = state;
  if (current.isCompleted) return { link: current, scored: scoreAnswers(key, stored) };
  if (current.status === 'EXPIRED') throw linkExpired();
  if (isTimed(current.type) && !current.startedAt)
    throw conflict(LINK_MESSAGES.notStarted, { errorCode: 'TEST_NOT_STARTED' });
  const late =
    isTimed(current.type) &&
    current.deadlineAt !== null &&
    now.getTime() > current.deadlineAt.getTime() + ANSWER_GRACE_MS;
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
  const startedAt = current.startedAt ?? current.createdAt;
  const limitSeconds = current.timeLimitMinutes * 60;
  const takenSeconds = Math.max(0, Math.round((completedAt.getTime() - startedAt.getTime()) / 1000));
  const completedIn = isTimed(current.type) ? Math.min(takenSeconds, limitSeconds) : takenSeconds;
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
  const open = db.$with('open', {}).as(sql`
    select t.id from ${testLinks} t
    where t.link_id = ${p('linkId')}
      and t.status = 'TAKE_TEST' and not t.is_completed and t.type <> 'INITIAL-ASSESSMENT'
      and t.started_at is not null and (t.deadline_at is null or t.deadline_at >= ${p('acceptsFrom')}::timestamptz)
      and ${takerHolds(sql`t.user_id`)}
      and ${holderHolds(sql`t.attempt_token_hash`)}
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
      -- evaluateLink's completedIn: Math.round of the seconds taken, within the time limit
      completed_in = least(greatest(0, floor(extract(epoch from (${now} - t.started_at)) + 0.5)),
        t.time_limit_minutes * 60)::int
    where t.id = (select id from open) and not t.is_completed and t.status = 'TAKE_TEST'
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
  given: readonly { questionId: string; answerId?: string | string[]; answer?: string | number }[],
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
      acceptsFrom: new Date(now.getTime() - ANSWER_GRACE_MS).toISOString(),
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
function scoredSheet(
  db: Db,
  given: readonly { questionId: string; answerId?: string | string[]; answer?: string | number }[],
  hooks: Hooks,
) {
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
  const cutoff = new Date(now.getTime() - ANSWER_GRACE_MS);
  const overdue = await db
    .select()
    .from(testLinks)
    .where(
      and(
        eq(testLinks.isCompleted, false),
        eq(testLinks.status, 'TAKE_TEST'),
        isNotNull(testLinks.startedAt),
        lt(testLinks.deadlineAt, cutoff),
      ),
    )
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
        eq(testLinks.isCompleted, false),
        eq(testLinks.status, 'TAKE_TEST'),
        isNull(testLinks.startedAt),
        sql`${testLinks.type} <> 'INITIAL-ASSESSMENT'`,
        // a link's expiry is never later than its window's end (the share sets both; migration 0016), so
        // expires_at alone says what settle's unusedUntil does, and test_links_unused_idx finds it
        lt(testLinks.expiresAt, now),
      ),
    )
    .returning({ id: testLinks.id });
  return { evaluated, expired: expiredRows.length };
}
