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

/**
 * '2h 5m', '45s', '1d 3h': the largest unit present and the next one (left out when zero). Seconds are
 * rounded first; nothing is '0s'.
 */
export function formatDuration(seconds: number): string {
  let rest = Math.max(0, Math.round(seconds));
  const parts: [string, number][] = UNITS.map(([unit, size]) => {
    const n = Math.floor(rest / size);
    rest -= n * size;
    return [unit, n];
  });
  const first = parts.findIndex(([, n]) => n > 0);
  if (first === -1) return '0s';
  return parts
    .slice(first, first + 2)
    .filter(([, n]) => n > 0)
    .map(([unit, n]) => `${n}${unit}`)
    .join(' ');
}

/** The same, spelled out for screen readers and titles: '2 hours 5 minutes'. */
export function spokenDuration(seconds: number): string {
  const names: Record<string, [string, string]> = {
    d: ['day', 'days'],
    h: ['hour', 'hours'],
    m: ['minute', 'minutes'],
    s: ['second', 'seconds'],
  };
  return formatDuration(seconds)
    .split(' ')
    .map((part) => {
      const n = Number.parseInt(part, 10);
      const unit = part.replace(/^\d+/, '');
      const [one, many] = names[unit] ?? [unit, unit];
      return `${n} ${n === 1 ? one : many}`;
    })
    .join(' ');
}

/** Average per day over a range of `days` days. */
export const averagePerDay = (totalSeconds: number, days: number) =>
  days > 0 ? Math.round(totalSeconds / days) : 0;
