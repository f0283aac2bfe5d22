/**
 * An award's image and public info: the info anyone may read of an earned award, an upload address for the
 * image (for the learner who earned it, once), then marking it generated once the JPEG is stored
 * (certificates/{linkId}.jpg through the storage adapter, decision 004).
 */
import { awardKindOf } from '@shared/rules/test-status';
import { eq } from 'drizzle-orm';
import { MAX_UPLOAD_BYTES, sniffImageType } from '../adapters/storage';
import { findLink } from '../assessments/engine/link-life';
import { type LinkRow, testLinks } from '../assessments/tables';
import { conflict, forbidden, HttpError, notFound } from '../http/errors';
import { presignImageUpload } from '../http/files';
import { type AwardContext, certificateInfoOf, certificateKey, earnedAward } from './info';

const NO_AWARD = 'This test link has no award.';

/** The public info of an earned award (404 for a link that earned none). */
export async function publicAwardInfo(ctx: AwardContext, linkId: string, callerId: string | null) {
  const link = await findLink(ctx.db, linkId);
  if (!link || !earnedAward(link) || !awardKindOf(link.type)) throw notFound(NO_AWARD);
  return certificateInfoOf(ctx, link, callerId);
}

/** The caller's own earned award, by link id. */
async function ownAward(ctx: AwardContext, linkId: string, callerId: string): Promise<LinkRow> {
  const link = await findLink(ctx.db, linkId);
  if (!link) throw notFound('errors.testLinkNotFound');
  if (link.userId !== callerId) {
    throw forbidden('Only the learner who earned this award can create its image.');
  }
  if (!earnedAward(link) || !awardKindOf(link.type)) throw conflict(NO_AWARD, { field: 'certificateId' });
  return link;
}

/** An upload address for the image of the caller's award (of the exact size the page declares). */
export async function awardImageUpload(
  ctx: AwardContext,
  linkId: string,
  size: number | undefined,
  callerId: string,
) {
  const link = await ownAward(ctx, linkId, callerId);
  if (link.certificateGenerated) {
    throw conflict('The image of this award is already generated.', { field: 'certificateId' });
  }
  const key = certificateKey(link.linkId);
  const signed = await presignImageUpload(ctx.storage, key, {
    contentType: 'image/jpeg',
    maxBytes: MAX_UPLOAD_BYTES,
    size,
    field: 'fileDetails.size',
  });
  return { url: signed.url, key, expiresAt: signed.expiresAt.toISOString() };
}

/**
 * Marks the caller's award image generated once its JPEG is stored and checked (at most 5 MB, JPEG's magic
 * bytes); a wrong object is deleted. The award's info as it is then.
 */
export async function markImageGenerated(ctx: AwardContext, linkId: string, callerId: string) {
  const { db, storage } = ctx;
  const link = await ownAward(ctx, linkId, callerId);
  if (link.certificateGenerated) return certificateInfoOf(ctx, link, callerId);
  const key = certificateKey(link.linkId);
  const stored = await storage.stat(key);
  if (!stored) {
    throw conflict('Upload the image first: the award image was not found.', {
      errorCode: 'IMAGE_NOT_UPLOADED',
    });
  }
  if (stored.size > MAX_UPLOAD_BYTES) {
    await storage.remove(key);
    throw new HttpError(413, 'The award image is larger than 5 MB. Please generate it again.');
  }
  const head = await storage.readPrefix(key, 16);
  if (!head || sniffImageType(head) !== 'image/jpeg') {
    await storage.remove(key);
    throw new HttpError(415, 'The award image is not a JPEG. Please generate it again.');
  }
  const [updated] = await db
    .update(testLinks)
    .set({ certificateGenerated: true, certificatePath: key, status: 'VIEW_CERTIFICATE' })
    .where(eq(testLinks.id, link.id))
    .returning();
  return certificateInfoOf(ctx, updated ?? link, callerId);
}
