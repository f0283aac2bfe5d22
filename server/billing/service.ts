/**
 * Per-seat billing: the subscription info the portal decides with, checkout sessions that buy seats, the
 * payment provider's webhook events (verified, applied once per event id, in one transaction each), offer
 * codes, and the seat job (removed seats leave at the end of the billing cycle; sandbox renewals).
 */
import { randomBytes } from 'node:crypto';
import {
  discounted,
  FREE_SEATS,
  type PeriodType,
  paidSeatsFor,
  periodEnd,
  prorate,
  rupees,
} from '@shared/rules/seats';
import type { CheckoutSession, SubscriptionInfo } from '@shared/schemas/tenant';
import { TENANT_MESSAGES } from '@shared/schemas/tenant';
import { and, eq, lte, or, sql } from 'drizzle-orm';
import { ZodError, type z } from 'zod';
import {
  fromStripeSubscription,
  idOf,
  type PaymentsAdapter,
  type ProviderSubscription,
  StripeCheckoutSession,
  type StripeEvent,
  StripeInvoice,
  StripeSubscription,
} from '../adapters/payments';
import type { Db } from '../db/client';
import { inTx, type Tx } from '../db/helpers';
import { tenantUsers, users } from '../db/schema';
import { badRequest, conflict, HttpError, notFound } from '../http/errors';
import { lockTenant, type PaidPlan, type SeatPlans } from '../tenant/accounting';
import { tenantInvitations } from '../tenant/tables';
import { isActive, offerOf, type SubscriptionRow, subscriptionOf, toPaidPlan, usageOf } from './plans';
import { checkoutSessions, offerCodes, subscriptions, tenantOffers, webhookEvents } from './tables';

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

export interface Log {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
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

export class Billing implements SeatPlans {
  /** The server's clock for seats and billing (tests move it). */
  now: () => Date;

  constructor(
    readonly db: Db,
    readonly payments: PaymentsAdapter,
    private readonly opts: { publicUrl: string; now?: () => Date; log?: Log },
  ) {
    this.now = opts.now ?? (() => new Date());
  }

