/**
 * Authoring's calls, registered from one place along their seam: the question editor's (`questions.ts`),
 * a tenant's assessments (`assessments.ts`) and the question-bank import (`import.ts`). What they share —
 * who may read or change a question or an assessment, a question's place in an assessment — is `access.ts`.
 */
import type { FastifyInstance } from 'fastify';
import type { MailService } from '../adapters/mail';
import type { StorageAdapter } from '../adapters/storage';
import type { Config } from '../config';
import type { Db } from '../db/client';
import type { QuestionCounts } from '../questions/load';
import { tenantAssessmentRoutes } from './assessments';
import { importRoutes } from './import';
import { questionRoutes } from './questions';

export interface AuthoringDeps {
  db: Db;
  config: Config;
  mail: MailService;
  storage: StorageAdapter;
  /** How often the bank's questions were drawn, and their feedback: the assessments'. */
  questionCounts: QuestionCounts;
}

export function authoringRoutes(app: FastifyInstance, deps: AuthoringDeps) {
  importRoutes(app, deps);
  questionRoutes(app, deps);
  tenantAssessmentRoutes(app, deps);
}
