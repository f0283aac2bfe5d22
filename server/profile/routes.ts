/** The profile's calls (shared/contract/profile.ts), each a call to profile.ts. */
import { profileRouter } from '@shared/contract/profile';
import type { FastifyInstance } from 'fastify';
import type { IdentityAdapter } from '../adapters/identity';
import { toApiUser } from '../auth/current-user';
import type { TokenService } from '../auth/tokens';
import type { Db } from '../db/client';
import { forbidden } from '../http/errors';
import { ok, serve } from '../http/routes';
import { requestDeletion, saveProfile } from './profile';

export function profileRoutes(
  app: FastifyInstance,
  deps: { db: Db; tokens: TokenService; identity: IdentityAdapter },
) {
  const { db, tokens } = deps;
  serve(app, profileRouter, {
    me: async ({ caller }) => ok({ data: toApiUser(caller.user) }),
    basicProfile: async ({ query, body, caller }) =>
      ok({ data: await saveProfile(db, caller, body, query.page === 'profile_page') }),
    async deleteAccount({ params, body, caller }) {
      if (params.userId !== caller.id) throw forbidden('You can only delete your own account.');
      if (!body.isDeleted) return ok({ data: toApiUser(caller.user) });
      return ok({
        data: toApiUser(await requestDeletion(db, tokens, caller, body.deleteReason)),
        message: 'Your account is scheduled for deletion. Sign in within 90 days to cancel it.',
      });
    },
  });
}
