/**
 * The rules of the test engine, once, in TypeScript: a link's clock (when it expires unused, when a started
 * link is overdue, whether it takes answers now, the deadline a start sets, the seconds an evaluation
 * records), who may take and write it (its learner, the browser holding its attempt: decision 031), retakes
 * (decision 010), and what an answer must be for its question. Pure: no database, no clock of its own.
 *
 * The statements that do the common case in one round trip (the start, an autosave, the evaluation) and the
 * sweep say the same rules in SQL, each through its twin in ./rules-sql.ts; ./rules.test.ts evaluates every
 * pair on the same cases in the database and fails when a pair disagrees. Change a rule in both, or in none.
 */
import { isMultiAnswer, isTextAnswer } from '@shared/rules/question-types';
import { isRetakeLimited } from '@shared/rules/retakes';
import { LINK_MESSAGES } from '@shared/rules/test-links';
import type { Answer, QuestionType, TestType } from '@shared/schemas/assessment';
import { badRequest, conflict, forbidden, HttpError } from '../../http/errors';
import type { LinkRow } from '../tables';

// ---------------------------------------------------------------- constants

/** An unused link expires this long after it was created. */
export const LINK_VALIDITY_MS = 7 * 24 * 3600_000;
/** Time allowed once started: a minute a question, at least five. */
export const MINUTES_PER_QUESTION = 1;
export const MIN_MINUTES = 5;
/** Answers arriving this long after the deadline still count (network latency). */
export const ANSWER_GRACE_MS = 5_000;
/** The default wait before a failed test can be taken again (RETAKE_COOLDOWN_HOURS). */
export const DEFAULT_RETAKE_COOLDOWN_MS = 24 * 3600_000;
/** The mark of an attempt started before tokens (migration 0017): any write is its holder's until it ends. */
export const LEGACY_ATTEMPT = 'legacy';

export const timeLimitFor = (questionCount: number) =>
  Math.max(MIN_MINUTES, Math.ceil(questionCount * MINUTES_PER_QUESTION));

// ---------------------------------------------------------------- errors the test page maps to screens

export const linkExpired = () => new HttpError(410, LINK_MESSAGES.expired, { errorCode: 'LINK_EXPIRED' });
export const testCompleted = () =>
  new HttpError(410, LINK_MESSAGES.completed, { errorCode: 'TEST_COMPLETED' });
/** 403: the link is valid but may not be used yet (docs/decisions/004-test-links-and-award-images.md). */
export const notYetStarted = (start: Date) =>
  new HttpError(403, LINK_MESSAGES.notYetStarted(start), { errorCode: 'ASSESSMENT_NOT_YET_STARTED' });
/** 409: answering or evaluating a timed test before its start. */
export const notStarted = () => conflict(LINK_MESSAGES.notStarted, { errorCode: 'TEST_NOT_STARTED' });
export const notYours = () => forbidden(LINK_MESSAGES.notYours);

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

/** 403 ATTEMPT_TOKEN_REQUIRED: a write of a started attempt without its token. */
export const attemptTokenRequired = () =>
  new HttpError(403, LINK_MESSAGES.heldElsewhere, {
    errorCode: 'ATTEMPT_TOKEN_REQUIRED',
    field: 'x-attempt-token',
  });

/** 403 ATTEMPT_TOKEN_INVALID: a write with a token that is not the attempt's (another browser, a takeover). */
export const attemptTokenInvalid = () =>
  new HttpError(403, LINK_MESSAGES.heldElsewhere, {
    errorCode: 'ATTEMPT_TOKEN_INVALID',
    field: 'x-attempt-token',
  });

// ---------------------------------------------------------------- a link's clock

/** The columns of a link the rules read (rules-sql.ts names the same ones). */
export type LinkState = Pick<
  LinkRow,
  | 'id'
  | 'type'
  | 'status'
  | 'isCompleted'
  | 'userId'
  | 'testKey'
  | 'startTime'
  | 'durationHours'
  | 'expiresAt'
  | 'startedAt'
  | 'deadlineAt'
  | 'completedAt'
  | 'timeLimitMinutes'
  | 'createdAt'
  | 'attemptTokenHash'
  | 'sandbox'
>;

/** Not evaluated, not expired: the link can still change. */
export const isOpen = (link: Pick<LinkState, 'isCompleted' | 'status'>) =>
  !link.isCompleted && link.status === 'TAKE_TEST';

