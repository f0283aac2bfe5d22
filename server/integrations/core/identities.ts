/**
 * Identities other systems give a Waymark user (decision 039): an LTI platform's `sub`, a SCIM `externalId`,
 * an SSO provider's subject, each under its issuer and per tenant. Every integration finds its people here,
 * so a person launched from an LMS, provisioned by a directory and signed in by SSO is one learner.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { externalIdentities } from './tables';

export type IdentitySource = (typeof externalIdentities.$inferSelect)['source'];

export interface ExternalIdentity {
  tenantId: string;
  /** Who vouches for the subject: a platform's issuer URL, a SCIM endpoint's id, an IdP's entity id. */
  issuer: string;
  /** The person's id at the issuer (never an e-mail address that could change hands). */
  subject: string;
}

/**
 * Links an outside identity to a user (or confirms the link, noting when it was last seen). An identity
 * already linked to another user keeps its link: the answer is the user it is linked to, which the caller
 * compares (`linked !== userId` means the identity belongs to someone else).
 */
export async function linkIdentity(
  db: Db,
  identity: ExternalIdentity,
  userId: string,
  source: IdentitySource,
): Promise<{ userId: string; created: boolean }> {
  const [row] = await db
    .insert(externalIdentities)
    .values({ ...identity, userId, source })
    .onConflictDoUpdate({
      target: [externalIdentities.tenantId, externalIdentities.issuer, externalIdentities.subject],
      set: { lastSeenAt: sql`now()` },
    })
    .returning({
      userId: externalIdentities.userId,
      // a row this statement inserted has no deleting transaction (an updated one has: this one)
      created: sql<boolean>`(xmax = 0)`,
    });
  return { userId: row!.userId, created: Boolean(row!.created) };
}

/** The user an outside identity is linked to, or null. */
export async function userForIdentity(db: Db, identity: ExternalIdentity): Promise<string | null> {
  const [row] = await db
    .select({ userId: externalIdentities.userId })
    .from(externalIdentities)
    .where(
      and(
        eq(externalIdentities.tenantId, identity.tenantId),
        eq(externalIdentities.issuer, identity.issuer),
        eq(externalIdentities.subject, identity.subject),
      ),
    )
    .limit(1);
  return row?.userId ?? null;
}
