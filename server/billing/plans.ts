/**
 * A tenant's plan as billing keeps it: the subscription (paid seats) and the offer code applied. Seat
 * accounting (server/tenant/accounting.ts) reads it through `SeatPlans`, which the billing service
 * implements from these.
 */
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { type PaidPlan, type SeatUsage, seatUsage } from '../tenant/accounting';
import { offerCodes, subscriptions, tenantOffers } from './tables';

export type SubscriptionRow = typeof subscriptions.$inferSelect;

const ACTIVE_STATUSES: readonly SubscriptionRow['status'][] = ['ACTIVE', 'TRIALING', 'PAST_DUE'];

/** The subscription counts (its paid seats are usable) while active, trialing or past due. */
export const isActive = (sub: SubscriptionRow | null | undefined): sub is SubscriptionRow =>
  Boolean(sub && ACTIVE_STATUSES.includes(sub.status));

export async function subscriptionOf(db: Db, tenantId: string): Promise<SubscriptionRow | null> {
  const [row] = await db.select().from(subscriptions).where(eq(subscriptions.tenantId, tenantId)).limit(1);
  return row ?? null;
}

/** What seat accounting sees of a subscription. */
export function toPaidPlan(sub: SubscriptionRow | null): PaidPlan {
  return isActive(sub)
    ? {
        subscribed: true,
        paid: sub.quantity,
        periodEnd: sub.currentPeriodEnd,
        discounted: sub.percentOff > 0,
      }
    : { subscribed: false, paid: 0, periodEnd: null, discounted: false };
}

/** The tenant's seats and its subscription row (billing needs the provider's ids and prices too). */
export async function usageOf(
  db: Db,
  tenantId: string,
  now: Date,
): Promise<SeatUsage & { subscription: SubscriptionRow | null }> {
  const subscription = await subscriptionOf(db, tenantId);
  const usage = await seatUsage(db, tenantId, now, toPaidPlan(subscription).paid);
  return { ...usage, subscription };
}

/** The offer code a tenant applied, while it is valid. */
export async function offerOf(db: Db, tenantId: string, now: Date) {
  const [row] = await db
    .select({
      code: offerCodes.code,
      percentOff: offerCodes.percentOff,
      description: offerCodes.description,
      couponId: offerCodes.stripeCouponId,
      validUntil: offerCodes.validUntil,
    })
    .from(tenantOffers)
    .innerJoin(offerCodes, eq(offerCodes.code, tenantOffers.code))
    .where(eq(tenantOffers.tenantId, tenantId))
    .limit(1);
  if (!row || (row.validUntil && row.validUntil <= now)) return null;
  return row;
}
