/**
 * Taking a test by its link id (no sign-in needed: the id opens the test and starts it; another person's
 * token is refused), written only by the browser that started it (its attempt token, decision 031): the
 * Ready page, the start, an answer saved, a focus-record event, the evaluation. The hot ones (all but the
 * focus record) first try their one statement with the caller as the token claims it (decision 025); when
 * it finds anything else they read the caller (`Asker.read`) and take the long way, which says why.
 */
import type { evaluateTest, testActivity } from '@shared/contract/assessments';
import type { CallBody } from '@shared/contract/define';
import type { Db } from '../db/client';
import { HttpError, notFound } from '../http/errors';
import { linkHooks } from './completion';
import type { EvaluationState, Scored } from './engine/answers';
import { attemptTokenHash } from './engine/attempt';
import { findLinkWithQuestion, saveAnswer, saveAnswerNow } from './engine/autosave';
import { type EvaluatedLink, evaluateLink, evaluateNow } from './engine/evaluation';
import { assertRetakeOpen, findLink, settle } from './engine/link-life';
import {
  acceptsAnswers,
  assertHolder,
  assertTakeable,
  assertTaker,
  type GivenAnswer,
  holds,
  isTimed,
  linkExpired,
  notStarted,
  testCompleted,
} from './engine/rules';
import type { SessionOf } from './engine/session';
import { moveAttempt, startLink, startNow } from './engine/start';
import { findLinkWithView, type TakerView, takerView } from './engine/view';
import { recordFocusEvent } from './integrity';
import { linkTitle } from './queries';
import type { LinkRow } from './tables';

/**
 * Issues an award's credential after the evaluation's answer (the credentials' service, which depends on
 * assessments: the assembly hands it here).
 */
export interface AwardIssuer {
  issueLater(link: Pick<LinkRow, 'linkId' | 'type' | 'status' | 'isCompleted'>): void;
}

/**
 * Who asks: the token's caller as its claims say (null: no token), which a statement checks itself, and
 * `read`, the caller read as every call reads it (401 when its session has ended) — asked for only when
 * that statement found nothing.
 */
export interface Asker {
  claimed: SessionOf | null;
  read(): Promise<{ id: string } | null>;
}

type Caller = { id: string } | null;

/** What taking a test works with: the database, the credentials' issuer, the cool-down and the clock. */
export interface Taking {
  db: Db;
  credentials: AwardIssuer;
  /** RETAKE_COOLDOWN_HOURS in milliseconds. */
  cooldownMs: number;
  /** The server's clock (tests move it). */
  clock: () => Date;
}

/**
 * The link by its public id, brought up to date with the clock; another person's token is refused.
 * `found`: the link's row when the caller has read it already.
 */
async function current(t: Taking, linkId: string, caller: Caller, found?: LinkRow | null): Promise<LinkRow> {
  const link = found !== undefined ? found : await findLink(t.db, linkId);
  if (!link) throw notFound('errors.testLinkNotFound');
  assertTaker(link, caller);
  return settle(t.db, link, t.clock(), linkHooks);
}

/**
 * The test page's view of a link: its state and what takerView read (the questions, saved answers);
 * `held`: the request carried the started attempt's token.
 */
function takerTest(t: Taking, link: LinkRow, view: TakerView, held: boolean) {
  return {
    linkId: link.linkId,
    type: link.type,
    status: link.status,
    subject: view.subjectName !== null ? { name: view.subjectName } : null,
    title: linkTitle(link),
    questions: { questions: view.questions },
    answers: view.answers,
    questionCount: view.questions.length,
    timeLimitMinutes: link.timeLimitMinutes,
    startedAt: link.startedAt?.toISOString() ?? null,
    deadlineAt: link.deadlineAt?.toISOString() ?? null,
    serverTime: t.clock().toISOString(),
    isCompleted: link.isCompleted,
    attemptHeld: held,
    sandbox: link.sandbox,
  };
}

/**
 * A link the caller may write right now: started, in time, not completed, and `holder` (the hash of the
 * request's attempt token) the attempt's.
 */
async function inProgress(
  t: Taking,
  linkId: string,
  caller: Caller,
  holder: string | null,
  found?: LinkRow | null,
) {
  const link = await current(t, linkId, caller, found);
  assertTakeable(link, t.clock());
  if (!link.startedAt) throw notStarted();
  if (!acceptsAnswers(link, t.clock())) throw testCompleted();
  assertHolder(link, holder);
  return link;
}

/** The answer to an evaluation; `now` when this request completed the link. */
function evaluated(t: Taking, done: EvaluatedLink, scored: Scored, now: boolean) {
  // the award's credential is signed after the answer, not before it
  if (scored.eligible && now) t.credentials.issueLater(done);
  return {
    linkId: done.linkId,
    testType: done.type,
    points: scored.score,
    score: scored.score,
    percentage: scored.percentage,
    questionCount: scored.questionCount,
    status: done.status,
    certificateEligible: scored.eligible,
  };
}

/**
 * An evaluation from the link's read (its answer key and saved answers), checked as every test call is.
 * A completed link gives its result to the attempt's browser, and to anyone else only what the Ready page
 * says (410 TEST_COMPLETED).
 */
