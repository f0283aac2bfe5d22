/**
 * Per-seat billing, one service (`Billing`, `app.services.billing`): the subscription info the portal
 * decides with and offer codes here; its three parts each in their own file — checkout sessions that buy
 * seats (`checkout.ts`), the payment provider's webhook events (`webhooks.ts`), and the seat cycle: removed
 * seats leave at the end of the billing cycle, sandbox renewals (`seat-cycle.ts`). Each part is functions
 * of a `BillingContext`, which the service is, so the clock the tests move is the one every part reads.
 */
import { discounted, FREE_SEATS, prorate, rupees } from '@shared/rules/seats';
import type { SubscriptionInfo } from '@shared/schemas/tenant';
import { TENANT_ERROR_CODES, TENANT_MESSAGES } from '@shared/schemas/tenant';
import { eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { PaymentsAdapter } from '../adapters/payments';
import type { Db } from '../db/client';
import { inTx, type Tx } from '../db/helpers';
import { badRequest } from '../http/errors';
import type { PaidPlan, SeatPlans } from '../tenant/accounting';
import { type CheckoutRow, cancelSession, checkoutSession, createCheckout, expireIfDue } from './checkout';
import { isActive, offerOf, subscriptionOf, toPaidPlan, usageOf } from './plans';
import { runSeatJob, shrinkForNextPeriod } from './seat-cycle';
import { offerCodes, tenantOffers } from './tables';
import { applyWebhook } from './webhooks';

export interface Log {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** What billing's parts (checkout.ts, webhooks.ts, seat-cycle.ts) work with: the `Billing` service is one. */
export interface BillingContext {
  readonly db: Db;
  readonly payments: PaymentsAdapter;
  readonly publicUrl: string;
  readonly log: Log;
  /** The server's clock for seats and billing (tests move it). */
  now(): Date;
}

export class Billing implements SeatPlans, BillingContext {
  /** The server's clock for seats and billing (tests move it). */
  now: () => Date;

  constructor(
    readonly db: Db,
    readonly payments: PaymentsAdapter,
    private readonly opts: { publicUrl: string; now?: () => Date; log?: Log },
  ) {
    this.now = opts.now ?? (() => new Date());
  }

  get publicUrl(): string {
    return this.opts.publicUrl;
  }

  get log(): Log {
    return this.opts.log ?? { info() {}, warn() {}, error() {} };
  }

  // ---- the plan, as seat accounting sees it (server/tenant/accounting.ts)

  async planOf(db: Db, tenantId: string): Promise<PaidPlan> {
    return toPaidPlan(await subscriptionOf(db, tenantId));
  }

  async offerApplied(db: Db, tenantId: string, now: Date): Promise<boolean> {
    return Boolean(await offerOf(db, tenantId, now));
  }

  // ---- subscription info

  async info(tenantId: string): Promise<z.infer<typeof SubscriptionInfo>> {
    const now = this.now();
    const [plan, usage, offer] = await Promise.all([
      this.payments.plan(),
      usageOf(this.db, tenantId, now),
      offerOf(this.db, tenantId, now),
    ]);
    const sub = isActive(usage.subscription) ? usage.subscription : null;
    const percentOff = sub ? sub.percentOff : (offer?.percentOff ?? 0);
    const unit = discounted(sub ? sub.unitAmount : plan.unitAmount, percentOff);
    const subscriptionAmount = sub ? sub.quantity * unit : 0;
    const balance = sub?.balance ?? 0;
    const nextDue = sub && !sub.cancelAtPeriodEnd ? Math.max(0, subscriptionAmount - balance) : 0;
    // one more seat now: the rest of this period when subscribed; a whole period otherwise
    const oneMore = sub ? prorate(unit, sub.currentPeriodStart, sub.currentPeriodEnd, now) : unit;
    return {
      isSubscribed: Boolean(sub),
      isAccessToAddUser: usage.hasRoom,
      isOffered: Boolean(offer) || (sub?.percentOff ?? 0) > 0,
      subscriptionQuantity: sub?.quantity ?? 0,
      planAmount: rupees(unit),
      subscriptionAmount: rupees(subscriptionAmount),
      startingBalance: rupees(balance),
      subscriptionNextDue: sub ? sub.currentPeriodEnd.toISOString() : null,
      nextDueAmount: rupees(nextDue),
      startDate: sub ? sub.startDate.toISOString() : null,
      totalQuantity: usage.allowance,
      totalAmount: rupees(oneMore),
      periodType: sub ? sub.periodType : plan.periodType,
      priceId: plan.id,
      currency: (sub?.currency ?? plan.currency).toUpperCase(),
      freeSeats: FREE_SEATS,
      seatCount: usage.active,
      pendingInvitations: usage.pending,
      offer: offer
        ? { code: offer.code, percentOff: offer.percentOff, description: offer.description }
        : null,
    };
  }

  // ---- offer codes

  async applyOffer(tenantId: string, code: string) {
    const now = this.now();
    return inTx(this.db, async (tx) => {
      const [offer] = await tx.select().from(offerCodes).where(eq(offerCodes.code, code)).for('update');
      const invalid = () =>
        badRequest(TENANT_MESSAGES.invalidOffer, 'offerCode', { errorCode: TENANT_ERROR_CODES.invalidOffer });
      if (!offer || (offer.validUntil && offer.validUntil <= now)) throw invalid();
      const [current] = await tx
        .select()
        .from(tenantOffers)
        .where(eq(tenantOffers.tenantId, tenantId))
        .limit(1);
      if (current?.code !== offer.code) {
        if (offer.maxRedemptions !== null && offer.redemptions >= offer.maxRedemptions) throw invalid();
        await tx
          .update(offerCodes)
          .set({ redemptions: sql`${offerCodes.redemptions} + 1` })
          .where(eq(offerCodes.code, offer.code));
        await tx
          .insert(tenantOffers)
          .values({ tenantId, code: offer.code, appliedAt: now })
          .onConflictDoUpdate({ target: tenantOffers.tenantId, set: { code: offer.code, appliedAt: now } });
      }
      return {
        isOffered: true as const,
        offerCode: offer.code,
        percentOff: offer.percentOff,
        description: offer.description,
      };
    });
  }

  // ---- checkout (checkout.ts)

  createCheckout(
    tenant: { id: string; email: string },
    input: { priceId: string; quantity: number; learnerId?: string },
  ): Promise<CheckoutRow> {
    return createCheckout(this, tenant, input);
  }

  session(tenantId: string, id: string): Promise<CheckoutRow> {
    return checkoutSession(this, tenantId, id);
  }

  /** The person left the checkout without paying. */
  cancelSession(id: string): Promise<void> {
    return cancelSession(this, id);
  }

  /** A session past its expiry is EXPIRED (Stripe also says so with checkout.session.expired). */
  expireIfDue(row: CheckoutRow): Promise<CheckoutRow> {
    return expireIfDue(this, row);
  }

  // ---- webhook events (webhooks.ts)

  /** Verifies and applies one webhook; an event id already applied changes nothing. */
  webhook(payload: Buffer, signature: string | undefined): Promise<{ duplicate: boolean; type: string }> {
    return applyWebhook(this, payload, signature);
  }

  // ---- the seat cycle (seat-cycle.ts)

  /** The seat job: seats whose access ended, old invitations and checkouts, sandbox renewals. */
  runSeatJob(): Promise<{ removed: number; renewed: number; invitationsExpired: number }> {
    return runSeatJob(this);
  }

  /** After a subscribed tenant's seat is disabled: the next period is billed for the seats still used. */
  shrinkForNextPeriod(tx: Tx, tenantId: string): Promise<void> {
    return shrinkForNextPeriod(this, tx, tenantId);
  }
}