  private get log(): Log {
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
        badRequest(TENANT_MESSAGES.invalidOffer, 'offerCode', { errorCode: 'INVALID_OFFER_CODE' });
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

  // ---- checkout

  async createCheckout(
    tenant: { id: string; email: string },
    input: { priceId: string; quantity: number; learnerId?: string },
  ): Promise<CheckoutRow> {
    const now = this.now();
    const plan = await this.payments.plan();
    if (input.priceId !== plan.id) {
      throw badRequest("priceId: is not the plan's price (see GET /tenant/subscription/info)", 'priceId');
    }
    if (input.learnerId) {
      const [learner] = await this.db
        .select({ id: users.id, role: users.role, isDeleted: users.isDeleted })
        .from(users)
        .where(eq(users.id, input.learnerId))
        .limit(1);
      if (learner?.role !== 'USER' || learner.isDeleted) {
        throw badRequest('learnerId: is not a learner', 'learnerId');
      }
      const [seat] = await this.db
        .select({ id: tenantUsers.id })
        .from(tenantUsers)
        .where(and(eq(tenantUsers.tenantId, tenant.id), eq(tenantUsers.learnerId, input.learnerId)))
        .limit(1);
      if (seat) {
        throw conflict(TENANT_MESSAGES.alreadyAssigned, {
          code: 11000,
          field: 'learnerId',
          keyPattern: { learnerId: 1 },
        });
      }
    }
    const usage = await usageOf(this.db, tenant.id, now);
    const needed = usage.active + usage.pending + (input.learnerId ? 1 : 0);
    if (input.quantity < needed) {
      throw badRequest(
        `quantity: must be at least ${needed} (the seats you hold${input.learnerId ? ' and the learner to add' : ''})`,
        'quantity',
      );
    }
    const paidTarget = paidSeatsFor(input.quantity);
    const offer = await offerOf(this.db, tenant.id, now);
    const sub = isActive(usage.subscription) ? usage.subscription : null;
    const common = {
      tenantId: tenant.id,
      tenantEmail: tenant.email,
      customerId: usage.subscription?.customerId ?? null,
      price: plan,
      successUrl: `${this.opts.publicUrl}/portal/users?stripe-status=success`,
      cancelUrl: `${this.opts.publicUrl}/portal/users?stripe-status=failed`,
      expiresAt: new Date(now.getTime() + CHECKOUT_TTL_MS),
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
      created = await this.payments.createCheckout({
        ...common,
        kind: 'SUBSCRIBE',
        quantity: paidTarget,
        proratedUnitAmount: unit,
        couponId: offer?.couponId ?? null,
        metadata: { ...metadata, kind: 'SUBSCRIBE' },
      });
      row = {
        tenantId: tenant.id,
        provider: this.payments.kind,
        kind: 'SUBSCRIBE',
        learnerId: input.learnerId ?? null,
        totalSeats: input.quantity,
        paidSeats: paidTarget,
        amount: unit * paidTarget,
        currency: plan.currency,
        expiresAt: common.expiresAt,
        createdAt: now,
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
      created = await this.payments.createCheckout({
        ...common,
        kind: 'ADD_SEATS',
        price: { ...plan, currency: sub.currency },
        quantity: extra,
        proratedUnitAmount: prorated,
        couponId: null,
        metadata: { ...metadata, kind: 'ADD_SEATS', subscriptionId: sub.subscriptionId },
      });
      row = {
        tenantId: tenant.id,
        provider: this.payments.kind,
        kind: 'ADD_SEATS',
        learnerId: input.learnerId ?? null,
        totalSeats: input.quantity,
        paidSeats: paidTarget,
        amount: prorated * extra,
        currency: sub.currency,
        expiresAt: common.expiresAt,
        createdAt: now,
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
    const [inserted] = await this.db
      .insert(checkoutSessions)
      .values({ ...row, id: created.id, url: created.url })
      .returning();
    return inserted!;
  }

  async session(tenantId: string, id: string): Promise<CheckoutRow> {
    const [row] = await this.db
      .select()
      .from(checkoutSessions)
      .where(and(eq(checkoutSessions.id, id), eq(checkoutSessions.tenantId, tenantId)))
      .limit(1);
    if (!row) throw notFound('Checkout session not found');
    return this.expireIfDue(row);
  }

  /** The person left the checkout without paying. */
  async cancelSession(id: string): Promise<void> {
    await this.db
      .update(checkoutSessions)
      .set({ status: 'CANCELED' })
      .where(and(eq(checkoutSessions.id, id), eq(checkoutSessions.status, 'OPEN')));
  }

  /** A session past its expiry is EXPIRED (Stripe also says so with checkout.session.expired). */
  async expireIfDue(row: CheckoutRow): Promise<CheckoutRow> {
    if (row.status !== 'OPEN' || row.expiresAt > this.now()) return row;
    const [updated] = await this.db
      .update(checkoutSessions)
      .set({ status: 'EXPIRED' })
      .where(and(eq(checkoutSessions.id, row.id), eq(checkoutSessions.status, 'OPEN')))
      .returning();
    return updated ?? row;
  }

  // ---- webhook events

  /** Verifies and applies one webhook; an event id already applied changes nothing. */
  async webhook(
    payload: Buffer,
    signature: string | undefined,
  ): Promise<{ duplicate: boolean; type: string }> {
    const event = this.payments.verifyWebhook(payload, signature);
    return inTx(this.db, async (tx) => {
      const fresh = await tx
        .insert(webhookEvents)
        .values({ id: event.id, type: event.type })
        .onConflictDoNothing()
        .returning({ id: webhookEvents.id });
      if (fresh.length === 0) return { duplicate: true, type: event.type };
      await this.apply(tx, event);
      return { duplicate: false, type: event.type };
    });
  }

  private async apply(tx: Tx, event: StripeEvent): Promise<void> {
    try {
      await this.applyParsed(tx, event);
    } catch (err) {
      // a signed event of a shape we do not read is recorded and skipped: answering 5xx would make the
      // provider send it again and again
      if (err instanceof ZodError) {
        this.log.warn(
          { id: event.id, type: event.type, issues: err.issues.slice(0, 3) },
          'webhook event not understood',
        );
        return;
      }
      throw err;
    }
  }

  private async applyParsed(tx: Tx, event: StripeEvent): Promise<void> {
    const object = event.data.object;
    switch (event.type) {
      case 'customer.subscription.created':
      case 'customer.subscription.updated':
      case 'customer.subscription.deleted': {
        const sub = fromStripeSubscription(StripeSubscription.parse(object));
        if (event.type === 'customer.subscription.deleted') sub.status = 'CANCELED';
        await this.upsertSubscription(tx, sub, new Date(event.created * 1000));
        return;
      }
      case 'checkout.session.completed':
      case 'checkout.session.async_payment_succeeded': {
        const session = StripeCheckoutSession.parse(object);
        if (session.payment_status && !['paid', 'no_payment_required'].includes(session.payment_status)) {
          // paid later (bank debits): checkout.session.async_payment_succeeded follows
          return;
        }
        await this.completeCheckout(tx, session, new Date(event.created * 1000));
        return;
      }
      case 'checkout.session.expired': {
        const session = StripeCheckoutSession.parse(object);
        await tx
          .update(checkoutSessions)
          .set({ status: 'EXPIRED' })
          .where(and(eq(checkoutSessions.id, session.id), eq(checkoutSessions.status, 'OPEN')));
        return;
      }
      case 'invoice.paid': {
        const invoice = StripeInvoice.parse(object);
        const subscriptionId = idOf(invoice.subscription);
        if (!subscriptionId) return;
        // a negative customer balance is credit
        const credit = Math.max(0, -(invoice.ending_balance ?? 0));
        await tx
          .update(subscriptions)
          .set({ balance: credit, updatedAt: new Date() })
          .where(eq(subscriptions.subscriptionId, subscriptionId));
        return;
      }
      default:
        this.log.info({ type: event.type, id: event.id }, 'webhook event ignored');
    }
  }

  private async upsertSubscription(
    tx: Tx,
    sub: ProviderSubscription,
    eventAt: Date,
  ): Promise<SubscriptionRow | null> {
    // once a subscription id belongs to a tenant it stays theirs: an event's metadata (editable at the
    // provider, copied from whatever created the subscription) never moves it, or its seats, to another
    const [known] = await tx
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.subscriptionId, sub.subscriptionId))
      .limit(1);
    const tenantId = known?.tenantId ?? sub.tenantId;
    if (known && sub.tenantId && sub.tenantId !== known.tenantId) {
      this.log.warn(
        { subscriptionId: sub.subscriptionId, owner: known.tenantId, metadataTenantId: sub.tenantId },
        "subscription event names another tenant in its metadata; applied to the subscription's owner",
      );
    }
    if (!tenantId) {
      this.log.warn({ subscriptionId: sub.subscriptionId }, 'subscription event for no known tenant');
      return null;
    }
    const [tenant] = await tx.select({ id: users.id }).from(users).where(eq(users.id, tenantId)).limit(1);
    if (!tenant) return null;
    const [current] = await tx
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.tenantId, tenantId))
      .for('update');
    if (
      current &&
      current.subscriptionId === sub.subscriptionId &&
      current.providerUpdatedAt &&
      current.providerUpdatedAt > eventAt
    ) {
      // an older event arriving late does not undo a newer one
      return current;
    }
    if (
      current &&
      current.subscriptionId !== sub.subscriptionId &&
      isActive(current) &&
      sub.status === 'CANCELED'
    ) {
      // the end of an older subscription does not end the current one
      return current;
    }
    const values = {
      tenantId,
      provider: this.payments.kind,
      subscriptionId: sub.subscriptionId,
      customerId: sub.customerId,
      itemId: sub.itemId,
      status: sub.status,
      quantity: sub.quantity,
      priceId: sub.priceId,
      unitAmount: sub.unitAmount,
      currency: sub.currency,
      periodType: sub.periodType,
      percentOff: sub.percentOff,
      startDate: sub.startDate,
      currentPeriodStart: sub.currentPeriodStart,
      currentPeriodEnd: sub.currentPeriodEnd,
      cancelAtPeriodEnd: sub.cancelAtPeriodEnd,
      providerUpdatedAt: eventAt,
      updatedAt: new Date(),
    };
    const [row] = await tx
      .insert(subscriptions)
      .values(values)
      .onConflictDoUpdate({ target: subscriptions.tenantId, set: values })
      .returning();
    return row ?? null;
  }

