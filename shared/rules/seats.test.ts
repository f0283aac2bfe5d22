import { describe, expect, it } from 'vitest';
import {
  addMonths,
  decideAddUser,
  discounted,
  FREE_SEATS,
  monthlyPrice,
  paidSeatsFor,
  periodEnd,
  prorate,
  seatAllowance,
  seatsShort,
} from './seats';

describe('seat rules', () => {
  it('decides the Add User branch of mentor §4', () => {
    const d = (isSubscribed: boolean, isAccessToAddUser: boolean, isOffered: boolean) =>
      decideAddUser({ isSubscribed, isAccessToAddUser, isOffered });
    expect(d(true, true, false)).toBe('ADD');
    expect(d(true, true, true)).toBe('ADD');
    expect(d(false, true, false)).toBe('ADD');
    expect(d(true, false, true)).toBe('OFFER_LIMIT');
    expect(d(true, false, false)).toBe('PAYMENT_REQUIRED');
    expect(d(false, false, false)).toBe('NOT_YET_SUBSCRIBED');
    expect(d(false, false, true)).toBe('NOT_YET_SUBSCRIBED');
  });

  it('counts the seats to buy before some more fit: the free ones first, then an allowance cut below use', () => {
    const seats = (active: number, pending: number, allowance = 10) => ({ active, pending, allowance });
    expect(seatsShort(seats(6, 1), 3)).toBe(0);
    expect(seatsShort(seats(6, 1), 4)).toBe(1);
    expect(seatsShort(seats(10, 0), 1)).toBe(1);
    // a subscription lowered under the seats held: those are made up first (Add User's seatsNeeded)
    expect(seatsShort(seats(14, 1, 12), 1)).toBe(4);
    expect(seatsShort(seats(14, 1, 12), 0)).toBe(0);
  });

  it('keeps 10 seats free and pays for the rest', () => {
    expect(FREE_SEATS).toBe(10);
    expect(paidSeatsFor(3)).toBe(0);
    expect(paidSeatsFor(10)).toBe(0);
    expect(paidSeatsFor(11)).toBe(1);
    expect(seatAllowance(2)).toBe(12);
  });

  it('prorates the rest of a period and applies discounts in paise', () => {
    const start = new Date('2026-01-01T00:00:00Z');
    const end = new Date('2026-01-31T00:00:00Z');
    expect(prorate(7500, start, end, new Date('2026-01-16T00:00:00Z'))).toBe(3750);
    expect(prorate(7500, start, end, new Date('2025-12-01T00:00:00Z'))).toBe(7500);
    expect(prorate(7500, start, end, new Date('2026-02-01T00:00:00Z'))).toBe(0);
    expect(discounted(7500, 20)).toBe(6000);
    expect(discounted(7500, 0)).toBe(7500);
  });

  it('ends a monthly period on the same day next month, clamped to the month', () => {
    expect(addMonths(new Date('2026-01-31T10:00:00Z'), 1).toISOString()).toBe('2026-02-28T10:00:00.000Z');
    expect(periodEnd(new Date('2026-03-15T00:00:00Z'), 'month').toISOString()).toBe(
      '2026-04-15T00:00:00.000Z',
    );
    expect(periodEnd(new Date('2024-02-29T00:00:00Z'), 'year').toISOString()).toBe(
      '2025-02-28T00:00:00.000Z',
    );
  });

  it('sells per user per month, billed by the period: a yearly price over twelve', () => {
    expect(monthlyPrice(900, 'year')).toBe(75);
    expect(monthlyPrice(1500, 'year')).toBe(125);
    expect(monthlyPrice(75, 'month')).toBe(75);
    expect(monthlyPrice(10, 'week')).toBeNull();
  });

  it('prorates a seat added mid-period to the second, as Stripe does', () => {
    const start = new Date('2026-01-01T00:00:00Z');
    const end = periodEnd(start, 'year');
    // 2026 has 365 days: a seat added on 2 July pays for the 183 days left
    expect(prorate(90000, start, end, new Date('2026-07-02T00:00:00Z'))).toBe(
      Math.round((90000 * 183) / 365),
    );
    // milliseconds within the second do not count
    expect(prorate(90000, start, end, new Date('2026-07-02T00:00:00.999Z'))).toBe(
      prorate(90000, start, end, new Date('2026-07-02T00:00:00Z')),
    );
  });
});
