/**
 * A tenant's learner seats: finding one of the tenant's learners (or refusing another tenant's), the check
 * before adding, adding by e-mail through the subscription flow of mentor §4, removing (at once, or at the
 * end of the billing cycle when subscribed), and invitations.
 */
import { decideAddUser, seatsShort } from '@shared/rules/seats';
import { TENANT_ERROR_CODES, TENANT_MESSAGES } from '@shared/schemas/tenant';
import { and, desc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { inTx } from '../db/helpers';
import { tenantUsers, users } from '../db/schema';
import { conflict, HttpError, notFound } from '../http/errors';
import { recordAudit } from '../integrations/core/audit';
import { emitEvent } from '../integrations/core/events';
import type { Actor } from '../integrations/core/principal';
import { isOffered, lockTenant, planAndUsage, type SeatPlans, visibleSeat } from './accounting';
import { tenantInvitations } from './tables';

export type InvitationRow = typeof tenantInvitations.$inferSelect;

/** How long an invitation keeps its seat. */
export const INVITATION_TTL_MS = 7 * 86_400_000;

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
async function accountOf(db: Db, email: string) {
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

/**
 * Adds a learner by e-mail, or says which payment step comes first (nothing written then); `by` is recorded
 * in the activity log, and a seat.added event goes out, with the seat. A seat removed but still readable
 * until the end of the billing cycle (disabled) is given back — the same seat, its history kept — under the
 * same rule as a new one: it no longer used the allowance.
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
    await lockTenant(tx, tenantId);
    const held = await seatOf(tx, tenantId, learner.id);
    if (held && !held.isDisabled) throw alreadyAssigned();
    const { plan, usage } = await planAndUsage(plans, tx, tenantId, now);
    const decision = decideAddUser({
      isSubscribed: plan.subscribed,
      isAccessToAddUser: usage.hasRoom,
      isOffered: await isOffered(plans, tx, tenantId, plan, now),
    });
    const quantity = usage.active + usage.pending + 1;
    // what this learner needs beyond the seats the tenant may hold now (more than one when the allowance
    // shrank under the seats held, e.g. a subscription cut back); at least one, as no seat is free
    const seatsNeeded = seatsShort(usage, 1);
    if (decision !== 'ADD') {
      const message = {
        NOT_YET_SUBSCRIBED: TENANT_MESSAGES.notYetSubscribed,
        PAYMENT_REQUIRED: TENANT_MESSAGES.paymentRequired,
        OFFER_LIMIT: TENANT_MESSAGES.offerLimit,
      }[decision];
      return {
        data: { outcome: decision, user: null, learnerId: learner.id, quantity, seatsNeeded },
        message,
      };
    }
    const [seat] = held
      ? await tx
          .update(tenantUsers)
          .set({ isDisabled: false, accessUntil: null })
          .where(eq(tenantUsers.id, held.id))
          .returning()
      : await tx.insert(tenantUsers).values({ tenantId, learnerId: learner.id, createdAt: now }).returning();
    await seatChanged(tx, by, tenantId, 'seat.added', seat!.id, learner, {
      via: 'ADDED',
      addedAt: now.toISOString(),
    });
    // an invitation of this address is fulfilled
    await tx
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
        user: toSeat(seat!, learner),
        learnerId: learner.id,
        quantity: quantity,
        seatsNeeded: 0,
      },
      message: TENANT_MESSAGES.added,
    };
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

export function toInvitation(row: InvitationRow, now: Date) {
  const expired = row.status === 'PENDING' && row.expiresAt <= now;
  return {
    _id: row.id,
    email: row.email,
    status: expired ? ('EXPIRED' as const) : row.status,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    acceptedAt: row.acceptedAt?.toISOString() ?? null,
  };
}

/** Records (or renews) an invitation for an address with no account, keeping a seat for it. */
export async function invite(
  db: Db,
  plans: SeatPlans,
  tenantId: string,
  email: string,
  now: Date,
  by: Actor,
): Promise<InvitationRow> {
  const account = await accountOf(db, email);
  if (account) {
    throw conflict('This e-mail address already has an account: add it with Add User.', {
      code: 11000,
      field: 'email',
      keyPattern: { email: 1 },
    });
  }
  return inTx(db, async (tx) => {
    await lockTenant(tx, tenantId);
    const [existing] = await tx
      .select()
      .from(tenantInvitations)
      .where(and(eq(tenantInvitations.tenantId, tenantId), eq(tenantInvitations.email, email)))
      .for('update');
    const stillPending = existing?.status === 'PENDING' && existing.expiresAt > now;
    if (!stillPending) {
      const { usage } = await planAndUsage(plans, tx, tenantId, now);
      if (!usage.hasRoom) {
        throw new HttpError(400, 'Every seat is taken: add seats before inviting someone.', {
          field: 'email',
          errorCode: 'NO_FREE_SEAT',
        });
      }
    }
    const values = {
      tenantId,
      email,
      status: 'PENDING' as const,
      learnerId: null,
      createdAt: now,
      expiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
      acceptedAt: null,
    };
    const [row] = await tx
      .insert(tenantInvitations)
      .values(values)
      .onConflictDoUpdate({ target: [tenantInvitations.tenantId, tenantInvitations.email], set: values })
      .returning();
    await recordAudit(tx, by, {
      tenantId,
      action: 'seat.invited',
      target: { kind: 'invitation', id: row!.id },
      summary: `${email} invited (a seat kept until ${values.expiresAt.toISOString()})`,
      details: { email, expiresAt: values.expiresAt.toISOString(), renewed: stillPending },
    });
    return row!;
  });
}

export async function invitationsOf(db: Db, tenantId: string): Promise<InvitationRow[]> {
  return db
    .select()
    .from(tenantInvitations)
    .where(eq(tenantInvitations.tenantId, tenantId))
    .orderBy(desc(tenantInvitations.createdAt));
}

export async function cancelInvitation(
  db: Db,
  tenantId: string,
  id: string,
  by: Actor,
): Promise<InvitationRow> {
  return inTx(db, async (tx) => {
    const [updated] = await tx
      .update(tenantInvitations)
      .set({ status: 'CANCELED' })
      .where(
        and(
          eq(tenantInvitations.id, id),
          eq(tenantInvitations.tenantId, tenantId),
          eq(tenantInvitations.status, 'PENDING'),
        ),
      )
      .returning();
    if (updated) {
      await recordAudit(tx, by, {
        tenantId,
        action: 'seat.invitation_canceled',
        target: { kind: 'invitation', id },
        summary: `The invitation of ${updated.email} canceled`,
        details: { email: updated.email },
      });
      return updated;
    }
    const [row] = await tx
      .select()
      .from(tenantInvitations)
      .where(and(eq(tenantInvitations.id, id), eq(tenantInvitations.tenantId, tenantId)))
      .limit(1);
    if (!row) throw notFound('Invitation not found');
    return row;
  });
}

/** The public check of an invitation link: pending for that address, and the tenant's name. */
export async function checkInvitation(db: Db, tenantId: string, email: string, now: Date) {
  const [row] = await db
    .select({ inv: tenantInvitations, tenantName: users.name })
    .from(tenantInvitations)
    .innerJoin(users, eq(users.id, tenantInvitations.tenantId))
    .where(and(eq(tenantInvitations.tenantId, tenantId), eq(tenantInvitations.email, email)))
    .limit(1);
  const valid = Boolean(row && row.inv.status === 'PENDING' && row.inv.expiresAt > now);
  return {
    valid,
    tenantName: valid ? (row?.tenantName ?? null) : null,
    expiresAt: valid ? row!.inv.expiresAt.toISOString() : null,
  };
}
