/** The awards' calls (shared/contract/awards.ts), each a call to image.ts. */
import { awardsRouter } from '@shared/contract/awards';
import type { FastifyInstance } from 'fastify';
import type { StorageAdapter } from '../adapters/storage';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { created, ok, serve } from '../http/routes';
import { awardImageUpload, markImageGenerated, publicAwardInfo } from './image';

export function awardRoutes(app: FastifyInstance, deps: { db: Db; config: Config; storage: StorageAdapter }) {
  const ctx = { db: deps.db, publicUrl: deps.config.publicUrl, storage: deps.storage };
  serve(app, awardsRouter, {
    certificateInfo: async ({ params, caller }) =>
      ok({ data: await publicAwardInfo(ctx, params.id, caller?.id ?? null) }),
    createPresignedUrl: async ({ body, caller }) =>
      created({ data: await awardImageUpload(ctx, body.certificateId, body.fileDetails.size, caller.id) }),
    createCertificate: async ({ params, caller }) =>
      created({ data: await markImageGenerated(ctx, params.id, caller.id) }),
  });
}
