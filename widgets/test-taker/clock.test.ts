import { describe, expect, it } from 'vitest';
import { clockOffset, crossedAnnouncement, formatRemaining, remainingMs, spokenRemaining } from './clock';

describe("the test's clock", () => {
  it("corrects the local clock by the server's, from the middle of the round trip", () => {
    const server = Date.parse('2026-03-01T10:00:10.000Z');
    // sent at :00, received at :02 (local), the server said :10 → it is 9 s ahead
    const offset = clockOffset(new Date(server).toISOString(), server - 8_000, server - 10_000);
    expect(offset).toBe(9_000);
    const deadline = new Date(server + 60_000).toISOString();
    // 10 s after the answer arrived the server is at :21, 49 s before the deadline
    expect(remainingMs(deadline, offset, server - 8_000 + 10_000)).toBe(49_000);
    expect(remainingMs(deadline, offset, server + 3_600_000)).toBe(0);
    expect(remainingMs(null, offset)).toBeNull();
    expect(clockOffset('not a date', 1)).toBe(0);
  });

  it('shows m:ss, or h:mm:ss from an hour, rounding seconds up', () => {
    expect(formatRemaining(300_000)).toBe('5:00');
    expect(formatRemaining(299_001)).toBe('5:00');
    expect(formatRemaining(59_000)).toBe('0:59');
    expect(formatRemaining(0)).toBe('0:00');
    expect(formatRemaining(3_725_000)).toBe('1:02:05');
    expect(spokenRemaining(270_000)).toBe('4 minutes 30 seconds');
    expect(spokenRemaining(60_000)).toBe('1 minute');
    expect(spokenRemaining(3_600_000 * 2 + 60_000)).toBe('2 hours 1 minute');
    expect(spokenRemaining(1_000)).toBe('1 second');
  });

  it('announces 5 minutes, 1 minute and 30 seconds left once each', () => {
    expect(crossedAnnouncement(300_500, 299_900)).toBe(300_000);
    expect(crossedAnnouncement(299_900, 299_400)).toBeNull();
    expect(crossedAnnouncement(61_000, 60_000)).toBe(60_000);
    expect(crossedAnnouncement(30_400, 29_900)).toBe(30_000);
  });
});
