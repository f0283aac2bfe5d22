/**
 * Seats and per-seat billing (mentor §4 "Add User subscription flow", §9): the free allowance, which
 * branch adding a learner takes, and the money arithmetic the server charges with and the portal shows.
 * Amounts are rupees with two decimals; the server keeps paise (integers) and converts at the edge.
 */

/**
 * The tooltip of a removed (disabled) seat (mentor §2.3). The specification says "this month's billing
 * cycle"; the plans are billed annually, so the cycle is the billing period (docs/copy-errata.json).
 */
export const SEAT_ACCESS_RULE = 'The tenant can access the user only until the end of this billing cycle.';

/** Every tenant may hold this many learner seats without a subscription. */
export const FREE_SEATS = 10;

/**
 * What adding a learner does, from the subscription info (mentor §4):
 * - ADD: a seat is free (subscribed or not): the learner is added at once;
 * - OFFER_LIMIT: subscribed on an offer, no free seat: the tenant is told extra users must be paid for;
 * - PAYMENT_REQUIRED: subscribed, no free seat: the Payment Required modal (Now and Next Due);
 * - NOT_YET_SUBSCRIBED: not subscribed, the free seats are used: the payment modal for list length + 1 seats.
 */
export type AddUserDecision = 'ADD' | 'OFFER_LIMIT' | 'PAYMENT_REQUIRED' | 'NOT_YET_SUBSCRIBED';

export function decideAddUser(info: {
  isSubscribed: boolean;
  isAccessToAddUser: boolean;
  isOffered: boolean;
}): AddUserDecision {
  if (info.isAccessToAddUser) return 'ADD';
  if (!info.isSubscribed) return 'NOT_YET_SUBSCRIBED';
  return info.isOffered ? 'OFFER_LIMIT' : 'PAYMENT_REQUIRED';
}

/**
 * The seats to buy before `taking` more seats fit — learners added, or invitations (each keeps a seat for
 * 7 days): the allowance is used by the seats held and the pending invitations, and one cut below them
 * (a subscription lowered) must first be made up. What Add User's `seatsNeeded` says for one learner, for
 * any number; 0 when nothing is taken.
 */
export function seatsShort(
  seats: { allowance: number; active: number; pending: number },
  taking: number,
): number {
  return taking > 0 ? Math.max(0, seats.active + seats.pending + taking - seats.allowance) : 0;
}

/** Seats beyond the free allowance that a tenant holding `totalSeats` seats pays for. */
export const paidSeatsFor = (totalSeats: number) => Math.max(0, totalSeats - FREE_SEATS);

/** The seats a tenant may hold: the free ones plus the paid ones. */
export const seatAllowance = (paidSeats: number) => FREE_SEATS + Math.max(0, paidSeats);

/** Rupees from paise. */
export const rupees = (paise: number) => Math.round(paise) / 100;

/** A price after a percentage discount, in paise. */
export const discounted = (amountPaise: number, percentOff: number) =>
  Math.round((amountPaise * (100 - Math.min(100, Math.max(0, percentOff)))) / 100);

/**
 * What one more seat costs for the rest of the current period, in paise, as a per-seat subscription
 * prorates a quantity raised mid-period (Stripe's model: to the second, from the period's start and end
 * and the moment of the change): the period's price times the share of the period still ahead — the whole
 * price before the period starts, nothing after it ends.
 */
export function prorate(periodPricePaise: number, periodStart: Date, periodEnd: Date, now: Date): number {
  const seconds = (d: Date) => Math.floor(d.getTime() / 1000);
  const total = seconds(periodEnd) - seconds(periodStart);
  if (total <= 0) return 0;
  const left = Math.min(total, Math.max(0, seconds(periodEnd) - seconds(now)));
  return Math.round((periodPricePaise * left) / total);
}

/** The same day `months` later (UTC), clamped to the month's last day: 31 Jan + 1 month = 28/29 Feb. */
export function addMonths(date: Date, months: number): Date {
  const d = new Date(date.getTime());
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d;
}

export type PeriodType = 'day' | 'week' | 'month' | 'year';

/** How many months a period is, where it is a whole number of months. */
const MONTHS: Partial<Record<PeriodType, number>> = { month: 1, year: 12 };

/**
 * The plan's price per seat per month, as the plans are sold ('75 rupees per user per month, billed
 * annually'), from the price of one period: a yearly price over twelve; null for periods shorter than a
 * month.
 */
export function monthlyPrice(periodAmount: number, period: PeriodType): number | null {
  const months = MONTHS[period];
  return months ? Math.round((periodAmount / months) * 100) / 100 : null;
}

/** How the billing is said: 'billed annually', 'billed monthly', … */
export const BILLED: Record<PeriodType, string> = {
  day: 'billed daily',
  week: 'billed weekly',
  month: 'billed monthly',
  year: 'billed annually',
};

/** The end of a billing period that starts at `start`. */
export function periodEnd(start: Date, period: PeriodType, count = 1): Date {
  switch (period) {
    case 'day':
      return new Date(start.getTime() + count * 86_400_000);
    case 'week':
      return new Date(start.getTime() + count * 7 * 86_400_000);
    case 'month':
      return addMonths(start, count);
    case 'year':
      return addMonths(start, 12 * count);
  }
}
