/**
 * The tenant's SCIM settings (shared/contract/integrations.ts): the base URL a directory is given and the
 * SCIM tokens — made, rotated and revoked by the mentor in person (never by an API key or a SCIM token).
 */
import { scimRouter } from '@shared/contract/integrations';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { created, ok, serve } from '../../http/routes';
import { SCIM_PREFIX } from './routes';
import { createScimToken, revokeScimToken, scimTokensOf, toScimToken } from './tokens';

export function scimSettingsRoutes(app: FastifyInstance, deps: { db: Db; config: Config }) {
  const { db } = deps;
  const baseUrl = `${deps.config.publicUrl.replace(/\/$/, '')}${SCIM_PREFIX}`;
  serve(app, scimRouter, {
    async scimSettings({ caller }) {
      return ok({ data: { baseUrl, tokens: (await scimTokensOf(db, caller.id)).map(toScimToken) } });
    },

    async createScimToken({ body, caller }) {
      const { row, token } = await createScimToken(db, caller.id, caller.actor, body);
      return created({
        data: { ...toScimToken(row), token, baseUrl },
        message: 'Copy the token now: it is shown this once.',
      });
    },

    async revokeScimToken({ params, caller }) {
      return ok({ data: toScimToken(await revokeScimToken(db, caller.id, params.id, caller.actor)) });
    },
  });
}
