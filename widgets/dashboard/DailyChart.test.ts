import { describe, expect, it } from 'vitest';
import { chartAxis } from './DailyChart';

describe('the daily chart axis', () => {
  it.each([
    [6, 2, 6],
    [6.1, 2, 8],
    [0.1, 0.05, 0.1],
    [0.3, 0.1, 0.3],
    [7.5, 2, 8],
    [12, 5, 15],
    [1, 0.5, 1],
  ])('a highest value of %s h has a step of %s up to %s', (max, step, top) => {
    const axis = chartAxis(max);
    expect(axis.step).toBeCloseTo(step, 9);
    expect(axis.top).toBeCloseTo(top, 9);
    expect(axis.top).toBeGreaterThanOrEqual(max);
  });

  it('draws an empty range up to 1 h', () => {
    expect(chartAxis(0)).toEqual({ step: 0.25, top: 1 });
  });
});