/** Whether the link has a clock (a prerequisite assessment has none). */
export const isTimed = (type: TestType) => type !== 'INITIAL-ASSESSMENT';

/** The end of a custom test's window. */
export function windowEnd(link: Pick<LinkState, 'startTime' | 'durationHours'>): Date | null {
  if (!link.startTime || link.durationHours === null || link.durationHours === undefined) return null;
  return new Date(link.startTime.getTime() + link.durationHours * 3600_000);
}

/** When an unused link stops being usable. */
export function unusedUntil(link: Pick<LinkState, 'expiresAt' | 'startTime' | 'durationHours'>): Date | null {
  const ends = [link.expiresAt, windowEnd(link)].filter((d): d is Date => Boolean(d));
  return ends.length ? new Date(Math.min(...ends.map((d) => d.getTime()))) : null;
}

/** An open timed link nobody started, past its expiry or its window's end: it becomes EXPIRED. */
export function isUnusedPast(link: LinkState, now: Date): boolean {
  const until = unusedUntil(link);
  return isOpen(link) && !link.startedAt && isTimed(link.type) && until !== null && now > until;
}

/** Past its deadline and the grace (answers arriving now no longer count). */
export const pastGrace = (link: Pick<LinkState, 'deadlineAt'>, now: Date) =>
  link.deadlineAt !== null && now.getTime() > link.deadlineAt.getTime() + ANSWER_GRACE_MS;

/** An open started link past its deadline and the grace: it is evaluated with the answers it has. */
export const isOverdue = (link: LinkState, now: Date) =>
  isOpen(link) && link.startedAt !== null && pastGrace(link, now);

/** Started, or its window has opened (a custom test may not be started before its start time). */
export const hasOpened = (link: LinkState, now: Date) =>
  link.startedAt !== null || link.startTime === null || now >= link.startTime;

/** A link that may simply start now: open, timed, not started, its window open, not past its expiry. */
export const mayStart = (link: LinkState, now: Date) =>
  isOpen(link) && isTimed(link.type) && !link.startedAt && hasOpened(link, now) && !isUnusedPast(link, now);

/** Whether answers may be saved now: open, started, and within its deadline and the grace. */
export const acceptsAnswers = (link: LinkState, now: Date) =>
  isOpen(link) && link.startedAt !== null && !pastGrace(link, now);

/** The deadline a start at `now` sets: the time limit, cut at the end of the window. */
export function deadlineFor(link: LinkState, now: Date): Date {
  const byLimit = now.getTime() + link.timeLimitMinutes * 60_000;
  const end = windowEnd(link);
  return new Date(end ? Math.min(byLimit, end.getTime()) : byLimit);
}

/** The seconds an evaluation completed at `completedAt` records: since the start, within the time limit. */
export function secondsTaken(link: LinkState, completedAt: Date): number {
  const startedAt = link.startedAt ?? link.createdAt;
  const taken = Math.max(0, Math.round((completedAt.getTime() - startedAt.getTime()) / 1000));
  return isTimed(link.type) ? Math.min(taken, link.timeLimitMinutes * 60) : taken;
}

// ---------------------------------------------------------------- who may take and write it

/** No caller (the link id is the capability), a link of no learner, or its learner. */
export const isTaker = (link: Pick<LinkState, 'userId'>, callerId: string | null) =>
  callerId === null || link.userId === null || link.userId === callerId;

/** Whether a request with this token hash may write the link's attempt (decision 031). */
export const holds = (link: Pick<LinkState, 'attemptTokenHash'>, hash: string | null) =>
  link.attemptTokenHash === LEGACY_ATTEMPT || (hash !== null && link.attemptTokenHash === hash);

// ---------------------------------------------------------------- retakes (decision 010)

/** Whether a failure of the same test could hold back this link's start (a cool-down is set). */
export const retakeApplies = (link: LinkState, cooldownMs: number) =>
  // a sandbox's attempts are reset on demand instead (decision 041)
  !link.sandbox &&
  link.startedAt === null &&
  link.userId !== null &&
  link.testKey !== null &&
  isRetakeLimited(link.type) &&
  cooldownMs > 0;

/** Whether `failure` is a failure of `link`'s test completed after `since` (another link than `link`). */
export const failureHolds = (
  failure: LinkState,
  /** `id` null: a link not made yet. */
  link: { id: string | null } & Pick<LinkState, 'userId' | 'testKey'>,
  since: Date,
) =>
  failure.userId !== null &&
  failure.userId === link.userId &&
  failure.testKey !== null &&
  failure.testKey === link.testKey &&
  failure.status === 'NO_ENOUGH_MARKS' &&
  failure.completedAt !== null &&
  failure.completedAt > since &&
  failure.id !== link.id;

