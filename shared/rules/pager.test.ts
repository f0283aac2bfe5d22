import { describe, expect, it } from 'vitest';
import { pagerItems, totalPages } from './pager';

describe('the pager', () => {
  it('shows every page when there are 5 or fewer', () => {
    expect(pagerItems(1, 1)).toEqual([1]);
    expect(pagerItems(3, 5)).toEqual([1, 2, 3, 4, 5]);
  });
  it('shows 5 pages and an ellipsis near either end', () => {
    expect(pagerItems(1, 12)).toEqual([1, 2, 3, 4, 5, 'ellipsis-end']);
    expect(pagerItems(3, 12)).toEqual([1, 2, 3, 4, 5, 'ellipsis-end']);
    expect(pagerItems(12, 12)).toEqual(['ellipsis-start', 8, 9, 10, 11, 12]);
    expect(pagerItems(10, 12)).toEqual(['ellipsis-start', 8, 9, 10, 11, 12]);
  });
  it('shows the current page plus or minus one in the middle', () => {
    expect(pagerItems(6, 12)).toEqual(['ellipsis-start', 5, 6, 7, 'ellipsis-end']);
  });
  it('clamps a page outside the range and counts pages', () => {
    expect(pagerItems(99, 6)).toEqual(['ellipsis-start', 2, 3, 4, 5, 6]);
    expect(totalPages(0, 5)).toBe(1);
    expect(totalPages(11, 5)).toBe(3);
  });
});
