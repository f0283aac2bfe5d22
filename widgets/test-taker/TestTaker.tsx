/**
 * The test page (mentor §2.14, §4 "Test page flow"; learner §2): loads a test by its link id and takes the
 * learner through Loading, Ready ('Ready to Take Test?' and its warnings; Start → Starting), Started
 * (question by question with Prev, Next and Finish, numbered navigation, the server's countdown, every
 * answer saved as it is given), Evaluating, the score gauge and the award step — or the screens of a link
 * that cannot be taken: Link Expired, Test Completed, Assessment Not Yet Started, Something Went Wrong.
 * A reload or a dropped connection resumes where the learner was, with every answer kept. The browser that
 * starts the test holds its attempt token (attempt.ts, decision 031) and alone writes it; another browser
 * shows that the test is open there, and the learner, signed in, may continue it here.
 *
 * The states and their transitions are screen.ts (a reducer over the Screen union); this file talks to
 * the server and dispatches; each screen is its own file.
 */
import { ApiError } from '@shared/client/client';
import * as takerCalls from '@shared/contract/assessments';
import { attemptHeaders } from '@shared/rules/attempt-token';
import { SANDBOX_TEXT } from '@shared/rules/sandbox';
import { awardPath } from '@shared/rules/test-status';
import { useCallback, useEffect, useId, useReducer, useRef, useState } from 'react';
import { failure } from '../embed/failure';
import { useWidgetHost } from '../embed/host';
import { Loader } from '../ui/Loader';
import type { AnswerPayload } from './answers';
import { attemptTokenOf, keepUntilDeadline, newTokenFor, tokenForStart } from './attempt';
import { clockOffset } from './clock';
import { ElsewhereScreen, ErrorScreen, GoneScreen, HeldElsewhereScreen, siteHref } from './EndScreen';
import { EvaluatingScreen } from './EvaluatingScreen';
import { readMemory, writeMemory } from './memory';
import type { TestTakerProps } from './props';
import { ReadyScreen } from './ReadyScreen';
import { RunningScreen } from './RunningScreen';
import { ScoreScreen } from './ScoreScreen';
import {
  INITIAL_SCREEN,
  isGoneCode,
  messageOf,
  type Reason,
  screenReducer,
  stateOf,
  type TakerTest,
} from './screen';
import { useTabCharge } from './useTabCharge';

/** The screens that are the test itself (not a failure nor a closed link): the first one drawn is wm-ready. */
const READY_STATES = new Set(['ready', 'started', 'open-elsewhere', 'open-in-another-browser', 'score']);

