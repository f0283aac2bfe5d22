/**
 * A tenant's learner seats: finding one of the tenant's learners (or refusing another tenant's), the check
 * before adding, adding by e-mail through the subscription flow of mentor §4, removing (at once, or at the
 * end of the billing cycle when subscribed). Invitations are in ./invitations.ts.
 */
import { decideAddUser, seatsShort } from '@shared/rules/seats';
import { TENANT_ERROR_CODES, TENANT_MESSAGES } from '@shared/schemas/tenant';
import { and, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { inTx, isUniqueViolation } from '../db/helpers';
import { tenantUsers, users } from '../db/schema';
import { conflict, notFound } from '../http/errors';
import { recordAudit } from '../integrations/core/audit';
import { emitEvent } from '../integrations/core/events';
import type { Actor } from '../integrations/core/principal';
import { isOffered, lockTenant, planAndUsage, type SeatPlans, visibleSeat } from './accounting';
import { tenantInvitations } from './tables';

export const learnerNotFound = () => notFound(TENANT_MESSAGES.learnerNotFound);
export const alreadyAssigned = () =>
  conflict(TENANT_MESSAGES.alreadyAssigned, { code: 11000, field: 'email', keyPattern: { email: 1 } });

/** 'Email Not Found' with whether an invitation may be sent (a 404 of its own shape). */
export class EmailNotFound extends Error {
  constructor(readonly isAllowToInvite: boolean) {
    super(TENANT_MESSAGES.emailNotFound);
  }
  body() {
    return {
      statusCode: 404,
      error: 'Not Found',
      message: TENANT_MESSAGES.emailNotFound,
      errorCode: TENANT_ERROR_CODES.emailNotFound,
      field: 'email',
      isAllowToInvite: this.isAllowToInvite,
    };
  }
}

/** One of the tenant's learners with the seat, or 404 (another tenant's learner is as good as missing). */
export async function requireLearner(db: Db, tenantId: string, userId: string, now: Date) {
  const [row] = await db
    .select({ seat: tenantUsers, learner: users })
    .from(tenantUsers)
    .innerJoin(users, eq(users.id, tenantUsers.learnerId))
    .where(and(visibleSeat(tenantId, now), eq(tenantUsers.learnerId, userId)))
    .limit(1);
  if (!row) throw learnerNotFound();
  return row;
}

/** A seat as GET /tenant/users/list shows it. */
export function toEntry(seat: typeof tenantUsers.$inferSelect, learner: typeof users.$inferSelect) {
  return {
    _id: seat.id,
    learnerId: {
      _id: learner.id,
      name: learner.name,
      phoneNumber: learner.phoneNumber,
      countrycode: learner.countrycode,
      email: learner.email,
    },
    isDisabled: seat.isDisabled,
  };
}

/** A seat with when it was added and, once removed, until when it stays readable. */
export function toSeat(seat: typeof tenantUsers.$inferSelect, learner: typeof users.$inferSelect) {
  return {
    ...toEntry(seat, learner),
    accessUntil: seat.accessUntil?.toISOString() ?? null,
    createdAt: seat.createdAt.toISOString(),
  };
}

/**
 * The account of an address: a learner, someone else (a mentor, a deleted account), or nobody. A sandbox's
 * demo learner is nobody's to seat (decision 041: never billed).
 */
export async function accountOf(db: Db, email: string) {
  const [row] = await db
    .select()
    .from(users)
    .where(and(sql`lower(${users.email}) = ${email}`, isNull(users.sandboxOf)))
    .limit(1);
  return row ?? null;
}

async function seatOf(db: Db, tenantId: string, learnerId: string) {
  const [row] = await db
    .select()
    .from(tenantUsers)
    .where(and(eq(tenantUsers.tenantId, tenantId), eq(tenantUsers.learnerId, learnerId)))
    .limit(1);
  return row ?? null;
}

/** The learner of an address, or EmailNotFound (with isAllowToInvite when nobody has the address). */
async function learnerByEmail(db: Db, plans: SeatPlans, tenantId: string, email: string, now: Date) {
  const account = await accountOf(db, email);
  if (account?.role !== 'USER' || account.isDeleted) {
    // an invitation is for an address with no account and a free seat
    const { usage } = await planAndUsage(plans, db, tenantId, now);
    throw new EmailNotFound(!account && usage.hasRoom);
  }
  return account;
}

export async function beforeCheck(db: Db, plans: SeatPlans, tenantId: string, email: string, now: Date) {
  const learner = await learnerByEmail(db, plans, tenantId, email, now);
  if ((await seatOf(db, tenantId, learner.id))?.isDisabled === false) throw alreadyAssigned();
  const { usage } = await planAndUsage(plans, db, tenantId, now);
  return {
    isExist: true as const,
    learnerId: learner.id,
    name: learner.name,
    email: learner.email,
    isAccessToAddUser: usage.hasRoom,
  };
}

/**
 * The check before adding, for a list of addresses (a roster) in three reads whatever its length: their
 * accounts, which of those are the tenant's seats, and the tenant's pending invitations among them; then
 * the seat counts. Each address gets what `beforeCheck` and `addLearner` would say of it (an account that
 * is not a learner's, or a deleted one, is EMAIL_NOT_FOUND, as there).
 */
export async function beforeCheckMany(
  db: Db,
  plans: SeatPlans,
  tenantId: string,
  emails: readonly string[],
  now: Date,
) {
  const unique = [...new Set(emails)];
  const accounts = await db
    .select({
      id: users.id,
      email: users.email,
      name: users.name,
      role: users.role,
      isDeleted: users.isDeleted,
    })
    .from(users)
    .where(and(sql`lower(${users.email}) in ${unique}`, isNull(users.sandboxOf)));
  const accountOfEmail = new Map(accounts.map((a) => [a.email.toLowerCase(), a]));
  const learnerIds = accounts.filter((a) => a.role === 'USER' && !a.isDeleted).map((a) => a.id);
  const seated = new Set(
    learnerIds.length
      ? (
          await db
            .select({ learnerId: tenantUsers.learnerId })
            .from(tenantUsers)
            .where(
              and(
                eq(tenantUsers.tenantId, tenantId),
                inArray(tenantUsers.learnerId, learnerIds),
                eq(tenantUsers.isDisabled, false),
              ),
            )
        ).map((r) => r.learnerId)
      : [],
  );
  const invited = new Set(
    (
      await db
        .select({ email: tenantInvitations.email })
        .from(tenantInvitations)
        .where(
          and(
            eq(tenantInvitations.tenantId, tenantId),
            inArray(tenantInvitations.email, unique),
            eq(tenantInvitations.status, 'PENDING'),
            gt(tenantInvitations.expiresAt, now),
          ),
        )
    ).map((r) => r.email),
  );
  const { usage } = await planAndUsage(plans, db, tenantId, now);
  return {
    results: emails.map((email) => {
      const account = accountOfEmail.get(email);
      const learner = account?.role === 'USER' && !account.isDeleted ? account : null;
      return {
        email,
        outcome: !learner
          ? ('EMAIL_NOT_FOUND' as const)
          : seated.has(learner.id)
            ? ('ALREADY_ASSIGNED' as const)
            : ('ADD' as const),
        learnerId: learner?.id ?? null,
        name: learner?.name ?? null,
        invitable: !account,
        invited: invited.has(email),
      };
    }),
    seats: { allowance: usage.allowance, active: usage.active, pending: usage.pending },
  };
}

/** The learner as a seat's event names them. */
const learnerOf = (l: { id: string; email: string; name: string | null }) => ({
  id: l.id,
  email: l.email,
  name: l.name,
});

/** Not added: the tenant's seats were full. The savepoint's writes are rolled back; the answer is in `result`. */
class NotAdded extends Error {
  constructor(
    readonly result: {
      data: {
        outcome: Exclude<ReturnType<typeof decideAddUser>, 'ADD'>;
        user: null;
        learnerId: string;
        quantity: number;
        seatsNeeded: number;
      };
      message: string;
    },
  ) {
    super('NOT_ADDED');
  }
}

/**
 * Adds a learner by e-mail, or says which payment step comes first (nothing written then); `by` is recorded
 * in the activity log, and a seat.added event goes out, with the seat. A seat removed but still readable
 * until the end of the billing cycle (disabled) is given back — the same seat, its history kept — under the
 * same rule as a new one: it no longer used the allowance.
 *
 * The seat is written first and counted last, under the tenant's lock (decision 050): the lock is held for
 * the count, the decision and the commit only, so that many adds of one tenant (a directory's push) do their
 * other writes side by side. The count sees the seats of every add that took the lock before (they
 * committed) and this one's own; when over the allowance, the writes are rolled back to the savepoint.
 */
export async function addLearner(
  db: Db,
  plans: SeatPlans,
  tenantId: string,
  email: string,
  now: Date,
  by: Actor,
) {
  const learner = await learnerByEmail(db, plans, tenantId, email, now);
  return inTx(db, async (tx) => {
    const held = await seatOf(tx, tenantId, learner.id);
    if (held && !held.isDisabled) throw alreadyAssigned();
    try {
      return await inTx(tx, async (sp) => {
        const [seat] = held
          ? await sp
              .update(tenantUsers)
              .set({ isDisabled: false, accessUntil: null })
              .where(and(eq(tenantUsers.id, held.id), eq(tenantUsers.isDisabled, true)))
              .returning()
          : await sp
              .insert(tenantUsers)
              .values({ tenantId, learnerId: learner.id, createdAt: now })
              .returning();
        // another request gave the seat back first
        if (!seat) throw alreadyAssigned();
        await seatChanged(sp, by, tenantId, 'seat.added', seat.id, learner, {
          via: 'ADDED',
          addedAt: now.toISOString(),
        });
        await lockTenant(sp, tenantId);
        const { plan, usage: counted } = await planAndUsage(plans, sp, tenantId, now);
        // the seats without this one, as the decision is about adding it
        const active = counted.active - 1;
        const usage = { ...counted, active, hasRoom: active + counted.pending < counted.allowance };
        const decision = decideAddUser({
          isSubscribed: plan.subscribed,
          isAccessToAddUser: usage.hasRoom,
          isOffered: await isOffered(plans, sp, tenantId, plan, now),
        });
        const quantity = usage.active + usage.pending + 1;
        if (decision !== 'ADD') {
          // what this learner needs beyond the seats the tenant may hold now (more than one when the
          // allowance shrank under the seats held, e.g. a subscription cut back); at least one
          const message = {
            NOT_YET_SUBSCRIBED: TENANT_MESSAGES.notYetSubscribed,
            PAYMENT_REQUIRED: TENANT_MESSAGES.paymentRequired,
            OFFER_LIMIT: TENANT_MESSAGES.offerLimit,
          }[decision];
          const seatsNeeded = seatsShort(usage, 1);
          throw new NotAdded({
            data: { outcome: decision, user: null, learnerId: learner.id, quantity, seatsNeeded },
            message,
          });
        }
        // an invitation of this address is fulfilled
        await sp
          .update(tenantInvitations)
          .set({ status: 'ACCEPTED', learnerId: learner.id, acceptedAt: now })
          .where(
            and(
              eq(tenantInvitations.tenantId, tenantId),
              eq(tenantInvitations.email, email),
              eq(tenantInvitations.status, 'PENDING'),
            ),
          );
        return {
          data: {
            outcome: 'ADDED' as const,
            user: toSeat(seat, learner),
            learnerId: learner.id,
            quantity,
            seatsNeeded: 0,
          },
          message: TENANT_MESSAGES.added,
        };
      });
    } catch (err) {
      if (err instanceof NotAdded) return err.result;
      // the same learner added by another request at the same moment
      if (isUniqueViolation(err)) throw alreadyAssigned();
      throw err;
    }
  });
}

/**
 * Removes a learner's seat: at once when not subscribed; when subscribed, the seat is disabled until the
 * end of the billing cycle (readable meanwhile) and the next period is billed without it.
 */
export async function removeLearner(
  db: Db,
  plans: SeatPlans,
  tenantId: string,
  learnerId: string,
  now: Date,
  by: Actor,
) {
  return inTx(db, async (tx) => {
    await lockTenant(tx, tenantId);
    const [found] = await tx
      .select({ seat: tenantUsers, learner: users })
      .from(tenantUsers)
      .innerJoin(users, eq(users.id, tenantUsers.learnerId))
      .where(and(visibleSeat(tenantId, now), eq(tenantUsers.learnerId, learnerId)))
      .for('update', { of: tenantUsers });
    if (!found) throw learnerNotFound();
    const { seat, learner } = found;
    if (seat.isDisabled) {
      return { removed: false, isDisabled: true, accessUntil: seat.accessUntil?.toISOString() ?? null };
    }
    const plan = await plans.planOf(tx, tenantId);
    const removed = (accessUntil: Date | null) =>
      seatChanged(tx, by, tenantId, 'seat.removed', seat.id, learner, {
        removedAt: now.toISOString(),
        accessUntil: accessUntil?.toISOString() ?? null,
      });
    if (!plan.subscribed || !plan.periodEnd || plan.periodEnd <= now) {
      await tx.delete(tenantUsers).where(eq(tenantUsers.id, seat.id));
      await removed(null);
      return { removed: true, isDisabled: false, accessUntil: null };
    }
    await tx
      .update(tenantUsers)
      .set({ isDisabled: true, accessUntil: plan.periodEnd })
      .where(eq(tenantUsers.id, seat.id));
    await plans.shrinkForNextPeriod(tx, tenantId);
    await removed(plan.periodEnd);
    return { removed: false, isDisabled: true, accessUntil: plan.periodEnd.toISOString() };
  });
}

/** A seat taken or given up: its activity-log entry and its event, in the change's transaction. */
async function seatChanged(
  tx: Db,
  by: Actor,
  tenantId: string,
  action: 'seat.added' | 'seat.removed',
  seatId: string,
  learner: { id: string; email: string; name: string | null },
  what: { via: 'ADDED'; addedAt: string } | { removedAt: string; accessUntil: string | null },
) {
  const until = 'accessUntil' in what && what.accessUntil ? ` (readable until ${what.accessUntil})` : '';
  await recordAudit(tx, by, {
    tenantId,
    action,
    target: { kind: 'user', id: learner.id },
    summary:
      action === 'seat.added' ? `${learner.email} added as a learner` : `${learner.email} removed${until}`,
    details: { email: learner.email, seatId, ...what },
  });
  const data = { seatId, learner: learnerOf(learner), ...what };
  if ('via' in data) await emitEvent(tx, { tenantId, type: 'seat.added', subjectUserId: learner.id, data });
  else await emitEvent(tx, { tenantId, type: 'seat.removed', subjectUserId: learner.id, data });
}

// ---- invitations