  private async completeCheckout(tx: Tx, session: z.infer<typeof StripeCheckoutSession>, eventAt: Date) {
    const [row] = await tx
      .select()
      .from(checkoutSessions)
      .where(eq(checkoutSessions.id, session.id))
      .for('update');
    if (!row) {
      this.log.warn({ sessionId: session.id }, 'checkout completed for no session of ours');
      return;
    }
    if (row.status === 'COMPLETE') return;
    await lockTenant(tx, row.tenantId);
    if (row.kind === 'SUBSCRIBE') {
      const subscriptionId = idOf(session.subscription);
      if (!subscriptionId)
        throw new HttpError(400, 'The completed checkout has no subscription.', {
          field: 'data.object.subscription',
        });
      const [known] = await tx
        .select({ tenantId: subscriptions.tenantId })
        .from(subscriptions)
        .where(eq(subscriptions.subscriptionId, subscriptionId))
        .limit(1);
      if (known && known.tenantId !== row.tenantId) {
        // a subscription is its tenant's for good: another tenant's checkout cannot claim it
        this.log.warn(
          { subscriptionId, checkoutTenant: row.tenantId, owner: known.tenantId },
          "a checkout completed with another tenant's subscription; the checkout is not applied",
        );
        return;
      }
      if (!known) {
        // Stripe does not promise the order of events: read the subscription from the provider
        const fetched = await this.payments.retrieveSubscription(subscriptionId);
        if (!fetched)
          throw new HttpError(
            503,
            'The subscription of this checkout is not known yet; send the event again.',
          );
        // the checkout is ours and names its tenant; the subscription's metadata does not decide
        await this.upsertSubscription(tx, { ...fetched, tenantId: row.tenantId }, eventAt);
      }
      const customerId = idOf(session.customer);
      if (customerId) {
        await tx
          .update(subscriptions)
          .set({ customerId })
          .where(
            and(eq(subscriptions.tenantId, row.tenantId), eq(subscriptions.subscriptionId, subscriptionId)),
          );
      }
    } else {
      const [sub] = await tx
        .select()
        .from(subscriptions)
        .where(eq(subscriptions.tenantId, row.tenantId))
        .for('update');
      if (!sub) throw new HttpError(409, 'Seats were paid for a subscription that no longer exists.');
      const seats = (row.details as SessionDetails).seats ?? row.paidSeats - sub.quantity;
      const quantity = sub.quantity + Math.max(0, seats);
      await this.payments.setQuantity({ subscriptionId: sub.subscriptionId, itemId: sub.itemId }, quantity);
      await tx
        .update(subscriptions)
        .set({ quantity, updatedAt: new Date() })
        .where(eq(subscriptions.tenantId, row.tenantId));
    }
    await tx
      .update(checkoutSessions)
      .set({ status: 'COMPLETE', completedAt: this.now() })
      .where(eq(checkoutSessions.id, row.id));
    if (row.learnerId) await this.addPaidLearner(tx, row.tenantId, row.learnerId);
  }

