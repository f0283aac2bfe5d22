/**
 * Seat accounting shared by the tenant calls and billing: what a tenant holds and may hold, under a lock
 * on the tenant so two requests never fill the same free seat.
 *
 * A seat is a `tenant_users` row. Active seats and pending invitations use the allowance (10 free seats +
 * the subscription's paid seats); a disabled seat (removed by a subscribed tenant) no longer does — its
 * paid seat was given up for the next period — but stays readable until `access_until`, when the seat job
 * deletes it.
 */
import { seatAllowance } from '@shared/rules/seats';
import { and, eq, gt, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rowsOf } from '../db/helpers';
import { tenantUsers, users } from '../db/schema';
import { offerCodes, subscriptions, tenantOffers } from './tables';

export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type SeatRow = typeof tenantUsers.$inferSelect;

const ACTIVE_STATUSES: readonly SubscriptionRow['status'][] = ['ACTIVE', 'TRIALING', 'PAST_DUE'];

/** The subscription counts (its paid seats are usable) while active, trialing or past due. */
export const isActive = (sub: SubscriptionRow | null | undefined): sub is SubscriptionRow =>
  Boolean(sub && ACTIVE_STATUSES.includes(sub.status));

/** Seats of a tenant that are still readable: not removed, and not past the end of their access. */
export function visibleSeat(tenantId: string, now: Date): SQL {
  return and(
    eq(tenantUsers.tenantId, tenantId),
    or(isNull(tenantUsers.accessUntil), gt(tenantUsers.accessUntil, now)),
  )!;
}

/** Serialises seat changes of one tenant (inside a transaction). */
export async function lockTenant(tx: Db, tenantId: string): Promise<void> {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, tenantId)).for('update');
}

export async function subscriptionOf(db: Db, tenantId: string): Promise<SubscriptionRow | null> {
  const [row] = await db.select().from(subscriptions).where(eq(subscriptions.tenantId, tenantId)).limit(1);
  return row ?? null;
}

export interface SeatUsage {
  /** Seats in use (not disabled). */
  active: number;
  /** Disabled seats still readable until the end of the billing cycle. */
  disabled: number;
  /** Pending invitations (each keeps a seat). */
  pending: number;
  /** Paid seats of an active subscription (0 otherwise). */
  paid: number;
  /** Free + paid seats. */
  allowance: number;
  /** A seat is free for one more learner or invitation. */
  hasRoom: boolean;
  subscription: SubscriptionRow | null;
}

export async function seatUsage(db: Db, tenantId: string, now: Date): Promise<SeatUsage> {
  const [counts] = rowsOf<{ active: string | number; disabled: string | number; pending: string | number }>(
    await db.execute(sql`
      select
        (select count(*) from tenant_users where tenant_id = ${tenantId} and not is_disabled) as active,
        (select count(*) from tenant_users where tenant_id = ${tenantId} and is_disabled
           and (access_until is null or access_until > ${now.toISOString()})) as disabled,
        (select count(*) from tenant_invitations where tenant_id = ${tenantId} and status = 'PENDING'
           and expires_at > ${now.toISOString()}) as pending`),
  );
  const subscription = await subscriptionOf(db, tenantId);
  const paid = isActive(subscription) ? subscription.quantity : 0;
  const active = Number(counts?.active ?? 0);
  const pending = Number(counts?.pending ?? 0);
  const allowance = seatAllowance(paid);
  return {
    active,
    disabled: Number(counts?.disabled ?? 0),
    pending,
    paid,
    allowance,
    hasRoom: active + pending < allowance,
    subscription,
  };
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

/** The tenant is on an offer: a valid offer code applied, or a discounted subscription. */
export async function isOffered(db: Db, tenantId: string, sub: SubscriptionRow | null, now: Date) {
  return (isActive(sub) && sub.percentOff > 0) || Boolean(await offerOf(db, tenantId, now));
}
