/** Dates as the product shows them: 'Do MMM YYYY hh:mm a', e.g. '3rd Mar 2026 04:05 pm' (mentor §9). */
export function ordinal(day: number): string {
  const teen = day % 100 >= 11 && day % 100 <= 13;
  const suffix = teen ? 'th' : day % 10 === 1 ? 'st' : day % 10 === 2 ? 'nd' : day % 10 === 3 ? 'rd' : 'th';
  return `${day}${suffix}`;
}

/** In the viewer's time zone unless `timeZone` is given (e.g. 'UTC' in tests). */
export function formatDateTime(value: string | number | Date, timeZone?: string): string {
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return '—';
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone,
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hour12: true,
    })
      .formatToParts(d)
      .map((p) => [p.type, p.value]),
  ) as Record<string, string>;
  const hour = String(Number(parts.hour) || 12).padStart(2, '0');
  return `${ordinal(Number(parts.day))} ${parts.month} ${parts.year} ${hour}:${parts.minute} ${(parts.dayPeriod ?? '').toLowerCase()}`;
}

export function formatDate(value: string | number | Date, timeZone?: string): string {
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return '—';
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', { timeZone, day: 'numeric', month: 'short', year: 'numeric' })
      .formatToParts(d)
      .map((p) => [p.type, p.value]),
  ) as Record<string, string>;
  return `${ordinal(Number(parts.day))} ${parts.month} ${parts.year}`;
}

/** A time of day with seconds, 'hh:mm:ss am' like the product's dates (for timelines). */
export function formatClock(value: string | number | Date, timeZone?: string): string {
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return '—';
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone,
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hour12: true,
    })
      .formatToParts(d)
      .map((p) => [p.type, p.value]),
  ) as Record<string, string>;
  const hour = String(Number(parts.hour) || 12).padStart(2, '0');
  return `${hour}:${parts.minute}:${parts.second} ${(parts.dayPeriod ?? '').toLowerCase()}`;
}

/** The months' names in English, January first (the calendar's headings and a day's long form). */
export const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;
