/**
 * The profile forms (learner §2, §5): the basic profile after the first sign-in and the full profile, as
 * the portal checks them and the server applies them. They check phone numbers with libphonenumber-js, so
 * they live apart from the user and session schemas that every page loads.
 */
import { isValidPhoneNumber } from 'libphonenumber-js/min';
import { z } from 'zod';
import type { Role } from './common';
import { entities } from './entities';
import {
  Iam,
  LINKEDIN_PATTERN,
  PREFERRED_PHONE_COUNTRY,
  profileMessages,
  requireIamForTenant,
  T_SHIRT_SIZES,
} from './user';

const trimmed = (message: string) => z.string({ error: message }).trim().min(1, { message });

const phoneFields = {
  phoneNumber: z
    .string({ error: profileMessages.phoneRequired })
    .trim()
    .min(1, profileMessages.phoneRequired),
  /** ISO country of the phone number. */
  phoneCountry: z
    .string()
    .trim()
    .regex(/^[A-Z]{2}$/, 'must be a two-letter country code')
    .default(PREFERRED_PHONE_COUNTRY),
};

function checkPhone(v: { phoneNumber: string; phoneCountry: string }, ctx: z.RefinementCtx) {
  // biome-ignore lint/suspicious/noExplicitAny: libphonenumber's CountryCode is a string union
  if (v.phoneNumber && !isValidPhoneNumber(v.phoneNumber, v.phoneCountry as any)) {
    ctx.addIssue({ code: 'custom', message: profileMessages.phoneInvalid, path: ['phoneNumber'] });
  }
}

/** 'I am' is optional in the schema (tenants only); an empty choice counts as none. */
const optionalIam = z.preprocess((v) => (v === '' || v === null ? undefined : v), Iam.optional());

const linkedInOptional = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : undefined))
  .refine((v) => v === undefined || LINKEDIN_PATTERN.test(v), { message: profileMessages.linkedInInvalid });

/** PUT /login/basic-profile?page=basic_profile_page */
export const BasicProfileInput = z
  .object({
    name: trimmed(profileMessages.nameRequired).pipe(
      z.string().max(80, 'Name must be at most 80 characters'),
    ),
    ...phoneFields,
    iam: optionalIam,
    linkedIn: linkedInOptional,
  })
  .superRefine(checkPhone);
entities.add(BasicProfileInput, { id: 'BasicProfileInput' });
export type BasicProfileInput = z.input<typeof BasicProfileInput>;

/** PUT /login/basic-profile?page=profile_page */
export const FullProfileInput = z
  .object({
    name: trimmed(profileMessages.nameRequired).pipe(
      z.string().max(80, 'Name must be at most 80 characters'),
    ),
    ...phoneFields,
    iam: optionalIam,
    tShirtSize: z.enum(T_SHIRT_SIZES, { error: profileMessages.tShirtSizeRequired }),
    addressLine1: trimmed(profileMessages.addressLine1Required).pipe(z.string().max(200)),
    addressLine2: z.string().trim().max(200).optional(),
    country: trimmed(profileMessages.countryRequired).pipe(
      z.string().regex(/^[A-Z]{2}$/, 'must be a country code'),
    ),
    state: trimmed(profileMessages.stateRequired).pipe(z.string().max(100)),
    city: trimmed(profileMessages.cityRequired).pipe(z.string().max(100)),
    pincode: trimmed(profileMessages.pincodeRequired).pipe(
      z.string().regex(/^[A-Za-z0-9 -]{3,10}$/, 'Please enter a valid pincode'),
    ),
    linkedIn: z
      .string({ error: profileMessages.linkedInRequired })
      .trim()
      .min(1, profileMessages.linkedInRequired)
      .regex(LINKEDIN_PATTERN, profileMessages.linkedInInvalid),
  })
  .superRefine(checkPhone);
entities.add(FullProfileInput, { id: 'FullProfileInput' });
export type FullProfileInput = z.input<typeof FullProfileInput>;

/**
 * A profile form's schema for the person filling it in: a mentor must say who they are ('I am'). The check
 * runs even while other fields are wrong, so the form shows every message at once.
 */
export function profileFormFor<S extends z.ZodType<{ iam?: string | null }>>(schema: S, role: Role): S {
  return schema.refine((v) => !requireIamForTenant(role, v?.iam), {
    message: profileMessages.iamRequired,
    path: ['iam'],
    when: (payload) => typeof payload.value === 'object' && payload.value !== null,
  });
}
