import { describe, expect, it } from 'vitest';
import {
  INITIAL_SCREEN,
  type Screen,
  type ScreenAction,
  screenReducer,
  stateOf,
  type TakerTest,
} from './screen';

const test = (startedAt: string | null, attemptHeld = startedAt !== null) =>
  ({ title: 'A test', startedAt, attemptHeld }) as unknown as TakerTest;
const run = (...actions: ScreenAction[]) => actions.reduce<Screen>(screenReducer, INITIAL_SCREEN);

describe("the test page's states", () => {
  it('loads to Ready, or straight to the test when it was started already (a reload)', () => {
    expect(run({ type: 'loaded', test: test(null) })).toMatchObject({ kind: 'ready' });
    expect(run({ type: 'loaded', test: test('2026-01-01T00:00:00Z') })).toMatchObject({
      kind: 'started',
      resumed: true,
    });
  });

  it('starts: Starting, then the test; a failure without a refusal goes back to Ready with its message', () => {
    const t = test(null);
    const starting = run({ type: 'loaded', test: t }, { type: 'start', test: t });
    expect(stateOf(starting, 'deciding')).toBe('starting');
    expect(screenReducer(starting, { type: 'started', test: t })).toEqual({
      kind: 'started',
      test: t,
      resumed: false,
    });
    expect(screenReducer(starting, { type: 'start-failed', test: t, error: 'offline' })).toEqual({
      kind: 'ready',
      test: t,
      error: 'offline',
    });
  });

  it('evaluates to the score, keeps the answers to try again, and ends on a refusal of its own', () => {
    const answers = [{ questionId: 'q1', answerId: 'o1' }];
    const evaluating = run({ type: 'evaluate', reason: 'time-up', answers });
    expect(stateOf(evaluating, 'in-charge')).toBe('evaluating');
    expect(
      screenReducer(evaluating, { type: 'evaluation-failed', reason: 'time-up', answers, message: 'down' }),
    ).toEqual({ kind: 'evaluating', reason: 'time-up', answers, error: 'down' });
    const gone = screenReducer(evaluating, {
      type: 'evaluation-failed',
      reason: 'finish',
      answers,
      code: 'LINK_EXPIRED',
      message: 'This link has expired.',
    });
    expect(gone).toEqual({ kind: 'gone', code: 'LINK_EXPIRED', message: 'This link has expired.' });
    expect(stateOf(gone, 'in-charge')).toBe('expired');
  });

  it('names the screens of a refusal, and Something Went Wrong for any other failure', () => {
    const states = [
      'LINK_EXPIRED',
      'TEST_COMPLETED',
      'ASSESSMENT_NOT_YET_STARTED',
      'NOT_FOUND',
      undefined,
    ].map((code) => stateOf(run({ type: 'failed', code, message: 'm', retry: false }), 'deciding'));
    expect(states).toEqual(['expired', 'completed', 'not-yet-started', 'error', 'error']);
    expect(run({ type: 'failed', message: 'network', retry: true })).toEqual({
      kind: 'error',
      message: 'network',
      retry: true,
    });
  });

  it('reads a started test another tab is in charge of as open elsewhere', () => {
    const started = run({ type: 'loaded', test: test('2026-01-01T00:00:00Z') });
    expect(stateOf(started, 'elsewhere')).toBe('open-elsewhere');
    expect(stateOf(started, 'in-charge')).toBe('started');
  });

  it('reads a started test another browser holds as open there, and any write refused for that the same', () => {
    const held = run({ type: 'loaded', test: test('2026-01-01T00:00:00Z', false) });
    expect(held).toEqual({ kind: 'held-elsewhere' });
    expect(stateOf(held, 'deciding')).toBe('open-in-another-browser');
    const t = test('2026-01-01T00:00:00Z');
    for (const code of ['ATTEMPT_TOKEN_REQUIRED', 'ATTEMPT_TOKEN_INVALID']) {
      expect(run({ type: 'loaded', test: t }, { type: 'failed', code, message: 'm', retry: false })).toEqual({
        kind: 'held-elsewhere',
      });
      expect(
        run(
          { type: 'evaluate', reason: 'finish', answers: [] },
          {
            type: 'evaluation-failed',
            reason: 'finish',
            answers: [],
            code,
            message: 'm',
          },
        ),
      ).toEqual({ kind: 'held-elsewhere' });
    }
    // continuing here: moving, then the test (a resume) or why not
    const moving = screenReducer(held, { type: 'move-here' });
    expect(moving).toEqual({ kind: 'held-elsewhere', moving: true });
    expect(screenReducer(moving, { type: 'started', test: t, resumed: true })).toEqual({
      kind: 'started',
      test: t,
      resumed: true,
    });
    expect(screenReducer(moving, { type: 'move-failed', error: 'Not yours' })).toEqual({
      kind: 'held-elsewhere',
      error: 'Not yours',
    });
  });
});
