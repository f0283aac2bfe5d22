/**
 * Learning days (learner §2 dashboard, mentor §2.5 analytics): the calendar heatmap of the last 12 months
 * and the streaks, from the minutes learnt per UTC day (the daily rollups).
 *
 * - A learning day is a UTC day with at least LEARNING_DAY_SECONDS learnt.
 * - The heatmap runs from the day after the same date a year before today (29 February falls back to
 *   28 February) to today, UTC: 365 days, or 366 when a 29 February is among them.
 * - The current streak is the run of learning days ending today — or yesterday, while today has no
 *   learning yet: a streak ends only once a whole day has passed without learning.
 * - The longest streak is the longest run of learning days ever.
 */
import type { MessageKey } from '../i18n/keys';

/** A day counts as a learning day from one minute. */
export const LEARNING_DAY_SECONDS = 60;

const DAY_MS = 86_400_000;

/** 'YYYY-MM-DD' of a unix-millisecond time, UTC. */
export const isoDayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The day number (days since 1970-01-01) of 'YYYY-MM-DD'. */
export const dayNumber = (iso: string) => Math.floor(Date.parse(`${iso}T00:00:00Z`) / DAY_MS);

export const isoOfDayNumber = (n: number) => isoDayOf(n * DAY_MS);

export const addDays = (iso: string, days: number) => isoOfDayNumber(dayNumber(iso) + days);

/** The same calendar date a year earlier; 29 February becomes 28 February. */
export function sameDateYearBefore(iso: string): string {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  const year = y - 1;
  const last = new Date(Date.UTC(year, m, 0)).getUTCDate(); // days in that month of that year
  return `${String(year).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(Math.min(d, last)).padStart(2, '0')}`;
}

/** The heatmap's days: from the day after the same date a year before `today`, to `today`. */
export function heatmapRange(today: string): { from: string; to: string } {
  return { from: addDays(sameDateYearBefore(today), 1), to: today };
}

export interface Streaks {
  /** Learning days in a row up to today (or up to yesterday while today has none yet). */
  current: number;
  /** The last day of the current streak; null when there is none. */
  currentEnd: string | null;
  longest: number;
  /** The last day of the longest streak (the most recent one when two are as long); null when none. */
  longestEnd: string | null;
}

/**
 * The streaks of `learningDays` ('YYYY-MM-DD', any order, duplicates ignored) as of `today`. Days after
 * today (a clock ahead) are left out.
 */
export function streaksOf(learningDays: readonly string[], today: string): Streaks {
  const todayN = dayNumber(today);
  const days = [...new Set(learningDays.map(dayNumber))].filter((n) => n <= todayN).sort((a, b) => a - b);
  let longest = 0;
  let longestEnd: number | null = null;
  let run = 0;
  for (let i = 0; i < days.length; i++) {
    run = i > 0 && days[i] === days[i - 1]! + 1 ? run + 1 : 1;
    if (run >= longest) {
      longest = run;
      longestEnd = days[i]!;
    }
  }
  const last = days[days.length - 1];
  const alive = last !== undefined && last >= todayN - 1;
  return {
    current: alive ? run : 0,
    currentEnd: alive ? isoOfDayNumber(last) : null,
    longest,
    longestEnd: longestEnd === null ? null : isoOfDayNumber(longestEnd),
  };
}

/** How dark a heatmap cell is: 0 nothing, 1 under 15 minutes, 2 under 30, 3 under an hour, 4 an hour or more. */
export function heatLevel(seconds: number): 0 | 1 | 2 | 3 | 4 {
  if (seconds < LEARNING_DAY_SECONDS) return 0;
  if (seconds < 15 * 60) return 1;
  if (seconds < 30 * 60) return 2;
  if (seconds < 60 * 60) return 3;
  return 4;
}

/** What each shade of the heatmap means (message keys). */
export const HEAT_LEGEND = [
  'days.legend0',
  'days.legend1',
  'days.legend2',
  'days.legend3',
  'days.legend4',
] as const satisfies readonly MessageKey[];

export interface HeatCell {
  date: string;
  seconds: number;
  level: 0 | 1 | 2 | 3 | 4;
}

/**
 * The heatmap as weeks (columns) of seven days, Monday first; days outside the range are null. `seconds`
 * maps 'YYYY-MM-DD' to the seconds learnt that day.
 */
export function heatmapWeeks(
  range: { from: string; to: string },
  seconds: ReadonlyMap<string, number>,
): (HeatCell | null)[][] {
  const from = dayNumber(range.from);
  const to = dayNumber(range.to);
  // 1970-01-01 was a Thursday: (n + 3) % 7 is 0 on Mondays
  const start = from - ((from + 3) % 7);
  const weeks: (HeatCell | null)[][] = [];
  for (let w = start; w <= to; w += 7) {
    const week: (HeatCell | null)[] = [];
    for (let d = w; d < w + 7; d++) {
      if (d < from || d > to) week.push(null);
      else {
        const date = isoOfDayNumber(d);
        const s = seconds.get(date) ?? 0;
        week.push({ date, seconds: s, level: heatLevel(s) });
      }
    }
    weeks.push(week);
  }
  return weeks;
}
