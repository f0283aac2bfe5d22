/**
 * Awards that expire (issue 30, decision 037): a test may have a validity period in months; an award earned
 * while a period is in force is valid until that many calendar months after it was earned — or, when it
 * renews an award of the same test that is still valid, after that award's end. Nothing expires
 * retroactively: an award earned before a period was set keeps no end. Pure, so the credential, the award
 * pages, the widget, the reminders and the CLI say the same dates in the same words.
 */
import { formatDate } from './format-date';
import { addMonths } from './seats';

export { addMonths };

/** The learner is reminded this many days before an award expires. */
export const REMINDER_DAYS = 30;
/** The periods an author may choose, in months. */
export const VALIDITY_MONTHS = [6, 12, 24, 36] as const;
/** The longest period accepted, in months. */
export const MAX_VALIDITY_MONTHS = 120;

/** A validity period in force from a moment on (months null: awards earned from then on have no end). */
export interface ValidityPeriod {
  months: number | null;
  from: Date;
}

/** The period in force at `at`: the latest set at or before it; null when none was (or it has no end). */
export function monthsAt(periods: readonly ValidityPeriod[], at: Date): number | null {
  let months: number | null = null;
  let latest = -Infinity;
  for (const p of periods) {
    const t = p.from.getTime();
    if (t <= at.getTime() && t >= latest) {
      latest = t;
      months = p.months;
    }
  }
  return months;
}

/**
 * The end of each award of one learner's test, in the order earned (`earned`: when each was earned): the
 * period in force then, counted from the award's own date, or from the end of the award it renews when that
 * one was still valid.
 */
export function validUntilChain(
  periods: readonly ValidityPeriod[],
  earned: readonly Date[],
): (Date | null)[] {
  const out: (Date | null)[] = [];
  let previous: Date | null = null;
  for (const at of earned) {
    const months = monthsAt(periods, at);
    if (months === null) {
      out.push(null);
      previous = null;
      continue;
    }
    const base: Date = previous && previous.getTime() > at.getTime() ? previous : at;
    const until = addMonths(base, months);
    out.push(until);
    previous = until;
  }
  return out;
}

export type ValidityState = 'no-end' | 'valid' | 'expiring' | 'expired';

/** Where an award stands: no end, valid, within the reminder's days of its end, or expired. */
export function validityState(
  validUntil: Date | string | null,
  now: Date | number = Date.now(),
): ValidityState {
  if (validUntil === null) return 'no-end';
  const end = new Date(validUntil).getTime();
  const t = new Date(now).getTime();
  if (end <= t) return 'expired';
  return end - t <= REMINDER_DAYS * 86_400_000 ? 'expiring' : 'valid';
}

/**
 * What `validityWords` says, by its message key and values (decision 048): said in the reader's language
 * with `t(code, params)`; `day` is the date as `locale` writes it.
 */
export function validitySaid(
  validUntil: Date | string | null,
  now: Date | number = Date.now(),
  timeZone = 'UTC',
  locale = 'en',
):
  | { code: 'validity.words'; params: { state: 'expired' | 'valid'; day: string } }
  | { code: 'validity.noEndDate'; params: Record<string, never> } {
  if (validUntil === null) return { code: 'validity.noEndDate', params: {} };
  const state = validityState(validUntil, now) === 'expired' ? 'expired' : 'valid';
  return { code: 'validity.words', params: { state, day: formatDate(validUntil, timeZone, locale) } };
}

/**
 * 'Valid until 3rd Mar 2027', 'Expired on 3rd Mar 2027', or 'Valid with no end date', in plain English (the
 * CLI's words; validity.test.ts holds them equal to en.json's `validity.words` / `validity.noEndDate`).
 */
export function validityWords(
  validUntil: Date | string | null,
  now: Date | number = Date.now(),
  timeZone = 'UTC',
): string {
  const said = validitySaid(validUntil, now, timeZone);
  if (said.code === 'validity.noEndDate') return 'Valid with no end date';
  return said.params.state === 'expired' ? `Expired on ${said.params.day}` : `Valid until ${said.params.day}`;
}
