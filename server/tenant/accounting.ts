/**
 * Seat accounting: what a tenant holds and may hold, under a lock on the tenant so two requests never
 * fill the same free seat. Tenant's seat calls and billing (checkout, webhooks, the seat cycle) both count
 * with it; billing depends on tenant, never the other way (decision 018).
 *
 * A seat is a `tenant_users` row. Active seats and pending invitations use the allowance (10 free seats +
 * the subscription's paid seats); a disabled seat (removed by a subscribed tenant) no longer does — its
 * paid seat was given up for the next period — but stays readable until `access_until`, when the seat job
 * deletes it.
 *
 * The paid part comes from the tenant's plan, which billing keeps: seat accounting asks for it through
 * `SeatPlans`, which billing's service implements; the assembly (server/services.ts) hands it to tenant.
 */
import { seatAllowance } from '@shared/rules/seats';
import { and, eq, gt, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rowsOf } from '../db/helpers';
import { tenantUsers, users } from '../db/schema';

export type SeatRow = typeof tenantUsers.$inferSelect;

/** A tenant's plan as seat accounting sees it. */
export interface PaidPlan {
  /** An active (or trialing, or past due) subscription: its paid seats are usable. */
  subscribed: boolean;
  /** Paid seats usable now (0 when not subscribed). */
  paid: number;
  /** The end of the current billing cycle while subscribed; null otherwise. */
  periodEnd: Date | null;
  /** The subscription carries a discount. */
  discounted: boolean;
}

/** What seat accounting needs of billing: the clock, the plan, offers, and giving up a paid seat. */
export interface SeatPlans {
  /** The server's clock for seats and billing (tests move it). */
  now(): Date;
  planOf(db: Db, tenantId: string): Promise<PaidPlan>;
  /** A valid offer code is applied to the tenant. */
  offerApplied(db: Db, tenantId: string, now: Date): Promise<boolean>;
  /** After a subscribed tenant's seat is disabled: the next period is billed without it. */
  shrinkForNextPeriod(tx: Db, tenantId: string): Promise<void>;
}

/** The tenant is on an offer: a discounted subscription, or a valid offer code applied. */
export async function isOffered(plans: SeatPlans, db: Db, tenantId: string, plan: PaidPlan, now: Date) {
  return (plan.subscribed && plan.discounted) || (await plans.offerApplied(db, tenantId, now));
}

/** Seats of a tenant that are still readable: not removed, and not past the end of their access. */
export function visibleSeat(tenantId: string, now: Date): SQL {
  return and(
    eq(tenantUsers.tenantId, tenantId),
    or(isNull(tenantUsers.accessUntil), gt(tenantUsers.accessUntil, now)),
  )!;
}

/**
 * Serialises seat changes of one tenant (inside a transaction). FOR NO KEY UPDATE, not FOR UPDATE: it does
 * not wait for (nor make wait) the key-share locks that rows referring to the tenant take when written — a
 * seat, an audit entry, a learner's identity —, so a transaction may write those first and take this lock
 * last, for its seat count only (decision 050), without two such transactions deadlocking.
 */
export async function lockTenant(tx: Db, tenantId: string): Promise<void> {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, tenantId)).for('no key update');
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
}

/** The tenant's seats counted against the allowance its plan gives (`paid`: the plan's paid seats). */
export async function seatUsage(db: Db, tenantId: string, now: Date, paid: number): Promise<SeatUsage> {
  const [counts] = rowsOf<{ active: string | number; disabled: string | number; pending: string | number }>(
    await db.execute(sql`
      select
        (select count(*) from tenant_users where tenant_id = ${tenantId} and not is_disabled) as active,
        (select count(*) from tenant_users where tenant_id = ${tenantId} and is_disabled
           and (access_until is null or access_until > ${now.toISOString()})) as disabled,
        (select count(*) from tenant_invitations where tenant_id = ${tenantId} and status = 'PENDING'
           and expires_at > ${now.toISOString()}) as pending`),
  );
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
  };
}

/** The tenant's plan and its seats counted against it. */
export async function planAndUsage(plans: SeatPlans, db: Db, tenantId: string, now: Date) {
  const plan = await plans.planOf(db, tenantId);
  return { plan, usage: await seatUsage(db, tenantId, now, plan.paid) };
}
