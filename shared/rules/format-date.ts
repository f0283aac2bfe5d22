/**
 * Dates as the product shows them. In English, the specification's 'Do MMM YYYY hh:mm a', e.g. '3rd Mar
 * 2026 04:05 pm' (mentor §9); in another language, as `Intl.DateTimeFormat` writes that language's dates
 * (its medium date and short time).
 */
export function ordinal(day: number): string {
  const teen = day % 100 >= 11 && day % 100 <= 13;
  const suffix = teen ? 'th' : day % 10 === 1 ? 'st' : day % 10 === 2 ? 'nd' : day % 10 === 3 ? 'rd' : 'th';
  return `${day}${suffix}`;
}

const isEnglish = (locale: string) => locale === 'en' || locale.startsWith('en-');

function valid(value: string | number | Date): Date | null {
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** In the viewer's time zone unless `timeZone` is given (e.g. 'UTC' in tests). */
export function formatDateTime(value: string | number | Date, timeZone?: string, locale = 'en'): string {
  const d = valid(value);
  if (!d) return '—';
  if (!isEnglish(locale))
    return new Intl.DateTimeFormat(locale, { timeZone, dateStyle: 'medium', timeStyle: 'short' }).format(d);
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

export function formatDate(value: string | number | Date, timeZone?: string, locale = 'en'): string {
  const d = valid(value);
  if (!d) return '—';
  if (!isEnglish(locale)) return new Intl.DateTimeFormat(locale, { timeZone, dateStyle: 'medium' }).format(d);
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', { timeZone, day: 'numeric', month: 'short', year: 'numeric' })
      .formatToParts(d)
      .map((p) => [p.type, p.value]),
  ) as Record<string, string>;
  return `${ordinal(Number(parts.day))} ${parts.month} ${parts.year}`;
}

/** A time of day with seconds, 'hh:mm:ss am' like the product's dates (for timelines). */
export function formatClock(value: string | number | Date, timeZone?: string, locale = 'en'): string {
  const d = valid(value);
  if (!d) return '—';
  if (!isEnglish(locale)) return new Intl.DateTimeFormat(locale, { timeZone, timeStyle: 'medium' }).format(d);
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

/** The months' names in `locale`, January first (the calendar's headings and a day's long form). */
export function monthNames(locale = 'en'): string[] {
  const f = new Intl.DateTimeFormat(locale, { month: 'long', timeZone: 'UTC' });
  return Array.from({ length: 12 }, (_, m) => f.format(Date.UTC(2024, m, 15)));
}

/** The months' names in English, January first. */
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
