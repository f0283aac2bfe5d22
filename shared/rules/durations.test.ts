import { describe, expect, it } from 'vitest';
import { averagePerDay, cardMinutes, chartHours, formatDuration, spokenDuration } from './durations';

describe('how learning time is shown', () => {
  it('charts hours with one decimal', () => {
    expect(chartHours(0)).toBe(0);
    expect(chartHours(300)).toBe(0.1);
    expect(chartHours(5400)).toBe(1.5);
    expect(chartHours(3600 * 2 + 170)).toBe(2);
    expect(chartHours(3600 * 2 + 180)).toBe(2.1);
  });

  it('shows cards in rounded minutes', () => {
    expect(cardMinutes(29)).toBe(0);
    expect(cardMinutes(30)).toBe(1);
    expect(cardMinutes(3599)).toBe(60);
  });

  it('shows at most the two largest units of a duration', () => {
    expect(formatDuration(0)).toBe('0s');
    expect(formatDuration(45)).toBe('45s');
    expect(formatDuration(65)).toBe('1m 5s');
    expect(formatDuration(3725)).toBe('1h 2m');
    expect(formatDuration(3605)).toBe('1h');
    expect(formatDuration(90_061)).toBe('1d 1h');
    expect(formatDuration(59.6)).toBe('1m');
    expect(spokenDuration(3725)).toBe('1 hour 2 minutes');
  });

  it("says durations in the interface's language", () => {
    expect(formatDuration(3725, 'es')).toBe(
      new (
        Intl as unknown as { DurationFormat: new (l: string, o: object) => { format(v: object): string } }
      ).DurationFormat('es', { style: 'narrow' }).format({ hours: 1, minutes: 2 }),
    );
    expect(spokenDuration(3725, 'es')).toBe('1 hora y 2 minutos');
    expect(spokenDuration(7200, 'ar')).toBe('ساعتان');
    // no time at all is said, as English says '0s' (Intl.DurationFormat alone would say nothing)
    expect(formatDuration(0, 'ar')).toBe('0 ث');
    expect(formatDuration(0, 'es')).toBe('0s');
    expect(spokenDuration(0, 'es')).toBe('0 segundos');
    expect(spokenDuration(0.2, 'ar')).toBe('0 ثانية');
    expect(formatDuration(3725, 'en-XA')).toBe('1h 2m');
  });

  it('averages over the days of the range', () => {
    expect(averagePerDay(7 * 3600, 7)).toBe(3600);
    expect(averagePerDay(100, 0)).toBe(0);
  });
});
