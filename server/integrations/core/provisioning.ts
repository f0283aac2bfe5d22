/**
 * A learner an outside system vouches for (an LTI launch or roster, an SSO sign-in, a SCIM user), made a
 * Waymark account the first time and found again by the same identity afterwards (decision 044; the table
 * is decision 039's `external_identities`). One function for every integration, so a person reached three
 * ways is one learner:
 *
 * 1. The identity (tenant, issuer, subject) already linked: its account.
 * 2. Else, when the source vouches for the e-mail address (`emailVerified`: the registration or provider
 *    says its addresses are verified), the learner account holding that address — never a mentor's
 *    account, nor one being deleted — is linked.
 * 3. Else a new learner account: with the address when it is vouched for and free; otherwise with an
 *    address of its own under `users.invalid` (an address nobody can receive), so an unverified claim never
 *    takes a real person's address — or their account, should they sign in with it later.
 *
 * Seats are not given here: the caller adds one through the tenant's seat rules (server/tenant/seats.ts).
 * Concurrent first arrivals of one identity wait on one advisory lock, so it is linked once.
 */

import { createHash } from 'node:crypto';
import type { Locale } from '@shared/i18n/locales';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { inTx } from '../../db/helpers';
import { users } from '../../db/schema';
import { type IdentitySource, linkIdentity, userForIdentity } from './identities';

export interface LearnerClaims {
  tenantId: string;
  issuer: string;
  subject: string;
  source: IdentitySource;
  /** The address the source gives, if any (lower-cased here). */
  email?: string | null;
  /** Whether the source vouches for the address. */
  emailVerified: boolean;
  name?: string | null;
  /** The language the source says the person reads (an account made now reads Waymark in it). */
  language?: Locale | null;
}

export interface Provisioned {
  userId: string;
  email: string;
  name: string | null;
  /** How the account was found: by the identity, by a vouched-for address, or made now. */
  how: 'identity' | 'email' | 'created';
}

/** The address of an account made for an identity whose address is not vouched for. */
export function placeholderEmail(claims: Pick<LearnerClaims, 'tenantId' | 'issuer' | 'subject' | 'source'>) {
  const h = createHash('sha256')
    .update(`${claims.tenantId}\n${claims.issuer}\n${claims.subject}`)
    .digest('hex')
    .slice(0, 24);
  return `${claims.source}-${h}@users.invalid`;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export async function provisionLearner(db: Db, claims: LearnerClaims): Promise<Provisioned> {
  const identity = { tenantId: claims.tenantId, issuer: claims.issuer, subject: claims.subject };
  const email = claims.email && EMAIL.test(claims.email) ? claims.email.trim().toLowerCase() : null;
  return inTx(db, async (tx) => {
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtext(${`${claims.tenantId}\n${claims.issuer}\n${claims.subject}`}))`,
    );
    const linked = await userForIdentity(tx, identity);
    if (linked) {
      await linkIdentity(tx, identity, linked, claims.source);
      const [row] = await tx
        .select({ email: users.email, name: users.name })
        .from(users)
        .where(sql`${users.id} = ${linked}`);
      return { userId: linked, email: row!.email, name: row!.name, how: 'identity' as const };
    }
    if (email && claims.emailVerified) {
      const [holder] = await tx
        .select({ id: users.id, role: users.role, isDeleted: users.isDeleted, name: users.name })
        .from(users)
        .where(sql`lower(${users.email}) = ${email}`)
        .limit(1);
      if (holder && holder.role === 'USER' && !holder.isDeleted) {
        await linkIdentity(tx, identity, holder.id, claims.source);
        return { userId: holder.id, email, name: holder.name, how: 'email' as const };
      }
    }
    let address = placeholderEmail(claims);
    if (email && claims.emailVerified) {
      const [taken] = await tx
        .select({ id: users.id })
        .from(users)
        .where(sql`lower(${users.email}) = ${email}`)
        .limit(1);
      if (!taken) address = email;
    }
    const [made] = await tx
      .insert(users)
      .values({
        firebaseUid: `${claims.source}:${createHash('sha256').update(`${claims.tenantId}\n${claims.issuer}\n${claims.subject}`).digest('base64url')}`,
        email: address,
        emailVerified: address === email,
        signInProvider: claims.source,
        role: 'USER',
        name: claims.name?.trim().slice(0, 200) || null,
        ...(claims.language ? { language: claims.language } : {}),
        invitedByTenantId: claims.tenantId,
      })
      .returning({ id: users.id, name: users.name });
    await linkIdentity(tx, identity, made!.id, claims.source);
    return { userId: made!.id, email: address, name: made!.name, how: 'created' as const };
  });
}
