import { describe, expect, it } from 'vitest';
import { DATE_RANGES, DEFAULT_DATE_RANGE, dateRange, dayLabel, daysOf, utcDayStart } from './date-ranges';

const at = (iso: string) => Date.parse(iso);
const iso = (unixSeconds: number) => new Date(unixSeconds * 1000).toISOString();

describe('dashboard date ranges', () => {
  it('offers Yesterday, Past 7 days (the default) and Last 28 Days', () => {
    expect(DATE_RANGES).toEqual(['Yesterday', 'Past 7 days', 'Last 28 Days']);
    expect(DEFAULT_DATE_RANGE).toBe('Past 7 days');
  });

  it('all end at the last second of yesterday, UTC', () => {
    const now = at('2026-03-10T15:20:00Z');
    for (const name of DATE_RANGES)
      expect(iso(dateRange(name, now).endTime)).toBe('2026-03-09T23:59:59.000Z');
    expect(iso(dateRange('Yesterday', now).startTime)).toBe('2026-03-09T00:00:00.000Z');
    expect(iso(dateRange('Past 7 days', now).startTime)).toBe('2026-03-03T00:00:00.000Z');
    expect(iso(dateRange('Last 28 Days', now).startTime)).toBe('2026-02-10T00:00:00.000Z');
  });

  it('move on at UTC midnight, not at local midnight', () => {
    const before = dateRange('Yesterday', at('2026-03-10T23:59:59.999Z'));
    const after = dateRange('Yesterday', at('2026-03-11T00:00:00.000Z'));
    expect(iso(before.startTime)).toBe('2026-03-09T00:00:00.000Z');
    expect(iso(after.startTime)).toBe('2026-03-10T00:00:00.000Z');
    expect(iso(after.endTime)).toBe('2026-03-10T23:59:59.000Z');
    // 23:30 in New York on 10 March is already 11 March in UTC
    expect(iso(dateRange('Yesterday', at('2026-03-10T23:30:00-04:00')).startTime)).toBe(
      '2026-03-10T00:00:00.000Z',
    );
  });

  it('cross month and year ends, leap days included', () => {
    expect(iso(dateRange('Yesterday', at('2026-03-01T00:00:01Z')).startTime)).toBe(
      '2026-02-28T00:00:00.000Z',
    );
    expect(iso(dateRange('Yesterday', at('2028-03-01T08:00:00Z')).startTime)).toBe(
      '2028-02-29T00:00:00.000Z',
    );
    const newYear = dateRange('Past 7 days', at('2026-01-01T05:00:00Z'));
    expect(iso(newYear.startTime)).toBe('2025-12-25T00:00:00.000Z');
    expect(iso(newYear.endTime)).toBe('2025-12-31T23:59:59.000Z');
    const february = dateRange('Last 28 Days', at('2026-03-01T12:00:00Z'));
    expect(iso(february.startTime)).toBe('2026-02-01T00:00:00.000Z');
    expect(daysOf(february)).toHaveLength(28);
  });

  it('lists each day of a range once, for the chart', () => {
    const range = dateRange('Past 7 days', at('2026-05-01T10:00:00Z'));
    const days = daysOf(range);
    expect(days).toHaveLength(7);
    expect(iso(days[0]!)).toBe('2026-04-24T00:00:00.000Z');
    expect(iso(days[6]!)).toBe('2026-04-30T00:00:00.000Z');
    expect(dayLabel(days[6]!)).toBe('Thu 30 Apr');
    expect(utcDayStart(days[3]! + 86_399)).toBe(days[3]);
  });
});
