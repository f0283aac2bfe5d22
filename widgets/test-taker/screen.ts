/**
 * The test page's states (mentor §2.14, §4 "Test page flow") as one union and the reducer that moves
 * between them: Loading → Ready (→ Starting) → Started → Evaluating → Score, or one of the screens of a
 * link that cannot be taken (Link Expired, Test Completed, Assessment Not Yet Started) or Something Went
 * Wrong — or, for a test another browser holds (decision 031), the notice that it is open there. TestTaker.tsx dispatches; each screen has its own file (ReadyScreen, RunningScreen,
 * EvaluatingScreen, ScoreScreen, EndScreen).
 */

import type * as takerCalls from '@shared/contract/assessments';
import type { CallSuccess } from '@shared/contract/define';
import { isAttemptTokenCode } from '@shared/rules/attempt-token';
import type { AnswerPayload } from './answers';
import type { ChargeState } from './tab-charge';

/** The test as the test page gets it (a link that cannot be taken comes as an error, or as `closed`). */
export type TakerTest = CallSuccess<typeof takerCalls.verifyTestLink>['data'];
export type EvaluationResult = CallSuccess<typeof takerCalls.evaluateTest>['data'];
/** Why the test is evaluated: the learner finished, or the time was up. */
export type Reason = 'finish' | 'time-up';

/** The refusals of the server that end the page with a screen of their own. */
export const GONE = {
  LINK_EXPIRED: { title: 'Link Expired', state: 'expired', newLink: true },
  TEST_COMPLETED: { title: 'Test Completed', state: 'completed', newLink: true },
  ASSESSMENT_NOT_YET_STARTED: {
    title: 'Assessment Not Yet Started',
    state: 'not-yet-started',
    newLink: false,
  },
} as const;
export type GoneCode = keyof typeof GONE;
export const isGoneCode = (code: string | undefined): code is GoneCode => code !== undefined && code in GONE;

export type Screen =
  | { kind: 'loading' }
  | { kind: 'ready'; test: TakerTest; starting?: boolean; error?: string }
  | { kind: 'started'; test: TakerTest; resumed: boolean }
  /**
   * Started in another browser, which alone saves its answers (or moved there): this one writes nothing.
   * `moving`: this browser asked to continue the test here; `error`: why it could not.
   */
  | { kind: 'held-elsewhere'; moving?: boolean; error?: string }
  | { kind: 'evaluating'; reason: Reason; answers: AnswerPayload[]; error?: string }
  | { kind: 'score'; result: EvaluationResult }
  | { kind: 'gone'; code: GoneCode; message: string }
  | { kind: 'error'; message: string; retry: boolean };

export type ScreenAction =
  /** The test is (re)loaded. */
  | { type: 'load' }
  /** The test arrived: started already (a reload, another tab) or ready to start. */
  | { type: 'loaded'; test: TakerTest }
  /** Start was pressed; then the server started it, or starting failed without a refusal. */
  | { type: 'start'; test: TakerTest }
  | { type: 'started'; test: TakerTest; resumed?: boolean }
  | { type: 'start-failed'; test: TakerTest; error: string }
  /** The answers are sent for evaluation; then the result, or a failure to try again. */
  | { type: 'evaluate'; reason: Reason; answers: AnswerPayload[] }
  | { type: 'evaluated'; result: EvaluationResult }
  | { type: 'evaluation-failed'; reason: Reason; answers: AnswerPayload[]; code?: string; message: string }
  /** Another browser holds the attempt (the test loaded started, or a write was refused for that). */
  | { type: 'held-elsewhere' }
  /** Continue in this browser was pressed; then it failed (a success is `started`). */
  | { type: 'move-here' }
  | { type: 'move-failed'; error: string }
  /** The server refused (its error code, when it gave one) or could not be reached. */
  | { type: 'failed'; code?: string; message: string; retry: boolean };

export const INITIAL_SCREEN: Screen = { kind: 'loading' };

export function screenReducer(_screen: Screen, action: ScreenAction): Screen {
  switch (action.type) {
    case 'load':
      return { kind: 'loading' };
    case 'loaded':
      if (!action.test.startedAt) return { kind: 'ready', test: action.test };
      return action.test.attemptHeld
        ? { kind: 'started', test: action.test, resumed: true }
        : { kind: 'held-elsewhere' };
    case 'start':
      return { kind: 'ready', test: action.test, starting: true };
    case 'started':
      return { kind: 'started', test: action.test, resumed: action.resumed ?? false };
    case 'held-elsewhere':
      return { kind: 'held-elsewhere' };
    case 'move-here':
      return { kind: 'held-elsewhere', moving: true };
    case 'move-failed':
      return { kind: 'held-elsewhere', error: action.error };
    case 'start-failed':
      return { kind: 'ready', test: action.test, error: action.error };
    case 'evaluate':
      return { kind: 'evaluating', reason: action.reason, answers: action.answers };
    case 'evaluated':
      return { kind: 'score', result: action.result };
    case 'evaluation-failed':
      if (isAttemptTokenCode(action.code)) return { kind: 'held-elsewhere' };
      return isGoneCode(action.code)
        ? { kind: 'gone', code: action.code, message: action.message }
        : { kind: 'evaluating', reason: action.reason, answers: action.answers, error: action.message };
    case 'failed':
      if (isAttemptTokenCode(action.code)) return { kind: 'held-elsewhere' };
      return isGoneCode(action.code)
        ? { kind: 'gone', code: action.code, message: action.message }
        : { kind: 'error', message: action.message, retry: action.retry };
  }
}

/** The name of a screen in `wm-state` events. */
export function stateOf(screen: Screen, charge: ChargeState['role']): string {
  if (screen.kind === 'ready' && screen.starting) return 'starting';
  if (screen.kind === 'held-elsewhere') return 'open-in-another-browser';
  if (screen.kind === 'started' && charge === 'elsewhere') return 'open-elsewhere';
  if (screen.kind === 'gone') return GONE[screen.code].state;
  return screen.kind;
}

/** What went wrong, as the learner reads it. */
export const messageOf = (err: unknown) =>
  err instanceof Error && err.message ? err.message : 'The request failed. Please try again.';
