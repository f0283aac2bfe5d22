/**
 * The countdown of the running test, on the server's clock (clock.ts): the time left every half second,
 * the marks it crosses told to screen readers, and the test finished when the time is up.
 */
import { useEffect, useRef, useState } from 'react';
import { useI18n } from '../core/i18n';
import { crossedAnnouncement, remainingMs, spokenRemaining } from './clock';

/** The time left (ms, null without a deadline) and the last mark crossed, as a sentence for a live region. */
export function useCountdown(deadlineAt: string | null, offset: number, finish: (reason: 'time-up') => void) {
  const { t, locale } = useI18n();
  const [now, setNow] = useState(() => Date.now());
  const [announcement, setAnnouncement] = useState('');
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(timer);
  }, []);
  const left = remainingMs(deadlineAt, offset, now);
  const previousLeft = useRef(left);

  useEffect(() => {
    if (left === null) return;
    const mark = previousLeft.current === null ? null : crossedAnnouncement(previousLeft.current, left);
    previousLeft.current = left;
    if (mark !== null)
      setAnnouncement(t('test.timeLeftAnnouncement', { time: spokenRemaining(mark, locale) }));
    if (left === 0) finish('time-up');
  }, [left, finish, t, locale]);

  return { left, announcement };
}
