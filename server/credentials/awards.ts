/**
 * An award's credential as its pages and its people see it: its status (active or revoked, and whether the
 * asker may revoke it or read why it was), revoking it, and the achievement image a credential names. Who
 * may revoke: platform staff, or the mentor who assigned the roadmap the test was on (decision 013).
 */
import { SANDBOX_WORDS } from '@shared/rules/sandbox';
import { awardKindOf } from '@shared/rules/test-status';
import { eq } from 'drizzle-orm';
import type { StorageAdapter } from '../adapters/storage';
import { findLink } from '../assessments/engine/link-life';
import type { LinkRow } from '../assessments/tables';
import { certificateKey, earnedAward } from '../awards/info';
import { assignedRoadmaps } from '../catalogue/tables';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { forbidden, HttpError, notFound } from '../http/errors';
import type { Caller } from '../http/routes';
import { credentialUrl, verifyPageUrl } from './build';
import { emblemSvg } from './emblem';
import { AwardNotFound, type CredentialService } from './service';

export const NO_AWARD = 'There is no award with this id.';
/** A sandbox's award is never a credential: its credential calls answer this 404 (decision 041). */
export const sandboxAward = () =>
  new HttpError(404, SANDBOX_WORDS.notCredential, { errorCode: 'SANDBOX_AWARD' });

/** What the award's calls work with. */
export interface Awards {
  db: Db;
  config: Config;
  credentials: CredentialService;
}

/** Who may revoke an award: platform staff, or the mentor who assigned the roadmap the test was on. */
async function revokerRole(db: Db, config: Config, link: LinkRow, caller: Caller | null) {
  if (!caller) return null;
  if (
    caller.user.emailVerified &&
    config.credentials.platformStaff.includes(caller.user.email.toLowerCase())
  ) {
    return 'PLATFORM' as const;
  }
  if (caller.user.role !== 'TENANT' || !link.assignedRoadmapId) return null;
  const [assigned] = await db
    .select({ by: assignedRoadmaps.assignedBy, source: assignedRoadmaps.source })
    .from(assignedRoadmaps)
    .where(eq(assignedRoadmaps.id, link.assignedRoadmapId))
    .limit(1);
  return assigned?.source === 'TENANT' && assigned.by === caller.id ? ('MENTOR' as const) : null;
}

/** The link of an earned award (404 for any other). */
async function awardLink(db: Db, id: string): Promise<LinkRow> {
  const link = await findLink(db, id);
  if (!link || !earnedAward(link) || !awardKindOf(link.type)) throw notFound(NO_AWARD);
  if (link.sandbox) throw sandboxAward();
  return link;
}

/** The 404 of an award with no public credential: a sandbox's says why (decision 041). */
export async function noCredential(db: Db, id: string) {
  return (await findLink(db, id))?.sandbox ? sandboxAward() : notFound(NO_AWARD);
}

/** An award's status; why it was revoked only to its learner and to those who may revoke it. */
export async function awardStatus(a: Awards, id: string, caller: Caller | null) {
  const { db, config, credentials } = a;
  const link = await awardLink(db, id);
  const revocation = await credentials.revocationOf(link.linkId);
  const role = await revokerRole(db, config, link, caller);
  const isOwner = caller !== null && caller.id === link.userId;
  return {
    awardId: link.linkId,
    credentialUrl: credentialUrl(config.publicUrl, link.linkId),
    verifyUrl: verifyPageUrl(config.publicUrl, link.linkId),
    issuer: credentials.did,
    status: revocation ? ('revoked' as const) : ('active' as const),
    revokedAt: revocation?.revokedAt.toISOString() ?? null,
    reason: revocation && (isOwner || role) ? revocation.reason : null,
    canRevoke: role !== null && !revocation,
  };
}

/** Revokes an award (403 for anyone who may not); `already` when it was revoked before. */
export async function revokeAward(a: Awards, id: string, reason: string, caller: Caller) {
  const link = await awardLink(a.db, id);
  const role = await revokerRole(a.db, a.config, link, caller);
  if (!role) {
    throw forbidden(
      'Only the mentor who assigned the roadmap this test was on, or platform staff, can revoke this award.',
    );
  }
  try {
    const { revocation, already } = await a.credentials.revoke(
      link.linkId,
      { id: caller.id, as: role, actor: caller.actor },
      reason,
    );
    const data = {
      awardId: revocation.awardId,
      revokedAt: revocation.revokedAt.toISOString(),
      reason: revocation.reason,
      revokedAs: revocation.revokedAs,
    };
    return { data, already };
  } catch (err) {
    if (err instanceof AwardNotFound) throw notFound(NO_AWARD);
    throw err;
  }
}

/**
 * The achievement image a credential names: the award's stored image once generated (its address), else
 * its emblem (SVG). 404 for an id that is no earned award.
 */
export async function achievementImage(
  db: Db,
  storage: StorageAdapter,
  id: string,
): Promise<{ address: string } | { svg: string }> {
  const link = /^[A-Za-z0-9_-]{10,64}$/.test(id) ? await findLink(db, id) : null;
  const kind = link && earnedAward(link) ? awardKindOf(link.type) : null;
  if (!link || !kind) throw notFound(NO_AWARD);
  if (link.certificateGenerated && link.certificatePath) {
    return { address: storage.publicUrl(link.certificatePath ?? certificateKey(link.linkId)) };
  }
  return { svg: emblemSvg(kind) };
}
