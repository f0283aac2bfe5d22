/**
 * Signing in (decision 002): an identity provider's ID token exchanged for Waymark's own tokens, the account
 * found by its identity or its verified address, or registered on a first sign-in with a role; a sign-in
 * within the deletion's 90 days cancels it.
 */
import type { signInWithFirebase } from '@shared/contract/auth';
import type { CallBody } from '@shared/contract/define';
import type { Role } from '@shared/schemas/common';
import { and, eq, sql } from 'drizzle-orm';
import type { IdentityAdapter, IdentityClaims } from '../adapters/identity';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import { forbidden, HttpError } from '../http/errors';
import { toApiUser, type UserRow } from './current-user';
import type { TokenService } from './tokens';

export const NOT_REGISTERED_MESSAGE = 'You are not Existing User, Please login after registration';
export const EMAIL_NOT_VERIFIED_MESSAGE =
  'Please verify your e-mail address with the link we sent you, then sign in again.';

/** Microsoft accounts count as verified: the provider vouches for the address. */
export const isVerified = (c: IdentityClaims) => c.emailVerified || c.provider === 'microsoft.com';

async function findOrRegister(
  db: Db,
  claims: IdentityClaims,
  role: Role | undefined,
  tenantId: string | undefined,
): Promise<UserRow> {
  const [byUid] = await db.select().from(users).where(eq(users.firebaseUid, claims.uid)).limit(1);
  if (byUid) return byUid;
  const [byEmail] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${claims.email}`)
    .limit(1);
  if (byEmail) {
    // the same verified address through another identity account (a re-created or linked account)
    if (!isVerified(claims)) {
      throw forbidden(EMAIL_NOT_VERIFIED_MESSAGE, 'EMAIL_NOT_VERIFIED');
    }
    const [moved] = await db
      .update(users)
      .set({ firebaseUid: claims.uid })
      .where(eq(users.id, byEmail.id))
      .returning();
    return moved!;
  }
  if (!role) throw new HttpError(404, NOT_REGISTERED_MESSAGE, { errorCode: 'NOT_REGISTERED' });
  let invitedBy: string | null = null;
  if (tenantId && role === 'USER') {
    const [tenant] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.id, tenantId), eq(users.role, 'TENANT')))
      .limit(1);
    invitedBy = tenant?.id ?? null;
  }
  const [created] = await db
    .insert(users)
    .values({
      firebaseUid: claims.uid,
      email: claims.email,
      emailVerified: isVerified(claims),
      signInProvider: claims.provider,
      role,
      name: claims.name,
      picture: claims.picture,
      invitedByTenantId: invitedBy,
    })
    .onConflictDoNothing()
    .returning();
  if (created) return created;
  // a concurrent first sign-in of the same account registered it a moment ago
  const [again] = await db.select().from(users).where(eq(users.firebaseUid, claims.uid)).limit(1);
  if (!again)
    throw new HttpError(409, 'This e-mail address is already registered.', { code: 11000, field: 'email' });
  return again;
}

/** Signs a person in with an identity provider's ID token: the account and a session's tokens. */
export async function signIn(
  db: Db,
  identity: IdentityAdapter,
  tokens: TokenService,
  body: CallBody<typeof signInWithFirebase>,
  /** The organisation whose own sign-in the address must use, or null (AuthDeps.ssoRequiredFor). */
  ssoRequiredFor?: (email: string) => Promise<string | null>,
) {
  const claims = await identity.verifyIdToken(body.token);
  // an organisation that requires its own sign-in for its domain: its learners use it (its mentors, who
  // set it up, keep their own sign-in) — decided before anything is registered
  if (ssoRequiredFor) {
    const organisation = await ssoRequiredFor(claims.email);
    // the account's role, or the one a first sign-in registers
    const role = organisation ? ((await accountOf(db, claims))?.role ?? body.role) : undefined;
    if (organisation && role !== 'TENANT')
      throw forbidden(
        `${organisation} signs you in: use "Continue with your organisation" with ${claims.email}.`,
        'SSO_REQUIRED',
      );
  }
  let user = await findOrRegister(db, claims, body.role, body.tenantId);
  if (!isVerified(claims)) {
    throw forbidden(EMAIL_NOT_VERIFIED_MESSAGE, 'EMAIL_NOT_VERIFIED');
  }
  const deletionCanceled = user.isDeleted;
  const [updated] = await db
    .update(users)
    .set({
      emailVerified: true,
      signInProvider: claims.provider,
      lastLoginAt: new Date(),
      picture: user.picture ?? claims.picture,
      ...(deletionCanceled ? { isDeleted: false, deletionRequestedAt: null, deleteReason: null } : {}),
    })
    .where(eq(users.id, user.id))
    .returning();
  user = updated!;
  const issued = await tokens.issue(user, body.device);
  return { user: toApiUser(user), token: issued.token, refreshToken: issued.refreshToken, deletionCanceled };
}

/** The account an identity's claims name (by its uid, else its address), if there is one. */
async function accountOf(db: Db, claims: IdentityClaims) {
  const [row] = await db
    .select({ role: users.role })
    .from(users)
    .where(sql`${users.firebaseUid} = ${claims.uid} or lower(${users.email}) = ${claims.email}`)
    .limit(1);
  return row ?? null;
}

/** The role of an account that may still sign in (not deleted), or null: what a refresh reads. */
export async function roleOf(db: Db, userId: string) {
  const [row] = await db
    .select({ role: users.role, isDeleted: users.isDeleted })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return row && !row.isDeleted ? row.role : null;
}

/** Whether an account has this address (any case). */
export async function emailExists(db: Db, email: string) {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = ${email}`)
    .limit(1);
  return Boolean(row);
}
