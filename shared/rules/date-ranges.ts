/**
 * The dashboard's date ranges (learner §9, mentor §9): Yesterday, Past 7 days (the default) and Last 28
 * Days, all ending at the end of yesterday with UTC day bounds, in unix seconds.
 */

export const DATE_RANGES = ['Yesterday', 'Past 7 days', 'Last 28 Days'] as const;
export type DateRangeName = (typeof DATE_RANGES)[number];
export const DEFAULT_DATE_RANGE: DateRangeName = 'Past 7 days';

export const DAYS_IN_RANGE: Record<DateRangeName, number> = {
  Yesterday: 1,
  'Past 7 days': 7,
  'Last 28 Days': 28,
};

const DAY_SECONDS = 86_400;

/** Unix seconds of the UTC midnight that starts the day holding `unixSeconds`. */
export const utcDayStart = (unixSeconds: number) => Math.floor(unixSeconds / DAY_SECONDS) * DAY_SECONDS;

export interface TimeRange {
  /** First second of the first day, UTC. */
  startTime: number;
  /** Last second of yesterday, UTC. */
  endTime: number;
}

/** The range `name` as of `nowMs` (default: now). */
export function dateRange(name: DateRangeName, nowMs: number = Date.now()): TimeRange {
  const today = utcDayStart(Math.floor(nowMs / 1000));
  return { startTime: today - DAYS_IN_RANGE[name] * DAY_SECONDS, endTime: today - 1 };
}

/** The UTC day starts (unix seconds) from the day of startTime to the day of endTime, both included. */
export function daysOf(range: TimeRange): number[] {
  const out: number[] = [];
  for (let d = utcDayStart(range.startTime); d <= range.endTime; d += DAY_SECONDS) out.push(d);
  return out;
}

/** 'Mon 3 Mar' style label of a UTC day, for chart axes (in another language, as Intl writes it). */
export function dayLabel(dayStart: number, locale = 'en'): string {
  const d = new Date(dayStart * 1000);
  if (locale !== 'en' && !locale.startsWith('en-'))
    return new Intl.DateTimeFormat(locale, {
      timeZone: 'UTC',
      weekday: 'short',
      day: 'numeric',
      month: 'short',
    }).format(d);
  const weekday = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][d.getUTCDay()];
  const month = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][
    d.getUTCMonth()
  ];
  return `${weekday} ${d.getUTCDate()} ${month}`;
}
