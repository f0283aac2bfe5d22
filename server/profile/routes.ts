/** The profile's calls (shared/contract/profile.ts), each a call to profile.ts. */
import { profileRouter } from '@shared/contract/profile';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { IdentityAdapter } from '../adapters/identity';
import { toApiUser } from '../auth/current-user';
import type { TokenService } from '../auth/tokens';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import { forbidden } from '../http/errors';
import { ok, serve } from '../http/routes';
import { requestTranslator } from '../lib/i18n';
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
    async setLanguage({ body, caller }) {
      const [updated] = await db
        .update(users)
        .set({ language: body.language, updatedAt: new Date() })
        .where(eq(users.id, caller.id))
        .returning();
      return ok({ data: toApiUser(updated!) });
    },
    async deleteAccount({ params, body, caller, request }) {
      if (params.userId !== caller.id) throw forbidden('profile.ownAccountOnly');
      if (!body.isDeleted) return ok({ data: toApiUser(caller.user) });
      return ok({
        data: toApiUser(await requestDeletion(db, tokens, caller, body.deleteReason)),
        message: requestTranslator(request).t('profile.deletionScheduled'),
      });
    },
  });
}
