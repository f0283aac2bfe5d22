/** What an award (feather, badge, certificate) shows publicly, built from its test link. */
import { awardPath, hasEarnedAward } from '@shared/rules/test-status';
import type { CertificateInfo } from '@shared/schemas/award';
import { eq } from 'drizzle-orm';
import type { StorageAdapter } from '../adapters/storage';
import { findLink } from '../assessments/engine/link-life';
import type { LinkRow } from '../assessments/tables';
import type { Db } from '../db/client';
import { subjects, users } from '../db/schema';
import { awardValidity } from './validity';

/** The issuer named on awards and on LinkedIn. */
export const ISSUER = 'Waymark';

/** Where an award's image is stored. */
export const certificateKey = (linkId: string) => `certificates/${linkId}.jpg`;

/** Whether the link earned an award page (a feather, badge or certificate). */
export function earnedAward(link: Pick<LinkRow, 'isCompleted' | 'type' | 'status'>): boolean {
  return link.isCompleted && hasEarnedAward(link);
}

export interface AwardContext {
  db: Db;
  publicUrl: string;
  storage: StorageAdapter;
}

/** The link of an earned award, or null (unknown link, or a link that earned nothing). */
export async function findAward(db: Db, linkId: string): Promise<LinkRow | null> {
  const link = await findLink(db, linkId);
  return link && earnedAward(link) ? link : null;
}

/** The public info of an award; `viewerId` is the caller's id when a token came with the request. */
export async function certificateInfoOf(
  ctx: AwardContext,
  link: LinkRow,
  viewerId: string | null = null,
  now: Date = new Date(),
): Promise<CertificateInfo> {
  const [owner] = link.userId
    ? await ctx.db
        .select({ name: users.name, email: users.email })
        .from(users)
        .where(eq(users.id, link.userId))
        .limit(1)
    : [];
  const [subject] = link.subjectId
    ? await ctx.db
        .select({ name: subjects.name })
        .from(subjects)
        .where(eq(subjects.id, link.subjectId))
        .limit(1)
    : [];
  const issued = link.completedAt ?? link.createdAt;
  const isOwner = viewerId !== null && viewerId === link.userId;
  const path = awardPath(link.type, link.linkId) ?? `/certificate/${link.linkId}`;
  return {
    linkId: link.linkId,
    type: link.type,
    userName: owner?.name ?? owner?.email.split('@')[0] ?? 'Learner',
    assignedSectionName: link.assignedSectionName,
    assignedRoadMapName: link.assignedRoadMapName,
    assignedResourceName: link.assignedResourceName,
    subject: subject
      ? { name: subject.name }
      : link.assignedSubjectName
        ? { name: link.assignedSubjectName }
        : null,
    createdAt: issued.toISOString(),
    s3CertificateUrl:
      link.certificateGenerated && link.certificatePath ? ctx.storage.publicUrl(link.certificatePath) : null,
    certificateUrl: `${ctx.publicUrl}${path}`,
    certificateGenerated: link.certificateGenerated,
    orgId: ISSUER,
    completetedYear: issued.getUTCFullYear(),
    completetedMonth: issued.getUTCMonth() + 1,
    isOwner,
    validity: await awardValidity(ctx.db, link, now, isOwner),
    sandbox: link.sandbox,
  };
}

/** What was achieved, in words (the shared rule, also read by the award pages and <wm-award>). */
export { achievementOf as achievement } from '@shared/rules/award';
