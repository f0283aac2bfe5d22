import { profileRouter } from '@shared/contract/profile';
import { BasicProfileInput, FullProfileInput } from '@shared/schemas/profile-forms';
import { profileMessages, requireIamForTenant } from '@shared/schemas/user';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { parsePhoneNumberWithError } from 'libphonenumber-js/min';
import type { IdentityAdapter } from '../adapters/identity';
import { toApiUser } from '../auth/current-user';
import type { TokenService } from '../auth/tokens';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import { badRequest, forbidden, fromZod, HttpError } from '../http/errors';
import { ok, serve } from '../http/routes';
import { requestTranslator } from '../lib/i18n';

export function profileRoutes(
  app: FastifyInstance,
  deps: { db: Db; tokens: TokenService; identity: IdentityAdapter },
) {
  const { db, tokens } = deps;
  serve(app, profileRouter, {
    async me({ caller }) {
      return ok({ data: toApiUser(caller.user) });
    },

    async basicProfile({ query, body, caller }) {
      const full = query.page === 'profile_page';
      const parsed = full ? FullProfileInput.safeParse(body) : BasicProfileInput.safeParse(body);
      if (!parsed.success) throw fromZod(parsed.error);
      const input = parsed.data;
      const iamProblem = requireIamForTenant(caller.user.role, input.iam);
      if (iamProblem) throw badRequest(iamProblem, 'iam');

      const phone = parsePhoneNumberWithError(input.phoneNumber, input.phoneCountry as never);
      const current = caller.user;
      let nameChanges = current.nameChanges;
      // the name given at the basic profile is the first one; after that it may change once
      if (!current.isFirstLogin && current.name && input.name !== current.name) {
        if (nameChanges >= 1) {
          throw new HttpError(400, profileMessages.nameChangedOnce, { code: 'ERR001', field: 'name' });
        }
        nameChanges += 1;
      }
      const common = {
        name: input.name,
        phoneNumber: phone.nationalNumber,
        countrycode: `+${phone.countryCallingCode}`,
        phoneCountry: phone.country ?? input.phoneCountry,
        iam: caller.user.role === 'TENANT' ? (input.iam ?? null) : null,
        linkedIn: input.linkedIn ?? (full ? null : current.linkedIn),
        nameChanges,
        isFirstLogin: false,
        updatedAt: new Date(),
      };
      let extra = {};
      if (full) {
        const f = FullProfileInput.parse(body);
        extra = {
          tShirtSize: f.tShirtSize,
          addressLine1: f.addressLine1,
          addressLine2: f.addressLine2 || null,
          country: f.country,
          state: f.state,
          city: f.city,
          pincode: f.pincode,
          isProfileCompleted: true,
        };
      }
      const [updated] = await db
        .update(users)
        .set({ ...common, ...extra })
        .where(eq(users.id, current.id))
        .returning();
      return ok({ data: toApiUser(updated!) });
    },

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
      const [updated] = await db
        .update(users)
        .set({
          isDeleted: true,
          deleteReason: body.deleteReason,
          deletionRequestedAt: new Date(),
          updatedAt: new Date(),
        })
        .where(eq(users.id, caller.id))
        .returning();
      await tokens.revokeAllForUser(caller.id);
      return ok({
        data: toApiUser(updated!),
        message: requestTranslator(request).t('profile.deletionScheduled'),
      });
    },
  });
}