// ---------------------------------------------------------------- the errors, in the order the long way says them

/** Refuses a caller who is not the link's learner (no caller: the link id is the capability). */
export function assertTaker(link: Pick<LinkState, 'userId'>, caller: { id: string } | null) {
  if (!isTaker(link, caller?.id ?? null)) throw notYours();
}

/** The errors of a link that cannot be taken now (after `settle`). */
export function assertTakeable(link: LinkState, now: Date) {
  if (link.isCompleted) throw testCompleted();
  if (link.status === 'EXPIRED') throw linkExpired();
  if (link.status !== 'TAKE_TEST') throw testCompleted();
  if (!hasOpened(link, now)) throw notYetStarted(link.startTime!);
}

/** Refuses a write that does not carry the attempt's token (after the link's own errors). */
export function assertHolder(link: Pick<LinkState, 'attemptTokenHash'>, hash: string | null) {
  if (holds(link, hash)) return;
  throw hash === null ? attemptTokenRequired() : attemptTokenInvalid();
}

// ---------------------------------------------------------------- an answer for its question

/** One answer as a taker gives it: the API's Answer (shared/schemas/assessment.ts) without what only the prerequisite's submission carries. */
export type GivenAnswer = Pick<Answer, 'questionId' | 'answerId' | 'answer'>;

/** An answer as it is stored: one option id, the list for multi-select, or the text as typed. */
export interface StoredAnswer {
  questionId: string;
  answerIds: string[];
  answerText: string | null;
}

/** What an answer is checked against: its question's type and options. */
export interface AnsweredQuestion {
  id: string;
  type: QuestionType;
  options: readonly { id: string }[];
}

/**
 * The forms an answer can be read in, whatever its question's type: `multi` (the ids, once each), `single`
 * (the one id given, if exactly one) and `text` (the value as typed, trimmed; null when absent or a number
 * that is not finite). normaliseAnswer takes the one its question's type reads; the autosave's statement
 * sends all three and the question's type chooses in SQL.
 */
export function answerForms(a: Omit<GivenAnswer, 'questionId'>) {
  const listed = a.answerId === undefined ? [] : Array.isArray(a.answerId) ? a.answerId : [a.answerId];
  const single = Array.isArray(a.answerId)
    ? a.answerId.length === 1
      ? a.answerId[0]
      : undefined
    : a.answerId;
  const text =
    a.answer === undefined ||
    a.answer === null ||
    (typeof a.answer === 'number' && !Number.isFinite(a.answer))
      ? null
      : String(a.answer).trim();
  return { multi: [...new Set(listed)], single: single ?? null, text };
}

/**
 * Checks one answer against its question and gives what is stored: single-choice types keep one option id,
 * multi-select the list, fill-in-blank the value as typed. A 400 names the field (`answerId`, `answer`, or
 * `answers.{i}.answerId` with a prefix).
 */
export function normaliseAnswer(
  q: AnsweredQuestion,
  a: Omit<GivenAnswer, 'questionId'>,
  prefix = '',
): StoredAnswer {
  const f = (name: string) => `${prefix}${name}`;
  const { multi, single, text } = answerForms(a);
  if (isTextAnswer(q.type)) {
    if (a.answer === undefined || a.answer === null) {
      throw badRequest(`${f('answer')}: type the answer for this question`, f('answer'));
    }
    if (text === null) throw badRequest(`${f('answer')}: must be a number`, f('answer'));
    return { questionId: q.id, answerIds: [], answerText: text };
  }
  const valid = new Set(q.options.map((o) => o.id));
  if (isMultiAnswer(q.type)) {
    const bad = multi.findIndex((id) => !valid.has(id));
    if (bad >= 0) {
      throw badRequest(`${f('answerId')}: is not an option of this question`, f(`answerId.${bad}`));
    }
    return { questionId: q.id, answerIds: multi, answerText: null };
  }
  if (single === null) {
    throw badRequest(`${f('answerId')}: choose one option for this question`, f('answerId'));
  }
  if (!valid.has(single))
    throw badRequest(`${f('answerId')}: is not an option of this question`, f('answerId'));
  return { questionId: q.id, answerIds: [single], answerText: null };
}
