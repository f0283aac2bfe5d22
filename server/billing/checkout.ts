/**
 * Checkout sessions that buy seats: a first subscription (beyond the free seats) or seats added to the
 * current one, prorated to the end of its period; the session as the portal polls it, expired when due,
 * and cancelled when the person leaves the checkout. Completing one is a webhook event (webhooks.ts).
 */
import { randomBytes } from 'node:crypto';
import { discounted, FREE_SEATS, type PeriodType, paidSeatsFor, prorate, rupees } from '@shared/rules/seats';
import type { CheckoutSession } from '@shared/schemas/tenant';
import { TENANT_MESSAGES } from '@shared/schemas/tenant';
import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import { tenantUsers, users } from '../db/schema';
import { badRequest, conflict, notFound } from '../http/errors';
import { isActive, offerOf, usageOf } from './plans';
import type { BillingContext } from './service';
import { checkoutSessions } from './tables';

export type CheckoutRow = typeof checkoutSessions.$inferSelect;

/** How long a checkout session stays open (Stripe allows 30 minutes to 24 hours). */
export const CHECKOUT_TTL_MS = 60 * 60_000;

export interface SessionDetails {
  productName?: string;
  periodType?: PeriodType;
  /** One seat for one period after the discount, minor units. */
  unitAmount?: number;
  /** ADD_SEATS: one seat for the rest of the period, minor units. */
  proratedUnitAmount?: number;
  /** Seats bought by this session. */
  seats?: number;
  percentOff?: number;
  periodEnd?: string;
}

export function toCheckoutSession(row: CheckoutRow): z.infer<typeof CheckoutSession> {
  return {
    id: row.id,
    url: row.url,
    status: row.status,
    quantity: row.totalSeats,
    amount: rupees(row.amount),
    currency: row.currency.toUpperCase(),
    expiresAt: row.expiresAt.toISOString(),
  };
}

/**
 * Refuses a checkout that adds a learner who is not one (400 naming learnerId) or who already holds one of
 * the tenant's seats (409, as assigning them would).
 */
async function checkLearnerToAdd(ctx: BillingContext, tenantId: string, learnerId: string) {
  const [learner] = await ctx.db
    .select({ id: users.id, role: users.role, isDeleted: users.isDeleted })
    .from(users)
    .where(eq(users.id, learnerId))
    .limit(1);
  if (learner?.role !== 'USER' || learner.isDeleted) {
    throw badRequest('learnerId: is not a learner', 'learnerId');
  }
  const [seat] = await ctx.db
    .select({ id: tenantUsers.id })
    .from(tenantUsers)
    .where(and(eq(tenantUsers.tenantId, tenantId), eq(tenantUsers.learnerId, learnerId)))
    .limit(1);
  if (seat) {
    throw conflict(TENANT_MESSAGES.alreadyAssigned, {
      code: 11000,
      field: 'learnerId',
      keyPattern: { learnerId: 1 },
    });
  }
}

