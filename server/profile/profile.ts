/**
 * A person's own profile: the basic profile every account fills first, the full one (for awards and
 * shipping), and asking for the account's deletion (it is deleted after 90 days: deletion-job.ts).
 */
import { BasicProfileInput, FullProfileInput } from '@shared/schemas/profile-forms';
import { profileMessages, requireIamForTenant } from '@shared/schemas/user';
import { eq } from 'drizzle-orm';
import { parsePhoneNumberWithError } from 'libphonenumber-js/min';
import { toApiUser, type UserRow } from '../auth/current-user';
import type { TokenService } from '../auth/tokens';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import { badRequest, fromZod, HttpError, parseOptions } from '../http/errors';
import type { Caller } from '../http/routes';

/**
 * Saves the basic profile, or with `full` the whole one (each checked as its form checks it: the body is
 * parsed here, as the call takes either). The name given at the basic profile may change once after.
 */
export async function saveProfile(db: Db, caller: Caller, body: unknown, full: boolean) {
  const parsed = (full ? FullProfileInput : BasicProfileInput).safeParse(body, parseOptions());
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
  return toApiUser(updated!);
}

/** Marks the account deleted (with the person's reason) and ends every session of it. */
export async function requestDeletion(
  db: Db,
  tokens: TokenService,
  caller: Caller,
  deleteReason: string | null | undefined,
): Promise<UserRow> {
  const [updated] = await db
    .update(users)
    .set({ isDeleted: true, deleteReason, deletionRequestedAt: new Date(), updatedAt: new Date() })
    .where(eq(users.id, caller.id))
    .returning();
  await tokens.revokeAllForUser(caller.id);
  return updated!;
}
