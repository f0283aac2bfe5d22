/**
 * How learning time is shown (learner §9): chart hours = seconds / 3600 with one decimal, card minutes =
 * seconds / 60 rounded, and durations with at most their two largest units.
 */

/** Hours with one decimal, for the daily chart. */
export const chartHours = (seconds: number) => Math.round(seconds / 360) / 10;

/** Whole minutes, for the resource cards. */
export const cardMinutes = (seconds: number) => Math.round(seconds / 60);

const UNITS = [
  ['d', 86_400],
  ['h', 3_600],
  ['m', 60],
  ['s', 1],
] as const;
type Unit = (typeof UNITS)[number][0];
const DURATION_FIELDS: Record<Unit, 'days' | 'hours' | 'minutes' | 'seconds'> = {
  d: 'days',
  h: 'hours',
  m: 'minutes',
  s: 'seconds',
};

/** The largest unit present and the next one (left out when zero); seconds rounded first. */
function twoLargest(seconds: number): [Unit, number][] {
  let rest = Math.max(0, Math.round(seconds));
  const parts: [Unit, number][] = UNITS.map(([unit, size]) => {
    const n = Math.floor(rest / size);
    rest -= n * size;
    return [unit, n];
  });
  const first = parts.findIndex(([, n]) => n > 0);
  if (first === -1) return [['s', 0]];
  return parts.slice(first, first + 2).filter(([, n]) => n > 0);
}

const isEnglish = (locale: string) => locale === 'en' || locale.startsWith('en-');

/** Intl.DurationFormat (ES2025; in every browser the portal supports and in Node 24), typed here. */
const DurationFormat = (
  Intl as unknown as {
    DurationFormat: new (
      locale: string,
      options: { style: 'narrow' | 'short' | 'long'; secondsDisplay?: 'always' | 'auto' },
    ) => { format(value: Record<string, number>): string };
  }
).DurationFormat;

/** A duration in `locale`'s words: `{ hours: 2, minutes: 5 }` → '2 h y 5 min' (short, Spanish). */
export const durationIn = (
  locale: string,
  style: 'narrow' | 'short' | 'long',
  value: Record<string, number>,
) => new DurationFormat(locale, { style }).format(value);

/** The two largest units in `Intl.DurationFormat`'s words of `locale` (narrow: '2 h y 5 min', long: '2 horas y 5 minutos'). */
function intlDuration(seconds: number, locale: string, style: 'narrow' | 'long'): string {
  const value: Record<string, number> = {};
  for (const [unit, n] of twoLargest(seconds)) value[DURATION_FIELDS[unit]] = n;
  // no time at all is '0 seconds' in the language: DurationFormat hides zero fields, and would say nothing
  if (Object.values(value).every((n) => n === 0))
    return new DurationFormat(locale, { style, secondsDisplay: 'always' }).format({ seconds: 0 });
  return durationIn(locale, style, value);
}

/**
 * '2h 5m', '45s', '1d 3h': the largest unit present and the next one (left out when zero). Seconds are
 * rounded first; nothing is '0s'. Another language than English writes them as `Intl.DurationFormat` does
 * (narrow).
 */
export function formatDuration(seconds: number, locale = 'en'): string {
  if (!isEnglish(locale)) return intlDuration(seconds, locale, 'narrow');
  return twoLargest(seconds)
    .map(([unit, n]) => `${n}${unit}`)
    .join(' ');
}

/** The same, spelled out for screen readers and titles: '2 hours 5 minutes' (in `locale`'s words). */
export function spokenDuration(seconds: number, locale = 'en'): string {
  if (!isEnglish(locale)) return intlDuration(seconds, locale, 'long');
  const names: Record<Unit, [string, string]> = {
    d: ['day', 'days'],
    h: ['hour', 'hours'],
    m: ['minute', 'minutes'],
    s: ['second', 'seconds'],
  };
  return twoLargest(seconds)
    .map(([unit, n]) => `${n} ${n === 1 ? names[unit][0] : names[unit][1]}`)
    .join(' ');
}

/** Average per day over a range of `days` days. */
export const averagePerDay = (totalSeconds: number, days: number) =>
  days > 0 ? Math.round(totalSeconds / days) : 0;