export function TestTaker({ linkId, headingLevel }: TestTakerProps) {
  const host = useWidgetHost();
  const level = headingLevel === '2' ? 2 : 1;
  const [screen, dispatch] = useReducer(screenReducer, INITIAL_SCREEN);
  const [offset, setOffset] = useState(0);
  const [attempt, setAttempt] = useState(0);
  /** A link of a tenant's sandbox (decision 041): every screen says so. */
  const [sandbox, setSandbox] = useState(false);
  const titleId = useId();
  /** The test last shown, for the score screen's subtitle. */
  const shown = useRef<TakerTest | null>(null);
  if ((screen.kind === 'ready' || screen.kind === 'started') && shown.current !== screen.test) {
    shown.current = screen.test;
  }

  const evaluate = useCallback(
    async (answers: AnswerPayload[], reason: Reason, before?: Promise<unknown>) => {
      dispatch({ type: 'evaluate', reason, answers });
      try {
        // what must reach the server first (the focus record's last events)
        await before;
        const res = await host.client.call(takerCalls.evaluateTest, {
          body: { linkId, answers },
          headers: attemptHeaders(attemptTokenOf(linkId)),
        });
        const result = res.data;
        writeMemory(linkId, { unsaved: [], index: 0 });
        dispatch({ type: 'evaluated', result });
        // the documented detail, field by field: what the server adds to its answer is not the event's
        host.emit('wm-evaluated', {
          linkId,
          testType: result.testType,
          score: result.score,
          percentage: result.percentage,
          questionCount: result.questionCount,
          status: result.status,
          certificateEligible: result.certificateEligible,
          awardHref: result.certificateEligible ? siteHref(host, awardPath(result.testType, linkId)) : null,
        });
      } catch (err) {
        const code = err instanceof ApiError ? err.errorCode : undefined;
        dispatch({ type: 'evaluation-failed', reason, answers, code, message: messageOf(err) });
      }
    },
    [host, linkId],
  );

  /** A refusal of the server: the screen of its error code, or the result of a test this tab took. */
  const fail = useCallback(
    (err: unknown) => {
      const code = err instanceof ApiError ? err.errorCode : undefined;
      if (code === 'TEST_COMPLETED' && readMemory(linkId).taken && attemptTokenOf(linkId)) {
        // this tab took the test: it ended (finished, or evaluated by the server when the time was up)
        void evaluate([], 'finish');
        return;
      }
      // a refusal (4xx) stays a refusal; a network failure or a server error may pass
      const retry = !(err instanceof ApiError && err.status < 500);
      dispatch({ type: 'failed', code, message: messageOf(err), retry });
      host.emit('wm-error', failure(messageOf(err), err));
    },
    [evaluate, host, linkId],
  );

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` reloads on Try again
  useEffect(() => {
    const controller = new AbortController();
    dispatch({ type: 'load' });
    const sentAt = Date.now();
    host.client
      .call(takerCalls.testLinkQuestions, {
        params: { id: linkId },
        // a link that cannot be taken answers as data, not as a failed request the browser would log
        query: { device: 'WEB', closed: 'state' },
        // whether this browser holds the started attempt, the answer says (attemptHeld)
        headers: attemptHeaders(attemptTokenOf(linkId)),
        signal: controller.signal,
      })
      .then((res) => {
        if (controller.signal.aborted) return;
        setSandbox(res.data.sandbox);
        if ('closed' in res.data) return fail(new ApiError(res.data.closed.statusCode, res.data.closed));
        setOffset(clockOffset(res.data.serverTime, Date.now(), sentAt));
        if (res.data.startedAt && res.data.attemptHeld) {
          writeMemory(linkId, { taken: true });
          keepUntilDeadline(linkId, res.data.deadlineAt);
        }
        dispatch({ type: 'loaded', test: res.data });
      })
      .catch((err: unknown) => {
        if (!controller.signal.aborted && (err as Error)?.name !== 'AbortError') fail(err);
      });
    return () => controller.abort();
  }, [host.client, linkId, attempt]);

  // one tab in charge of a started test: the others save nothing
  const [charging, setCharging] = useState(false);
  useEffect(() => {
    if (screen.kind === 'started') setCharging(true);
    else if (screen.kind !== 'loading') setCharging(false);
  }, [screen.kind]);
  const handOver = useRef<(() => Promise<unknown>) | null>(null);
  const charge = useTabCharge(linkId, charging, handOver);
  const wasElsewhere = useRef(false);
  useEffect(() => {
    if (charge.role === 'elsewhere') wasElsewhere.current = true;
    else if (charge.role === 'in-charge' && wasElsewhere.current) {
      // this tab takes over: what the other tab saved is read again from the server
      wasElsewhere.current = false;
      setAttempt((n) => n + 1);
    }
  }, [charge.role]);

  const state = stateOf(screen, charge.role);
  /** wm-ready: once per load, when its first screen that is not a failure is drawn. */
  const ready = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: reported once per screen
  useEffect(() => {
    host.emit('wm-state', { linkId, state });
    if (state === 'loading') ready.current = false;
    else if (!ready.current && READY_STATES.has(state)) {
      ready.current = true;
      host.emit('wm-ready', { linkId, state });
    }
  }, [state]);

  // a new screen after the learner acted (not the first one, nor the test itself): its heading gets the
  // focus, so keyboard and screen-reader users land on what changed
  const box = useRef<HTMLDivElement>(null);
  const settled = useRef(false);
  useEffect(() => {
    if (state === 'loading' || state === 'starting' || state === 'started') return;
    if (!settled.current) {
      settled.current = true;
      return;
    }
    const heading = box.current?.querySelector<HTMLElement>('h1, h2');
    if (heading) {
      heading.tabIndex = -1;
      heading.focus();
    }
  }, [state]);

  /** Starts (or moves here) the test with `token`; the clock's offset and the token's keeping follow. */
  async function verify(token: string) {
    const sentAt = Date.now();
    const res = await host.client.call(takerCalls.verifyTestLink, {
      params: { id: linkId },
      headers: attemptHeaders(token),
    });
    setOffset(clockOffset(res.data.serverTime, Date.now(), sentAt));
    keepUntilDeadline(linkId, res.data.deadlineAt);
    return res.data;
  }

  async function start(test: TakerTest) {
    dispatch({ type: 'start', test });
    try {
      // the token is kept before it is sent: a start whose answer is lost is asked again with it
      const started = await verify(tokenForStart(linkId));
      writeMemory(linkId, { taken: true, index: 0, unsaved: [] });
      dispatch({ type: 'started', test: started });
    } catch (err) {
      if (err instanceof ApiError) fail(err);
      else dispatch({ type: 'start-failed', test, error: messageOf(err) });
    }
  }

  /**
   * Continue in this browser: the learner, signed in, moves the attempt here with a new token; the other
   * browser stops saving. What this tab had not saved is dropped: the other browser's answers are newer.
   */
  async function moveHere() {
    dispatch({ type: 'move-here' });
    try {
      const moved = await verify(newTokenFor(linkId));
      writeMemory(linkId, { taken: true, unsaved: [] });
      dispatch({ type: 'started', test: moved, resumed: true });
    } catch (err) {
      const code = err instanceof ApiError ? err.errorCode : undefined;
      if (isGoneCode(code)) fail(err);
      else dispatch({ type: 'move-failed', error: messageOf(err) });
    }
  }

  return (
    <div ref={box} className="wm-taker">
      {sandbox ? (
        <p className="wm-sandbox" part="sandbox">
          <strong className="badge badge-warning">{SANDBOX_TEXT.mark}</strong> {SANDBOX_TEXT.test}
        </p>
      ) : null}
      {render()}
    </div>
  );

  function render() {
    const Title = level === 1 ? 'h1' : 'h2';
    switch (screen.kind) {
      case 'loading':
        return <Loader text="Loading the test…" />;
      case 'ready':
        return (
          <ReadyScreen
            test={screen.test}
            starting={Boolean(screen.starting)}
            error={screen.error}
            Title={Title}
            titleId={titleId}
            onStart={() => void start(screen.test)}
          />
        );
      case 'started':
        if (charge.role === 'deciding') return <Loader text="Opening the test…" />;
        if (charge.role === 'elsewhere')
          return <ElsewhereScreen onTakeOver={charge.takeOver} Title={Title} titleId={titleId} />;
        return (
          <RunningScreen
            key={linkId}
            linkId={linkId}
            test={screen.test}
            offset={offset}
            resumed={screen.resumed}
            level={level}
            otherTabs={charge.others}
            handOver={handOver}
            onSubmit={(answers, reason, before) => void evaluate(answers, reason, before)}
            onFatal={(err) => {
              if (err.errorCode === 'TEST_COMPLETED') void evaluate([], 'time-up');
              else fail(err);
            }}
          />
        );
      case 'held-elsewhere':
        return (
          <HeldElsewhereScreen
            signedIn={host.role() === 'USER'}
            moving={Boolean(screen.moving)}
            error={screen.error}
            onMoveHere={() => void moveHere()}
            Title={Title}
            titleId={titleId}
          />
        );
      case 'evaluating':
        return (
          <EvaluatingScreen
            reason={screen.reason}
            error={screen.error}
            onRetry={() => void evaluate(screen.answers, screen.reason)}
            Title={Title}
            titleId={titleId}
          />
        );
      case 'score':
        return (
          <ScoreScreen
            result={screen.result}
            linkId={linkId}
            testTitle={shown.current?.title ?? null}
            Title={Title}
            titleId={titleId}
          />
        );
      case 'gone':
        return <GoneScreen code={screen.code} message={screen.message} Title={Title} titleId={titleId} />;
      default:
        return (
          <ErrorScreen
            message={screen.message}
            retry={screen.retry}
            onRetry={() => setAttempt((n) => n + 1)}
            Title={Title}
            titleId={titleId}
          />
        );
    }
  }
}
