/**
 * The test taker's calls to the server, each dispatching to the screen reducer (screen.ts): loading the
 * test by its link id, starting it (or moving it to this browser), and its evaluation — or the screen of
 * the server's refusal. The attempt token this browser holds goes with each (attempt.ts, decision 031).
 */
import { ApiError } from '@shared/client/client';
import * as takerCalls from '@shared/contract/assessments';
import { attemptHeaders } from '@shared/rules/attempt-token';
import { awardPath } from '@shared/rules/test-status';
import { type Dispatch, useCallback, useEffect, useState } from 'react';
import { useI18n } from '../core/i18n';
import { failure } from '../embed/failure';
import { useWidgetHost } from '../embed/host';
import type { AnswerPayload } from './answers';
import { attemptTokenOf, keepUntilDeadline, newTokenFor, tokenForStart } from './attempt';
import { clockOffset } from './clock';
import { siteHref } from './EndScreen';
import { readMemory, writeMemory } from './memory';
import { isGoneCode, messageOf, type Reason, type ScreenAction, type TakerTest } from './screen';

/** What an error says to the learner, in the page's language. */
function useSaid() {
  const { t } = useI18n();
  return useCallback((err: unknown) => messageOf(err, t), [t]);
}

/** The evaluation of the answers, and `fail`: the screen of a refusal, or the result of a test this tab took. */
export function useEvaluation(linkId: string, dispatch: Dispatch<ScreenAction>) {
  const host = useWidgetHost();
  const said = useSaid();
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
        dispatch({ type: 'evaluation-failed', reason, answers, code, message: said(err) });
      }
    },
    [host, linkId, said, dispatch],
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
      dispatch({ type: 'failed', code, message: said(err), retry });
      host.emit('wm-error', failure(said(err), err));
    },
    [evaluate, host, linkId, said, dispatch],
  );

  return { evaluate, fail };
}

/**
 * The test loaded by its link id, again on `reload` (Try again, or this tab taking over); with the offset
 * of the server's clock and whether the link is a sandbox's (decision 041: every screen says so).
 */
export function useTestLoad(linkId: string, dispatch: Dispatch<ScreenAction>, fail: (err: unknown) => void) {
  const host = useWidgetHost();
  const [offset, setOffset] = useState(0);
  const [attempt, setAttempt] = useState(0);
  const [sandbox, setSandbox] = useState(false);
  const reload = useCallback(() => setAttempt((n) => n + 1), []);

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

  return { offset, setOffset, sandbox, reload };
}

/** Start, and Continue in this browser: the test started (or moved here) with a token this browser keeps. */
export function useStartFlow(
  linkId: string,
  dispatch: Dispatch<ScreenAction>,
  fail: (err: unknown) => void,
  setOffset: (offset: number) => void,
) {
  const host = useWidgetHost();
  const said = useSaid();

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
      else dispatch({ type: 'start-failed', test, error: said(err) });
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
      else dispatch({ type: 'move-failed', error: said(err) });
    }
  }

  return { start, moveHere };
}
