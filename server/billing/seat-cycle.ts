/**
 * The seat cycle: a subscribed tenant's removed seat stays until the end of the period it is paid for, and
 * the next period is billed without it (`shrinkForNextPeriod`, when the seat is removed); the seat job (the
 * `billing-seat-cycle` job, server/jobs/jobs.ts, every 10 minutes) deletes the seats whose access ended,
 * expires old invitations and checkouts, and renews sandbox subscriptions.
 */
import { type PeriodType, paidSeatsFor, periodEnd } from '@shared/rules/seats';
import { and, eq, inArray, lte, or } from 'drizzle-orm';
import type { Tx } from '../db/helpers';
import { tenantUsers, users } from '../db/schema';
import { recordAudit } from '../integrations/core/audit';
import { systemActor } from '../integrations/core/principal';
import { tenantInvitations } from '../tenant/tables';
import { isActive, usageOf } from './plans';
import type { BillingContext } from './service';
import { checkoutSessions, subscriptions } from './tables';

/**
 * Deletes seats whose access ended (removed by a subscribed tenant, at the end of the billing cycle),
 * expires old invitations and open checkouts, and renews sandbox subscriptions whose period ended
 * (Stripe renews its own and tells us by webhook).
 */
export async function runSeatJob(
  ctx: BillingContext,
): Promise<{ removed: number; renewed: number; invitationsExpired: number }> {
  const now = ctx.now();
  // each seat that ends is recorded in its tenant's activity log, in the transaction that deletes it
  const removed = await ctx.db.transaction(async (tx) => {
    const gone = await tx
      .delete(tenantUsers)
      .where(and(eq(tenantUsers.isDisabled, true), lte(tenantUsers.accessUntil, now)))
      .returning({ id: tenantUsers.id, tenantId: tenantUsers.tenantId, learnerId: tenantUsers.learnerId });
    const emails = new Map(
      gone.length
        ? (
            await tx
              .select({ id: users.id, email: users.email })
              .from(users)
              .where(inArray(users.id, [...new Set(gone.map((g) => g.learnerId))]))
          ).map((u) => [u.id, u.email])
        : [],
    );
    await recordAudit(
      tx,
      systemActor,
      gone.map((g) => ({
        tenantId: g.tenantId,
        action: 'seat.ended',
        target: { kind: 'user', id: g.learnerId },
        summary: `${emails.get(g.learnerId) ?? 'A learner'}'s seat ended with the billing cycle`,
        details: { seatId: g.id, email: emails.get(g.learnerId) ?? null },
      })),
    );
    return gone;
  });
  const expired = await ctx.db
    .update(tenantInvitations)
    .set({ status: 'EXPIRED' })
    .where(and(eq(tenantInvitations.status, 'PENDING'), lte(tenantInvitations.expiresAt, now)))
    .returning({ id: tenantInvitations.id });
  await ctx.db
    .update(checkoutSessions)
    .set({ status: 'EXPIRED' })
    .where(and(eq(checkoutSessions.status, 'OPEN'), lte(checkoutSessions.expiresAt, now)));
  let renewed = 0;
  if (ctx.payments.kind === 'sandbox') {
    const due = await ctx.db
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
        await ctx.db
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
      await ctx.db
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
export async function shrinkForNextPeriod(ctx: BillingContext, tx: Tx, tenantId: string): Promise<void> {
  const usage = await usageOf(tx, tenantId, ctx.now());
  const sub = usage.subscription;
  if (!isActive(sub)) return;
  const target = Math.min(sub.quantity, paidSeatsFor(usage.active + usage.pending));
  if (target === sub.quantity) return;
  await ctx.payments.setQuantity({ subscriptionId: sub.subscriptionId, itemId: sub.itemId }, target);
  await tx
    .update(subscriptions)
    .set({ quantity: target, updatedAt: new Date() })
    .where(eq(subscriptions.tenantId, tenantId));
}
