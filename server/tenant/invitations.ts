/**
 * A tenant's invitations (mentor §2.3): an address with no account is invited and keeps a seat for seven
 * days; the learner who registers through the link takes it. Kept apart from the seats (./seats.ts), whose
 * accounting (./accounting.ts) counts pending invitations against the allowance.
 */
import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { inTx } from '../db/helpers';
import { users } from '../db/schema';
import { conflict, HttpError, notFound } from '../http/errors';
import { recordAudit } from '../integrations/core/audit';
import type { Actor } from '../integrations/core/principal';
import { lockTenant, planAndUsage, type SeatPlans } from './accounting';
import { accountOf } from './seats';
import { tenantInvitations } from './tables';

type InvitationRow = typeof tenantInvitations.$inferSelect;

/** How long an invitation keeps its seat. */
const INVITATION_TTL_MS = 7 * 86_400_000;

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
