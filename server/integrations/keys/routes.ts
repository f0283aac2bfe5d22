/** The API keys' calls (shared/contract/integrations.ts): list, make, revoke — people only (no scopes). */
import { apiKeysRouter } from '@shared/contract/integrations';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { created, ok, serve } from '../../http/routes';
import { createKey, keysOf, revokeKey, toApiKey } from './service';

export function apiKeyRoutes(app: FastifyInstance, deps: { db: Db }) {
  const { db } = deps;
  serve(app, apiKeysRouter, {
    async apiKeyList({ caller }) {
      const now = new Date();
      return ok({ data: (await keysOf(db, caller.id)).map((r) => toApiKey(r, now)) });
    },

    async createApiKey({ body, caller }) {
      const now = new Date();
      const { row, key } = await createKey(db, caller.id, caller.actor, body, now);
      return created({
        data: { ...toApiKey(row, now), key },
        message: 'Copy the key now: it is shown this once.',
      });
    },

    async revokeApiKey({ params, caller }) {
      return ok({ data: toApiKey(await revokeKey(db, caller.id, params.id, caller.actor), new Date()) });
    },
  });
}
