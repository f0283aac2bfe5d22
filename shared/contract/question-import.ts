/**
 * Importing a bank of questions (served by server/authoring/import.ts): which of a file's questions are new,
 * unchanged or changed since an earlier import, the images' uploads, and the questions in batches. Published
 * under the authoring group (`authoring.*`) with ./authoring.ts.
 */
import { z } from 'zod';
import { ImportedQuestionInput } from '../schemas/authoring';
import { ImageSize } from '../schemas/award';
import { DateTime, envelope, errors, Id } from '../schemas/common';
import { entities } from '../schemas/entities';
import { defineCall, defineRouter } from './define';

const AUTHORS = ['TENANT'] as const;

/** Where an imported question came from: the file's own id (`waymark:…`, `idnumber:…`, …) or `sha256:…`. */
export const ImportSourceKey = z.string().trim().min(1).max(300);
entities.add(ImportSourceKey, { id: 'ImportSourceKey' });
export const ImportFingerprint = z
  .string()
  .length(64, 'must be a SHA-256 in hexadecimal')
  .regex(/^[0-9a-f]{64}$/, 'must be a SHA-256 in hexadecimal');
entities.add(ImportFingerprint, { id: 'ImportFingerprint' });
export const IMPORT_BATCH = 100;
export const IMPORT_CHECK_BATCH = 1000;

export const ImportCheckStatus = z.enum(['new', 'unchanged', 'changed']);
entities.add(ImportCheckStatus, { id: 'ImportCheckStatus' });
export const ImportStatus = z.enum(['created', 'updated', 'unchanged', 'changed', 'failed']);
entities.add(ImportStatus, { id: 'ImportStatus' });

export const importCheck = defineCall({
  method: 'POST',
  path: '/admin/question/import/check',
  idempotent: true,
  summary:
    "Which questions of a file are new, already imported unchanged, or imported and changed since (the caller's own).",
  description:
    'Each item names a question by its source key and the fingerprint of its content (shared/formats/fingerprint.ts). A key the caller imported before, or `waymark:{id}` of a question the caller created, is `unchanged` when the fingerprint matches and `changed` otherwise; any other key is `new`. Writes nothing.',
  tags: ['authoring'],
  access: AUTHORS,
  scopes: ['questions:write'],
  body: z.object({
    items: z
      .array(z.object({ key: ImportSourceKey, fingerprint: ImportFingerprint }))
      .min(1)
      .max(IMPORT_CHECK_BATCH),
  }),
  responses: {
    200: envelope(
      z.array(z.object({ key: z.string(), status: ImportCheckStatus, questionId: Id.nullable() })),
    ),
    ...errors,
  },
});

export const importSignedUrl = defineCall({
  method: 'POST',
  path: '/admin/question/import/signed-url',
  idempotent: true,
  summary:
    'An upload address for an image of a question about to be imported (jpeg, png or webp, at most 2 MB).',
  description:
    'The key it returns is named in the batch import (`uploads`); the import checks the uploaded file (it exists, is an image of its type, and a question image is 1200×400) before the question is created.',
  tags: ['authoring'],
  access: AUTHORS,
  scopes: ['questions:write'],
  body: z.object({
    fileType: z.enum(['jpeg', 'jpg', 'png', 'webp'], { error: 'must be jpeg, png or webp' }),
    /**
     * The file's size in bytes (at most 2 MB). Signed into the address, which then takes exactly that
     * many bytes; required when the server stores files in S3.
     */
    size: ImageSize.optional(),
  }),
  responses: {
    200: envelope(z.object({ url: z.string(), key: z.string(), expiresAt: DateTime })),
    ...errors,
  },
});

export const ImportQuestionItem = z.object({
  key: ImportSourceKey,
  fingerprint: ImportFingerprint,
  /** The editor's question, though an imported one may come without explanation and tags (decision 032). */
  question: ImportedQuestionInput,
  /** Uploaded images (keys from import/signed-url): they replace the question image and option values. */
  uploads: z
    .object({
      question: z.string().max(300).optional(),
      options: z.array(z.string().max(300).nullable()).max(10).optional(),
    })
    .optional(),
});
entities.add(ImportQuestionItem, { id: 'ImportQuestionItem' });

export const importQuestions = defineCall({
  method: 'POST',
  path: '/admin/question/import',
  idempotent: true,
  summary:
    'Imports a batch of questions, each whole in its own transaction, remembering where each came from.',
  description:
    'Each question is created with its options and images in one transaction and published, so it exists whole or not at all; its source key is remembered for the caller, so running the import again reports `unchanged` (same fingerprint) or `changed` (different) and creates nothing twice. With `update`, a changed question is rewritten instead. A question whose image or topic is wrong is `failed` with the field and the reason, and leaves nothing behind; the others go on.',
  tags: ['authoring'],
  access: AUTHORS,
  scopes: ['questions:write'],
  body: z.object({
    assessmentId: Id.optional(),
    update: z.boolean().default(false),
    questions: z.array(ImportQuestionItem).min(1).max(IMPORT_BATCH),
  }),
  responses: {
    200: envelope(
      z.array(
        z.object({
          key: z.string(),
          status: ImportStatus,
          questionId: Id.nullable(),
          field: z.string().optional(),
          message: z.string().optional(),
        }),
      ),
    ),
    ...errors,
  },
});

/** The calls of importing a bank of questions (server/authoring/import.ts). */
export const questionImportRouter = defineRouter({
  importCheck,
  importSignedUrl,
  importQuestions,
});
