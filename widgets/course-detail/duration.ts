/**
 * Durations on the course page (learner §9, mentor §9). Display with at most the two largest units is
 * the shared rule (shared/rules/durations.ts); here: a resource's span and the course's hours.
 */
export { formatDuration, spokenDuration } from '@shared/rules/durations';

export interface TimeMarkLike {
  hour: number;
  minute: number;
  second: number;
}

const markSeconds = (m: TimeMarkLike) => m.hour * 3600 + m.minute * 60 + m.second;

/** A resource's duration: end minus start in seconds, a negative (or unknown) span counted as 0. */
export function resourceSeconds(r: { start: TimeMarkLike | null; end: TimeMarkLike | null }): number {
  if (!r.end) return 0;
  return Math.max(0, markSeconds(r.end) - (r.start ? markSeconds(r.start) : 0));
}

/** Hours to one decimal, and whether they are worth showing (only above 0.1 hours). */
export function courseHours(seconds: number): { hours: number; show: boolean } {
  const hours = Math.round((Math.max(0, seconds) / 3600) * 10) / 10;
  return { hours, show: seconds / 3600 > 0.1 };
}
