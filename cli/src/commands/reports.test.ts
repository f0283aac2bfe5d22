import { describe, expect, it } from 'vitest';
import { CliError } from '../core/errors';
import { dayOption, rangeOptions } from './reports';

describe('reports --from/--to', () => {
  it('reads whole UTC days, both included, --to defaulting to today', () => {
    expect(rangeOptions('2024-02-28', '2024-02-29')).toEqual({
      startTime: Date.UTC(2024, 1, 28) / 1000,
      endTime: Date.UTC(2024, 2, 1) / 1000 - 1,
    });
    expect(rangeOptions('2026-03-01', undefined, new Date('2026-03-31T23:59:00Z'))?.endTime).toBe(
      Date.UTC(2026, 3, 1) / 1000 - 1,
    );
    expect(rangeOptions(undefined, undefined)).toBeUndefined();
  });

  it('refuses what is not a day, a backwards range and --to alone, naming the option', () => {
    expect(() => dayOption('2026-02-29', '--from')).toThrow(/--from: "2026-02-29" is not a day/);
    expect(() => dayOption('1/3/2026', '--to')).toThrow(CliError);
    expect(() => rangeOptions('2026-03-02', '2026-03-01')).toThrow(/--to \(2026-03-01\) is before --from/);
    expect(() => rangeOptions(undefined, '2026-03-01')).toThrow(/--to needs --from/);
  });
});
