import { z } from 'zod';
import { envelope, errors, Text } from '../schemas/common';
import { entities } from '../schemas/entities';
import { LanguageInput } from '../schemas/language';
import { AccountDeletionInput, ProfilePage, User } from '../schemas/user';
import { defineCall, defineRouter } from './define';

/** Every profile field; which are required depends on the page (basic or full profile). */
export const ProfileBody = z.object({
  name: Text(500).optional(),
  phoneNumber: Text(50).optional(),
  phoneCountry: Text(10).optional(),
  iam: Text(20).optional(),
  linkedIn: Text(500).optional(),
  tShirtSize: Text(10).optional(),
  addressLine1: Text(500).optional(),
  addressLine2: Text(500).optional(),
  country: Text(10).optional(),
  state: Text(500).optional(),
  city: Text(500).optional(),
  pincode: Text(50).optional(),
});
entities.add(ProfileBody, { id: 'ProfileBody' });

export const basicProfile = defineCall({
  method: 'PUT',
  path: '/login/basic-profile',
  summary:
    'Save the profile. page=basic_profile_page (default) saves the basic profile after the first sign-in; page=profile_page saves the full profile.',
  tags: ['profile'],
  access: 'signedIn',
  query: z.object({ page: ProfilePage.default('basic_profile_page') }),
  body: ProfileBody,
  responses: { 200: envelope(User), ...errors },
});

export const me = defineCall({
  method: 'GET',
  path: '/user/me',
  summary: 'The signed-in person.',
  tags: ['user'],
  access: 'signedIn',
  // a learner launched from an LMS takes tests in its session (decision 044)
  lti: true,
  responses: { 200: envelope(User), ...errors },
});

export const deleteAccount = defineCall({
  method: 'PUT',
  path: '/user/delete/{userId}',
  summary:
    "Schedule (isDeleted true) or cancel (false) the deletion of the learner's own account. It is deleted after 90 days; signing in before then cancels it.",
  tags: ['user'],
  access: ['USER'],
  params: z.object({ userId: z.uuid({ message: 'must be a valid id' }) }),
  body: AccountDeletionInput,
  responses: { 200: envelope(User), ...errors },
});

export const setLanguage = defineCall({
  method: 'PUT',
  path: '/user/language',
  summary:
    "Set the language the signed-in person reads Waymark in: its pages, its mail and the images of their awards (en, es or ar). A new account starts in the language of the browser's Accept-Language.",
  tags: ['user'],
  access: 'signedIn',
  body: LanguageInput,
  responses: { 200: envelope(User), ...errors },
});

/** Every call of this module, served by server/profile/routes.ts. */
export const profileRouter = defineRouter({
  basicProfile,
  me,
  deleteAccount,
  setLanguage,
});
