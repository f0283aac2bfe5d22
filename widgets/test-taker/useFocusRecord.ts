/**
 * The focus record while the test runs (focus-record.ts sends it): the page left and back, the connection
 * lost and back, a second tab of the test open and closed — each with the question shown at the time.
 */
import * as takerCalls from '@shared/contract/assessments';
import { attemptHeaders } from '@shared/rules/attempt-token';
import { useEffect, useRef } from 'react';
import { useWidgetHost } from '../embed/host';
import { attemptTokenOf } from './attempt';
import { FocusReporter, isPresent } from './focus-record';

/** The reporter of the test's focus record, and the question shown (1-based) its events carry. */
export function useFocusRecord(linkId: string, secondTab: boolean) {
  const host = useWidgetHost();
  const reporter = useRef<FocusReporter | null>(null);
  const questionShown = useRef(1);
  useEffect(() => {
    const r = new FocusReporter({
      send: (e) =>
        host.client.call(takerCalls.testActivity, {
          body: { linkId, ...e },
          headers: attemptHeaders(attemptTokenOf(linkId)),
        }),
    });
    reporter.current = r;
    let present = isPresent();
    // where the learner is when the test opens here: an absence begun in a tab that had the test before
    // (reloaded, or handed over to this one) ends now, or one begins if this tab opens unseen
    r.record(present ? 'FOCUS' : 'BLUR', questionShown.current);
    const check = (e: Event) => {
      // the event says what happened (a window blur leaves, a hidden tab is left); a focus or a shown tab
      // is back only if the other is true too
      const visible = document.visibilityState !== 'hidden';
      const now = e.type === 'blur' ? false : e.type === 'focus' ? visible : visible && document.hasFocus();
      if (now === present) return;
      present = now;
      r.record(now ? 'FOCUS' : 'BLUR', questionShown.current);
    };
    const offline = () => r.record('OFFLINE', questionShown.current);
    const online = () => {
      r.record('ONLINE', questionShown.current);
      r.retryNow();
    };
    window.addEventListener('focus', check);
    window.addEventListener('blur', check);
    document.addEventListener('visibilitychange', check);
    window.addEventListener('offline', offline);
    window.addEventListener('online', online);
    if (typeof navigator !== 'undefined' && navigator.onLine === false) offline();
    return () => {
      window.removeEventListener('focus', check);
      window.removeEventListener('blur', check);
      document.removeEventListener('visibilitychange', check);
      window.removeEventListener('offline', offline);
      window.removeEventListener('online', online);
      r.stop();
    };
  }, [host.client, linkId]);

  // a second tab of this test: recorded while it is open
  useEffect(() => {
    if (!secondTab) return;
    reporter.current?.record('SECOND_TAB', questionShown.current);
    return () => reporter.current?.record('SECOND_TAB_CLOSED', questionShown.current);
  }, [secondTab]);

  return { reporter, questionShown };
}
