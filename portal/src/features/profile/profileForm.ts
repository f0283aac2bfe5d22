/**
 * What the two profile pages share (the basic profile after the first sign-in, the full profile): the form
 * on their schema with the fields the role requires, filled from the signed-in user, and the save that makes
 * the answer the signed-in user.
 */

import { zodResolver } from '@hookform/resolvers/zod';
import type { CallBody, CallQuery } from '@shared/contract/define';
import { basicProfile } from '@shared/contract/profile';
import { profileFormFor } from '@shared/schemas/profile-forms';
import type { User } from '@shared/schemas/user';
import { client } from '@widgets/core/api';
import { useFormWords } from '@widgets/core/form-words';
import { updateUser } from '@widgets/core/session';
import { useMemo } from 'react';
import { type DefaultValues, type FieldValues, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { currentUser } from '../../lib/auth';

/** The profile form on `base` (the basic or full profile's schema): the user's fields first, then `more`. */
export function useProfileForm<I extends FieldValues, O extends FieldValues & { iam?: string | null }>(
  base: z.ZodType<O, I>,
  user: User,
  more: DefaultValues<I> = {} as DefaultValues<I>,
) {
  const schema = useMemo(() => profileFormFor(base, user.role), [base, user.role]);
  return useForm<I, unknown, O>({
    resolver: zodResolver(schema, useFormWords()),
    mode: 'onTouched',
    defaultValues: {
      name: user.name ?? '',
      phoneCountry: user.phoneCountry ?? 'IN',
      phoneNumber: user.phoneNumber ?? '',
      iam: user.iam ?? undefined,
      linkedIn: user.linkedIn ?? '',
      ...more,
    } as DefaultValues<I>,
  });
}

/** Saves the profile from `page`; the answer becomes the signed-in user (this tab's and the session's). */
export async function saveProfile(
  body: CallBody<typeof basicProfile>,
  page: CallQuery<typeof basicProfile>['page'],
): Promise<User> {
  const res = await client.call(basicProfile, { query: { page }, body });
  updateUser(res.data);
  currentUser.value = res.data;
  return res.data;
}
