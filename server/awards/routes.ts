/**
 * Awards: the public certificate info of a feather, badge or certificate, and the award image — an upload
 * address for the learner who earned it, then marking it generated once the JPEG is stored
 * (certificates/{linkId}.jpg through the storage adapter).
 */
import { awardsRouter } from '@shared/contract/awards';
import { awardKindOf } from '@shared/rules/test-status';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { MAX_UPLOAD_BYTES, type StorageAdapter, sniffImageType } from '../adapters/storage';
import { findLink } from '../assessments/engine/link-life';
import { type LinkRow, testLinks } from '../assessments/tables';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { conflict, forbidden, HttpError, notFound } from '../http/errors';
import { presignImageUpload } from '../http/files';
import type { Caller } from '../http/routes';
import { created, ok, serve } from '../http/routes';
import { certificateInfoOf, certificateKey, earnedAward } from './info';

const NO_AWARD = 'This test link has no award.';

export function awardRoutes(app: FastifyInstance, deps: { db: Db; config: Config; storage: StorageAdapter }) {
  const { db, config, storage } = deps;
  const ctx = { db, publicUrl: config.publicUrl, storage };

  /** The caller's own earned award, by link id. */
  async function ownAward(linkId: string, caller: Caller): Promise<LinkRow> {
    const link = await findLink(db, linkId);
    if (!link) throw notFound('Test link not found');
    if (link.userId !== caller.id) {
      throw forbidden('Only the learner who earned this award can create its image.');
    }
    if (!earnedAward(link) || !awardKindOf(link.type)) throw conflict(NO_AWARD, { field: 'certificateId' });
    return link;
  }

  serve(app, awardsRouter, {
    async certificateInfo({ params, caller }) {
      const link = await findLink(db, params.id);
      if (!link || !earnedAward(link) || !awardKindOf(link.type)) throw notFound(NO_AWARD);
      return ok({ data: await certificateInfoOf(ctx, link, caller?.id ?? null) });
    },

    async createPresignedUrl({ body, caller }) {
      const link = await ownAward(body.certificateId, caller);
      if (link.certificateGenerated) {
        throw conflict('The image of this award is already generated.', { field: 'certificateId' });
      }
      const key = certificateKey(link.linkId);
      const signed = await presignImageUpload(storage, key, {
        contentType: 'image/jpeg',
        maxBytes: MAX_UPLOAD_BYTES,
        size: body.fileDetails.size,
        field: 'fileDetails.size',
      });
      return created({ data: { url: signed.url, key, expiresAt: signed.expiresAt.toISOString() } });
    },

    async createCertificate({ params, caller }) {
      const link = await ownAward(params.id, caller);
      if (link.certificateGenerated) return created({ data: await certificateInfoOf(ctx, link, caller.id) });
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
      return created({ data: await certificateInfoOf(ctx, updated ?? link, caller.id) });
    },
  });
}