async function evaluateRead(
  t: Taking,
  body: CallBody<typeof evaluateTest>,
  caller: Caller,
  holder: string | null,
  read: EvaluationState | null,
) {
  const link = await current(t, body.linkId, caller, read?.link ?? null);
  if (link.isCompleted) {
    if (!holds(link, holder)) throw testCompleted();
  } else {
    if (link.status === 'EXPIRED') throw linkExpired();
    if (isTimed(link.type) && !link.startedAt) throw notStarted();
    assertHolder(link, holder);
  }
  // a link the clock changed (evaluated or expired just now) is read again
  const { link: done, scored } = await evaluateLink(t.db, link, body.answers, t.clock(), linkHooks, {
    read: read && link === read.link ? read : undefined,
  });
  return evaluated(t, done, scored, !link.isCompleted);
}

/**
 * A takeover (decision 031): a link started by another browser (or, a moment ago, by another request) moves
 * to this one's token only for the link's learner, signed in; the other browser's writes stop.
 */
async function takeOver(t: Taking, link: LinkRow, caller: Caller, holder: string): Promise<LinkRow> {
  if (!caller || caller.id !== link.userId) assertHolder(link, holder);
  const moved = await moveAttempt(t.db, link, holder);
  if (moved) return moved;
  // it ended meanwhile: the error that says so
  assertTakeable(await current(t, link.linkId, caller), t.clock());
  throw testCompleted();
}

// ---------------------------------------------------------------- the calls

/** The refusals of a link that cannot be taken now, which `closed=state` answers as data. */
const CLOSED_CODES = new Set(['LINK_EXPIRED', 'TEST_COMPLETED', 'ASSESSMENT_NOT_YET_STARTED']);

/**
 * The Ready page (and a resume): the link with its view, read in one statement; the clock may change it
 * (then it is not takeable). `token`: the request's attempt token. `closed: 'state'`: a link that cannot
 * be taken now (expired, completed, not open yet) is answered as data, not as a failed request.
 */
export async function readyPage(
  t: Taking,
  linkId: string,
  token: string | undefined,
  asker: Asker,
  closed: 'error' | 'state' = 'error',
) {
  const holder = attemptTokenHash(linkId, token);
  const found = await findLinkWithView(t.db, linkId, asker.claimed);
  // no row: no such link (404), or a session that does not hold (401)
  const link = await current(t, linkId, found ? asker.claimed : await asker.read(), found?.link ?? null);
  try {
    assertTakeable(link, t.clock());
  } catch (err) {
    if (closed === 'state' && err instanceof HttpError && CLOSED_CODES.has(err.extra.errorCode ?? ''))
      return { linkId: link.linkId, closed: err.toBody(), sandbox: link.sandbox };
    throw err;
  }
  const view = found && link === found.link ? found.view : await takerView(t.db, link);
  return takerTest(t, link, view, link.startedAt !== null && holds(link, holder));
}

/**
 * The start: a link that may start now starts in one statement with its view, bound to the starting
 * browser's token; any other (already started, not yours, not open yet, expired, in a retake's cool-down)
 * takes the long way, which says why — or gives a started link back, or moves it here.
 */
export async function startTest(t: Taking, linkId: string, token: string, asker: Asker) {
  const now = t.clock();
  const holder = attemptTokenHash(linkId, token)!;
  const quick = await startNow(t.db, linkId, asker.claimed, holder, now, t.cooldownMs);
  if (quick) return takerTest(t, quick.link, quick.view, true);
  const caller = await asker.read();
  let link = await current(t, linkId, caller);
  assertTakeable(link, now);
  if (!link.startedAt) {
    await assertRetakeOpen(t.db, link, now, t.cooldownMs);
    link = await startLink(t.db, link, now, holder);
  }
  if (!holds(link, holder)) link = await takeOver(t, link, caller, holder);
  return takerTest(t, link, await takerView(t.db, link), true);
}

/** An answer to a test in progress, checked and saved in one statement; else the long way's error. */
export async function answer(
  t: Taking,
  linkId: string,
  token: string | undefined,
  given: GivenAnswer,
  asker: Asker,
) {
  const holder = attemptTokenHash(linkId, token);
  if (await saveAnswerNow(t.db, linkId, asker.claimed, holder, given, t.clock())) return;
  // any other: the link and the answered question's key in one read, and the error that applies
  const caller = await asker.read();
  const found = await findLinkWithQuestion(t.db, linkId, given.questionId);
  const link = await inProgress(t, linkId, caller, holder, found?.link ?? null);
  await saveAnswer(t.db, link, given, found?.question ?? null);
}

/** A focus-record event of a test in progress (integrity.ts). */
export async function recordActivity(
  t: Taking,
  event: CallBody<typeof testActivity>,
  token: string | undefined,
  caller: Caller,
) {
  const link = await inProgress(t, event.linkId, caller, attemptTokenHash(event.linkId, token));
  await recordFocusEvent(t.db, link, event, t.clock());
}

/**
 * The evaluation: the whole answer sheet of a test in progress scored and written in one statement (or,
 * when that statement finds anything else, what the long way needs to do it, read past the session's
 * check; no row: no such link, or a session that does not hold).
 */
export async function evaluate(
  t: Taking,
  body: CallBody<typeof evaluateTest>,
  token: string | undefined,
  asker: Asker,
) {
  const holder = attemptTokenHash(body.linkId, token);
  const now = await evaluateNow(t.db, body.linkId, asker.claimed, holder, body.answers, t.clock(), linkHooks);
  if (now && 'done' in now) return evaluated(t, now.done.link, now.done.scored, true);
  return evaluateRead(t, body, now ? asker.claimed : await asker.read(), holder, now?.read ?? null);
}
