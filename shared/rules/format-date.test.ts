import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, ordinal } from './format-date';

describe('dates as the product shows them', () => {
  it('uses ordinal days', () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 31].map(ordinal)).toEqual([
      '1st',
      '2nd',
      '3rd',
      '4th',
      '11th',
      '12th',
      '13th',
      '21st',
      '22nd',
      '23rd',
      '31st',
    ]);
  });
  it("formats 'Do MMM YYYY hh:mm a'", () => {
    expect(formatDateTime('2026-03-03T16:05:00Z', 'UTC')).toBe('3rd Mar 2026 04:05 pm');
    expect(formatDateTime('2026-11-22T00:30:00Z', 'UTC')).toBe('22nd Nov 2026 12:30 am');
    expect(formatDateTime('2026-11-22T12:00:00Z', 'UTC')).toBe('22nd Nov 2026 12:00 pm');
    expect(formatDate('2023-01-01T10:00:00Z', 'UTC')).toBe('1st Jan 2023');
    expect(formatDateTime('not a date')).toBe('—');
  });
});
