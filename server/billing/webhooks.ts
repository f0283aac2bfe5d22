/**
 * The payment provider's webhook events: verified (Stripe's signature scheme, decision 006), applied once per
 * event id, each in one transaction — subscriptions created, changed and ended (an older event never undoes
 * a newer one; a subscription stays its tenant's), checkouts completed (the seats bought, and the learner a
 * checkout was for), checkouts expired, invoices paid (the credit left).
 */
import { and, eq } from 'drizzle-orm';
import { ZodError, type z } from 'zod';
import {
  fromStripeSubscription,
  idOf,
  type ProviderSubscription,
  StripeCheckoutSession,
  type StripeEvent,
  StripeInvoice,
  StripeSubscription,
} from '../adapters/stripe-wire';
import { inTx, type Tx } from '../db/helpers';
import { tenantUsers, users } from '../db/schema';
import { HttpError } from '../http/errors';
import { lockTenant } from '../tenant/accounting';
import { tenantInvitations } from '../tenant/tables';
import type { SessionDetails } from './checkout';
import { isActive, type SubscriptionRow, usageOf } from './plans';
import type { BillingContext } from './service';
import { checkoutSessions, subscriptions, webhookEvents } from './tables';

/** Verifies and applies one webhook; an event id already applied changes nothing. */
export async function applyWebhook(
  ctx: BillingContext,
  payload: Buffer,
  signature: string | undefined,
): Promise<{ duplicate: boolean; type: string }> {
  const event = ctx.payments.verifyWebhook(payload, signature);
  return inTx(ctx.db, async (tx) => {
    const fresh = await tx
      .insert(webhookEvents)
      .values({ id: event.id, type: event.type })
      .onConflictDoNothing()
      .returning({ id: webhookEvents.id });
    if (fresh.length === 0) return { duplicate: true, type: event.type };
    await apply(ctx, tx, event);
    return { duplicate: false, type: event.type };
  });
}

async function apply(ctx: BillingContext, tx: Tx, event: StripeEvent): Promise<void> {
  try {
    await applyParsed(ctx, tx, event);
  } catch (err) {
    // a signed event of a shape we do not read is recorded and skipped: answering 5xx would make the
    // provider send it again and again
    if (err instanceof ZodError) {
      ctx.log.warn(
        { id: event.id, type: event.type, issues: err.issues.slice(0, 3) },
        'webhook event not understood',
      );
      return;
    }
    throw err;
  }
}

async function applyParsed(ctx: BillingContext, tx: Tx, event: StripeEvent): Promise<void> {
  const object = event.data.object;
  switch (event.type) {
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      const sub = fromStripeSubscription(StripeSubscription.parse(object));
      if (event.type === 'customer.subscription.deleted') sub.status = 'CANCELED';
      await upsertSubscription(ctx, tx, sub, new Date(event.created * 1000));
      return;
    }
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded': {
      const session = StripeCheckoutSession.parse(object);
      if (session.payment_status && !['paid', 'no_payment_required'].includes(session.payment_status)) {
        // paid later (bank debits): checkout.session.async_payment_succeeded follows
        return;
      }
      await completeCheckout(ctx, tx, session, new Date(event.created * 1000));
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
      ctx.log.info({ type: event.type, id: event.id }, 'webhook event ignored');
  }
}

async function upsertSubscription(
  ctx: BillingContext,
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
    ctx.log.warn(
      { subscriptionId: sub.subscriptionId, owner: known.tenantId, metadataTenantId: sub.tenantId },
      "subscription event names another tenant in its metadata; applied to the subscription's owner",
    );
  }
  if (!tenantId) {
    ctx.log.warn({ subscriptionId: sub.subscriptionId }, 'subscription event for no known tenant');
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
    provider: ctx.payments.kind,
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

async function completeCheckout(
  ctx: BillingContext,
  tx: Tx,
  session: z.infer<typeof StripeCheckoutSession>,
  eventAt: Date,
) {
  const [row] = await tx
    .select()
    .from(checkoutSessions)
    .where(eq(checkoutSessions.id, session.id))
    .for('update');
  if (!row) {
    ctx.log.warn({ sessionId: session.id }, 'checkout completed for no session of ours');
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
      ctx.log.warn(
        { subscriptionId, checkoutTenant: row.tenantId, owner: known.tenantId },
        "a checkout completed with another tenant's subscription; the checkout is not applied",
      );
      return;
    }
    if (!known) {
      // Stripe does not promise the order of events: read the subscription from the provider
      const fetched = await ctx.payments.retrieveSubscription(subscriptionId);
      if (!fetched)
        throw new HttpError(503, 'The subscription of this checkout is not known yet; send the event again.');
      // the checkout is ours and names its tenant; the subscription's metadata does not decide
      await upsertSubscription(ctx, tx, { ...fetched, tenantId: row.tenantId }, eventAt);
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
    await ctx.payments.setQuantity({ subscriptionId: sub.subscriptionId, itemId: sub.itemId }, quantity);
    await tx
      .update(subscriptions)
      .set({ quantity, updatedAt: new Date() })
      .where(eq(subscriptions.tenantId, row.tenantId));
  }
  await tx
    .update(checkoutSessions)
    .set({ status: 'COMPLETE', completedAt: ctx.now() })
    .where(eq(checkoutSessions.id, row.id));
  if (row.learnerId) await addPaidLearner(ctx, tx, row.tenantId, row.learnerId);
}

/** The learner a checkout was for becomes a seat, if there is room (there is: the seat was just paid). */
async function addPaidLearner(ctx: BillingContext, tx: Tx, tenantId: string, learnerId: string) {
  const usage = await usageOf(tx, tenantId, ctx.now());
  if (!usage.hasRoom) {
    ctx.log.warn({ tenantId, learnerId }, 'paid checkout but no free seat for its learner');
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
    .set({ status: 'ACCEPTED', learnerId, acceptedAt: ctx.now() })
    .where(
      and(
        eq(tenantInvitations.tenantId, tenantId),
        eq(tenantInvitations.email, learner.email.toLowerCase()),
        eq(tenantInvitations.status, 'PENDING'),
      ),
    );
}
