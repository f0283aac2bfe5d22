/**
 * The test's clock is the server's (docs/decisions/004): the page learns the server's time with each
 * load, corrects the local clock by the difference, and counts down to the server's deadline.
 */
import { durationIn } from '@shared/rules/durations';

/**
 * How far the server's clock is ahead of this one (ms). The server read its clock somewhere between
 * sending and receiving: the middle of the round trip is the best guess.
 */
export function clockOffset(serverTime: string, receivedAt: number, sentAt = receivedAt): number {
  const server = Date.parse(serverTime);
  if (Number.isNaN(server)) return 0;
  return server - (sentAt + receivedAt) / 2;
}

/** Milliseconds left until the deadline on the server's clock; null without a deadline. */
export function remainingMs(deadlineAt: string | null, offset: number, now = Date.now()): number | null {
  if (!deadlineAt) return null;
  const end = Date.parse(deadlineAt);
  if (Number.isNaN(end)) return null;
  return Math.max(0, end - (now + offset));
}

const pad = (n: number) => String(n).padStart(2, '0');

/** 'm:ss', or 'h:mm:ss' from an hour (custom tests last hours). Whole seconds, rounded up. */
export function formatRemaining(ms: number): string {
  const total = Math.ceil(Math.max(0, ms) / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return h > 0 ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}

/**
 * The same, for a screen reader: '1 hour 5 minutes', '4 minutes 30 seconds', '20 seconds' (in another
 * language, as its `Intl.DurationFormat` says them).
 */
export function spokenRemaining(ms: number, locale = 'en'): string {
  const total = Math.ceil(Math.max(0, ms) / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (locale !== 'en' && !locale.startsWith('en-')) {
    const value: Record<string, number> =
      h > 0 ? { hours: h, minutes: m } : m > 0 ? { minutes: m, seconds: s } : { seconds: s };
    return durationIn(locale, 'long', value);
  }
  const unit = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;
  const parts =
    h > 0
      ? [unit(h, 'hour'), m ? unit(m, 'minute') : '']
      : [m ? unit(m, 'minute') : '', s ? unit(s, 'second') : ''];
  return parts.filter(Boolean).join(' ') || '0 seconds';
}

/** The moments announced to screen readers as the time runs out (ms left). */
export const ANNOUNCE_AT = [5 * 60_000, 60_000, 30_000] as const;

/** The announcement due when the time left went from `before` to `now`, if one was crossed. */
export function crossedAnnouncement(before: number, now: number): number | null {
  for (const mark of ANNOUNCE_AT) if (before > mark && now <= mark) return mark;
  return null;
}
