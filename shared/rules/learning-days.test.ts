import { describe, expect, it } from 'vitest';
import {
  addDays,
  heatLevel,
  heatmapRange,
  heatmapWeeks,
  isoDayOf,
  sameDateYearBefore,
  streaksOf,
} from './learning-days';

describe('UTC days', () => {
  it('puts a moment in its UTC day, whatever the local day', () => {
    expect(isoDayOf(Date.UTC(2026, 0, 31, 23, 59, 59, 999))).toBe('2026-01-31');
    expect(isoDayOf(Date.UTC(2026, 1, 1, 0, 0, 0))).toBe('2026-02-01');
  });

  it('steps over month ends and leap days', () => {
    expect(addDays('2026-01-31', 1)).toBe('2026-02-01');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2028-02-29', 1)).toBe('2028-03-01');
    expect(addDays('2027-02-28', 1)).toBe('2027-03-01');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
  });
});

describe('the heatmap range', () => {
  it('is the twelve months ending today', () => {
    expect(heatmapRange('2026-11-01')).toEqual({ from: '2025-11-02', to: '2026-11-01' });
  });

  it('counts 366 days when a 29 February is among them, 365 otherwise', () => {
    const days = (r: { from: string; to: string }) =>
      (Date.parse(r.to) - Date.parse(r.from)) / 86_400_000 + 1;
    expect(days(heatmapRange('2028-03-15'))).toBe(366);
    expect(days(heatmapRange('2027-03-15'))).toBe(365);
  });

  it('starts after 28 February when today is a leap day', () => {
    expect(sameDateYearBefore('2028-02-29')).toBe('2027-02-28');
    expect(heatmapRange('2028-02-29')).toEqual({ from: '2027-03-01', to: '2028-02-29' });
    expect(heatmapRange('2029-03-01').from).toBe('2028-03-02');
  });

  it('lays the days out in weeks from Monday', () => {
    const seconds = new Map([['2026-11-01', 4000]]);
    const weeks = heatmapWeeks(heatmapRange('2026-11-01'), seconds);
    // 2025-11-02 is a Sunday: the first column holds it alone, at the bottom
    expect(weeks[0]!.slice(0, 6)).toEqual([null, null, null, null, null, null]);
    expect(weeks[0]![6]).toEqual({ date: '2025-11-02', seconds: 0, level: 0 });
    // 2026-11-01 is a Sunday too: the last column is full and ends with it
    expect(weeks[weeks.length - 1]![6]).toEqual({ date: '2026-11-01', seconds: 4000, level: 4 });
    expect(weeks.every((w) => w.length === 7)).toBe(true);
    expect(weeks.flat().filter(Boolean)).toHaveLength(365);
  });

  it('shades by minutes learnt', () => {
    expect([0, 59, 60, 899, 900, 1799, 1800, 3599, 3600].map(heatLevel)).toEqual([0, 0, 1, 1, 2, 2, 3, 3, 4]);
  });
});

describe('streaks', () => {
  it('counts learning days in a row up to today', () => {
    expect(streaksOf(['2026-10-30', '2026-10-31', '2026-11-01'], '2026-11-01')).toEqual({
      current: 3,
      currentEnd: '2026-11-01',
      longest: 3,
      longestEnd: '2026-11-01',
    });
  });

  it('keeps the streak alive through today until a whole day has passed without learning', () => {
    expect(streaksOf(['2026-10-30', '2026-10-31'], '2026-11-01').current).toBe(2);
    expect(streaksOf(['2026-10-30', '2026-10-31'], '2026-11-02')).toMatchObject({
      current: 0,
      currentEnd: null,
      longest: 2,
    });
  });

  it('runs across month ends, year ends and leap days', () => {
    expect(streaksOf(['2026-01-30', '2026-01-31', '2026-02-01'], '2026-02-01').current).toBe(3);
    expect(streaksOf(['2026-12-31', '2027-01-01'], '2027-01-01').current).toBe(2);
    expect(streaksOf(['2028-02-28', '2028-02-29', '2028-03-01'], '2028-03-01').current).toBe(3);
    // no 29 February in 2027: 28 February and 1 March are consecutive
    expect(streaksOf(['2027-02-28', '2027-03-01'], '2027-03-01').current).toBe(2);
    // in 2028 they are not
    expect(streaksOf(['2028-02-28', '2028-03-01'], '2028-03-01')).toMatchObject({ current: 1, longest: 1 });
  });

  it('finds the longest run of all, the most recent of equal ones', () => {
    const days = [
      '2026-01-01',
      '2026-01-02',
      '2026-01-03',
      '2026-02-10',
      '2026-03-01',
      '2026-03-02',
      '2026-03-03',
    ];
    expect(streaksOf(days, '2026-06-01')).toEqual({
      current: 0,
      currentEnd: null,
      longest: 3,
      longestEnd: '2026-03-03',
    });
  });

  it('ignores duplicates, order, and days after today', () => {
    expect(streaksOf(['2026-11-01', '2026-10-31', '2026-11-01', '2026-11-05'], '2026-11-01')).toMatchObject({
      current: 2,
      longest: 2,
    });
    expect(streaksOf([], '2026-11-01')).toEqual({
      current: 0,
      currentEnd: null,
      longest: 0,
      longestEnd: null,
    });
  });
});
