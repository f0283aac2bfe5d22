/**
 * Files, with the HTTP core: the upload address every image upload gets (award images, question images,
 * import files — `presignImageUpload`), and, for local storage, the upload route behind those signed
 * addresses and the read-only file route /files/{key}. The storage adapter itself is created with the other
 * services (server/services.ts); S3 storage takes uploads and serves files itself.
 */
import { createReadStream } from 'node:fs';
import { uploadRouter } from '@shared/contract/assessments';
import type { FastifyInstance } from 'fastify';
import {
  contentTypeOfKey,
  isValidKey,
  LocalStorage,
  type StorageAdapter,
  sniffImageType,
} from '../adapters/storage';
import { HttpError, notFound } from './errors';
import { ok, serve } from './routes';

const TYPE_NAMES: Record<string, string> = { 'image/jpeg': 'JPEG', 'image/png': 'PNG', 'image/webp': 'WebP' };

/**
 * An upload address for an image, after the checks every caller needs: a declared size over the limit is a
 * 413 naming `field`; S3 storage signs the exact size into its address (a presigned PUT cannot carry a
 * limit), so there the size is required (400 naming `field`).
 */
export async function presignImageUpload(
  storage: StorageAdapter,
  key: string,
  opts: { contentType: string; maxBytes: number; size: number | undefined; field: string },
) {
  if (opts.size !== undefined && opts.size > opts.maxBytes) {
    throw new HttpError(413, `The image is larger than ${Math.floor(opts.maxBytes / 1024)} KB.`, {
      field: opts.field,
    });
  }
  if (opts.size === undefined && storage.kind === 's3') {
    throw new HttpError(
      400,
      `${opts.field}: is required: the upload address is signed for the file's exact size in bytes`,
      { field: opts.field, fields: { [opts.field]: "is required: the file's size in bytes" } },
    );
  }
  return storage.presignUpload(key, {
    contentType: opts.contentType,
    maxBytes: opts.maxBytes,
    size: opts.size,
  });
}

export function fileRoutes(app: FastifyInstance, deps: { storage: StorageAdapter }) {
  const { storage } = deps;

  // the upload route takes any body type itself (the contract's rawBody), so a wrong type gets a clear 415
  // rather than a parser error
  serve(app, uploadRouter, {
    async uploadFile({ request }) {
      if (!(storage instanceof LocalStorage)) throw notFound('Uploads go straight to the file store.');
      // the query's text as the request carried it: the signature covers it byte for byte
      const check = storage.verifyUpload(request.query as Record<string, unknown>);
      if (!check.ok) {
        throw new HttpError(403, check.message, {
          errorCode: check.reason === 'expired' ? 'UPLOAD_URL_EXPIRED' : 'UPLOAD_URL_INVALID',
        });
      }
      const { grant } = check;
      const wanted = TYPE_NAMES[grant.contentType] ?? grant.contentType;
      const sent = String(request.headers['content-type'] ?? '')
        .split(';')[0]!
        .trim()
        .toLowerCase();
      if (sent !== grant.contentType) {
        throw new HttpError(
          415,
          `This upload address takes a ${wanted} image (Content-Type ${grant.contentType}).`,
          {
            field: 'content-type',
          },
        );
      }
      const body = request.body;
      if (!Buffer.isBuffer(body) || body.length === 0) {
        throw new HttpError(400, 'The file is empty.', { field: 'body' });
      }
      if (body.length > grant.maxBytes) {
        throw new HttpError(413, `The file is larger than ${Math.floor(grant.maxBytes / 1024)} KB.`, {
          field: 'body',
        });
      }
      if (grant.size !== null && body.length !== grant.size) {
        throw new HttpError(
          400,
          `This upload address takes a file of exactly ${grant.size} bytes; this one has ${body.length}.`,
          { field: 'body' },
        );
      }
      if (sniffImageType(body) !== grant.contentType) {
        throw new HttpError(415, `The file is not a ${wanted} image.`, { field: 'body' });
      }
      await storage.write(grant.key, body);
      return ok({ data: { key: grant.key, url: storage.publicUrl(grant.key), size: body.length } });
    },
  });

  // stored files, read-only, cached for long: keys never change content (a new image gets a new key or is
  // written once)
  app.route({
    method: ['GET', 'HEAD'],
    url: '/files/*',
    handler: async (request, reply) => {
      // the router has decoded the path once already; decoding it again would read '%25' as a broken escape
      const key = (request.params as { '*': string })['*'] ?? '';
      const type = contentTypeOfKey(key);
      if (!(storage instanceof LocalStorage) || !isValidKey(key) || !type) throw notFound();
      const found = await storage.stat(key);
      if (!found) throw notFound();
      reply
        .type(type)
        .header('content-length', found.size)
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('x-content-type-options', 'nosniff');
      if (request.method === 'HEAD') return reply.send();
      return reply.send(createReadStream(storage.pathOf(key)));
    },
  });
}