  /** The learner a checkout was for becomes a seat, if there is room (there is: the seat was just paid). */
  private async addPaidLearner(tx: Tx, tenantId: string, learnerId: string) {
    const usage = await usageOf(tx, tenantId, this.now());
    if (!usage.hasRoom) {
      this.log.warn({ tenantId, learnerId }, 'paid checkout but no free seat for its learner');
      return;
    }
    const [learner] = await tx
      .select({ email: users.email })
      .from(users)
      .where(and(eq(users.id, learnerId), eq(users.role, 'USER'), eq(users.isDeleted, false)))
      .limit(1);
    if (!learner) return;
    await tx.insert(tenantUsers).values({ tenantId, learnerId }).onConflictDoNothing();
    await tx
      .update(tenantInvitations)
      .set({ status: 'ACCEPTED', learnerId, acceptedAt: this.now() })
      .where(
        and(
          eq(tenantInvitations.tenantId, tenantId),
          eq(tenantInvitations.email, learner.email.toLowerCase()),
          eq(tenantInvitations.status, 'PENDING'),
        ),
      );
  }

  // ---- the seat job

  /**
   * Deletes seats whose access ended (removed by a subscribed tenant, at the end of the billing cycle),
   * expires old invitations and open checkouts, and renews sandbox subscriptions whose period ended
   * (Stripe renews its own and tells us by webhook).
   */
  async runSeatJob(): Promise<{ removed: number; renewed: number; invitationsExpired: number }> {
    const now = this.now();
    const removed = await this.db
      .delete(tenantUsers)
      .where(and(eq(tenantUsers.isDisabled, true), lte(tenantUsers.accessUntil, now)))
      .returning({ id: tenantUsers.id });
    const expired = await this.db
      .update(tenantInvitations)
      .set({ status: 'EXPIRED' })
      .where(and(eq(tenantInvitations.status, 'PENDING'), lte(tenantInvitations.expiresAt, now)))
      .returning({ id: tenantInvitations.id });
    await this.db
      .update(checkoutSessions)
      .set({ status: 'EXPIRED' })
      .where(and(eq(checkoutSessions.status, 'OPEN'), lte(checkoutSessions.expiresAt, now)));
    let renewed = 0;
    if (this.payments.kind === 'sandbox') {
      const due = await this.db
        .select()
        .from(subscriptions)
        .where(
          and(
            eq(subscriptions.provider, 'sandbox'),
            lte(subscriptions.currentPeriodEnd, now),
            or(eq(subscriptions.status, 'ACTIVE'), eq(subscriptions.status, 'TRIALING')),
          ),
        );
      for (const sub of due) {
        if (sub.cancelAtPeriodEnd) {
          await this.db
            .update(subscriptions)
            .set({ status: 'CANCELED', updatedAt: now })
            .where(eq(subscriptions.tenantId, sub.tenantId));
          continue;
        }
        let start = sub.currentPeriodEnd;
        let end = periodEnd(start, sub.periodType as PeriodType);
        while (end <= now) {
          start = end;
          end = periodEnd(start, sub.periodType as PeriodType);
        }
        await this.db
          .update(subscriptions)
          .set({ currentPeriodStart: start, currentPeriodEnd: end, balance: 0, updatedAt: now })
          .where(
            and(
              eq(subscriptions.tenantId, sub.tenantId),
              eq(subscriptions.currentPeriodEnd, sub.currentPeriodEnd),
            ),
          );
        renewed++;
      }
    }
    return { removed: removed.length, renewed, invitationsExpired: expired.length };
  }

  /**
   * After a subscribed tenant's seat is disabled: the next period is billed for the seats still used
   * (never fewer than 0, never more than now). Without proration: this period stays paid.
   */
  async shrinkForNextPeriod(tx: Tx, tenantId: string): Promise<void> {
    const usage = await usageOf(tx, tenantId, this.now());
    const sub = usage.subscription;
    if (!isActive(sub)) return;
    const target = Math.min(sub.quantity, paidSeatsFor(usage.active + usage.pending));
    if (target === sub.quantity) return;
    await this.payments.setQuantity({ subscriptionId: sub.subscriptionId, itemId: sub.itemId }, target);
    await tx
      .update(subscriptions)
      .set({ quantity: target, updatedAt: new Date() })
      .where(eq(subscriptions.tenantId, tenantId));
  }
}

const seatWord = (n: number) => `${n} seat${n === 1 ? '' : 's'}`;