export async function createCheckout(
  ctx: BillingContext,
  tenant: { id: string; email: string },
  input: { priceId: string; quantity: number; learnerId?: string },
): Promise<CheckoutRow> {
  const now = ctx.now();
  const plan = await ctx.payments.plan();
  if (input.priceId !== plan.id) {
    throw badRequest("priceId: is not the plan's price (see GET /tenant/subscription/info)", 'priceId');
  }
  if (input.learnerId) await checkLearnerToAdd(ctx, tenant.id, input.learnerId);
  const usage = await usageOf(ctx.db, tenant.id, now);
  const needed = usage.active + usage.pending + (input.learnerId ? 1 : 0);
  if (input.quantity < needed) {
    throw badRequest(
      `quantity: must be at least ${needed} (the seats you hold${input.learnerId ? ' and the learner to add' : ''})`,
      'quantity',
    );
  }
  const paidTarget = paidSeatsFor(input.quantity);
  const offer = await offerOf(ctx.db, tenant.id, now);
  const sub = isActive(usage.subscription) ? usage.subscription : null;
  const common = {
    tenantId: tenant.id,
    tenantEmail: tenant.email,
    customerId: usage.subscription?.customerId ?? null,
    price: plan,
    successUrl: `${ctx.publicUrl}/portal/users?stripe-status=success`,
    cancelUrl: `${ctx.publicUrl}/portal/users?stripe-status=failed`,
    expiresAt: new Date(now.getTime() + CHECKOUT_TTL_MS),
  };
  // what the stored session says of either kind
  const rowOf = {
    tenantId: tenant.id,
    provider: ctx.payments.kind,
    learnerId: input.learnerId ?? null,
    totalSeats: input.quantity,
    paidSeats: paidTarget,
    expiresAt: common.expiresAt,
    createdAt: now,
  };
  let created: { id: string; url: string };
  let row: Omit<typeof checkoutSessions.$inferInsert, 'id' | 'url'>;
  const metadata = {
    tenantId: tenant.id,
    learnerId: input.learnerId ?? '',
    quantity: String(input.quantity),
    attempt: randomBytes(8).toString('hex'),
  };
  if (!sub) {
    if (paidTarget < 1) {
      throw badRequest(
        `quantity: the first ${FREE_SEATS} seats are free; a subscription is for more than ${FREE_SEATS}`,
        'quantity',
      );
    }
    const percentOff = offer?.percentOff ?? 0;
    const unit = discounted(plan.unitAmount, percentOff);
    created = await ctx.payments.createCheckout({
      ...common,
      kind: 'SUBSCRIBE',
      quantity: paidTarget,
      proratedUnitAmount: unit,
      couponId: offer?.couponId ?? null,
      metadata: { ...metadata, kind: 'SUBSCRIBE' },
    });
    row = {
      ...rowOf,
      kind: 'SUBSCRIBE',
      amount: unit * paidTarget,
      currency: plan.currency,
      details: {
        productName: plan.productName,
        periodType: plan.periodType,
        unitAmount: unit,
        seats: paidTarget,
        percentOff,
      } satisfies SessionDetails,
    };
  } else {
    const extra = paidTarget - sub.quantity;
    if (extra < 1) {
      throw badRequest(
        `quantity: your subscription already pays for ${seatWord(FREE_SEATS + sub.quantity)} in total; ask for more`,
        'quantity',
      );
    }
    const unit = discounted(sub.unitAmount, sub.percentOff);
    const prorated = prorate(unit, sub.currentPeriodStart, sub.currentPeriodEnd, now);
    created = await ctx.payments.createCheckout({
      ...common,
      kind: 'ADD_SEATS',
      price: { ...plan, currency: sub.currency },
      quantity: extra,
      proratedUnitAmount: prorated,
      couponId: null,
      metadata: { ...metadata, kind: 'ADD_SEATS', subscriptionId: sub.subscriptionId },
    });
    row = {
      ...rowOf,
      kind: 'ADD_SEATS',
      amount: prorated * extra,
      currency: sub.currency,
      details: {
        productName: plan.productName,
        periodType: sub.periodType as PeriodType,
        unitAmount: unit,
        proratedUnitAmount: prorated,
        seats: extra,
        percentOff: sub.percentOff,
        periodEnd: sub.currentPeriodEnd.toISOString(),
      } satisfies SessionDetails,
    };
  }
  const [inserted] = await ctx.db
    .insert(checkoutSessions)
    .values({ ...row, id: created.id, url: created.url })
    .returning();
  return inserted!;
}

export async function checkoutSession(
  ctx: BillingContext,
  tenantId: string,
  id: string,
): Promise<CheckoutRow> {
  const [row] = await ctx.db
    .select()
    .from(checkoutSessions)
    .where(and(eq(checkoutSessions.id, id), eq(checkoutSessions.tenantId, tenantId)))
    .limit(1);
  if (!row) throw notFound('Checkout session not found');
  return expireIfDue(ctx, row);
}

/** The person left the checkout without paying. */
export async function cancelSession(ctx: BillingContext, id: string): Promise<void> {
  await ctx.db
    .update(checkoutSessions)
    .set({ status: 'CANCELED' })
    .where(and(eq(checkoutSessions.id, id), eq(checkoutSessions.status, 'OPEN')));
}

/** A session past its expiry is EXPIRED (Stripe also says so with checkout.session.expired). */
export async function expireIfDue(ctx: BillingContext, row: CheckoutRow): Promise<CheckoutRow> {
  if (row.status !== 'OPEN' || row.expiresAt > ctx.now()) return row;
  const [updated] = await ctx.db
    .update(checkoutSessions)
    .set({ status: 'EXPIRED' })
    .where(and(eq(checkoutSessions.id, row.id), eq(checkoutSessions.status, 'OPEN')))
    .returning();
  return updated ?? row;
}

const seatWord = (n: number) => `${n} seat${n === 1 ? '' : 's'}`;
