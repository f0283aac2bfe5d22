/**
 * The question-bank import's calls (shared/contract/authoring.ts questionImportRouter, decision 012), each a
 * call to the import's service (bank-import.ts).
 */
import { questionImportRouter } from '@shared/contract/question-import';
import type { FastifyInstance } from 'fastify';
import type { StorageAdapter } from '../adapters/storage';
import type { Db } from '../db/client';
import { ok, serve } from '../http/routes';
import type { QuestionCounts } from '../questions/load';
import { checkImport, type Importer, importBatch, importUpload } from './bank-import';

export function importRoutes(
  app: FastifyInstance,
  deps: { db: Db; storage: StorageAdapter; questionCounts: QuestionCounts },
) {
  const importer: Importer = deps;
  serve(app, questionImportRouter, {
    importCheck: async ({ body, caller }) => ok({ data: await checkImport(importer, body.items, caller) }),
    importSignedUrl: async ({ body, caller }) => ok({ data: await importUpload(importer, body, caller) }),
    importQuestions: async ({ body, caller }) => ok({ data: await importBatch(importer, body, caller) }),
  });
}
