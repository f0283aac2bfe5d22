/**
 * A tenant's sandbox over HTTP (shared/contract/sandbox.ts): create, read, reset. TENANT callers only (the
 * contract's access), each about their own sandbox (./service.ts; decision 041).
 */
import { sandboxRouter } from '@shared/contract/sandbox';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { created, ok, serve } from '../http/routes';
import { createSandbox, resetSandbox, sandboxOf } from './service';

export function sandboxRoutes(app: FastifyInstance, { db, config }: { db: Db; config: Config }) {
  serve(app, sandboxRouter, {
    async getSandbox({ caller }) {
      return ok({ data: await sandboxOf(db, caller.id, config.publicUrl) });
    },
    async createSandbox({ caller }) {
      const made = await createSandbox(db, caller.id, config.publicUrl, new Date());
      return made.created ? created({ data: made.sandbox }) : ok({ data: made.sandbox });
    },
    async resetSandbox({ caller }) {
      return ok({ data: await resetSandbox(db, caller.id, config.publicUrl, new Date()) });
    },
  });
}
