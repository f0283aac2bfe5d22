import { z } from 'zod';
import { DateTime, Device, Id, Role } from './common';
import { entities } from './entities';

export const IAM_VALUES = ['PARENT', 'MENTOR', 'MANAGER'] as const;
export const Iam = z.enum(IAM_VALUES);
entities.add(Iam, { id: 'Iam' });
export const IAM_LABELS: Record<(typeof IAM_VALUES)[number], string> = {
  PARENT: 'Parent',
  MENTOR: 'Mentor',
  MANAGER: 'Manager',
};
export const T_SHIRT_SIZES = ['S', 'M', 'L', 'XL'] as const;
export const TShirtSize = z.enum(T_SHIRT_SIZES);
entities.add(TShirtSize, { id: 'TShirtSize' });

export const DEFAULT_COUNTRY = 'IN';
export const PREFERRED_PHONE_COUNTRY = 'IN';

/** The current user as the API returns it. */
export const User = z.object({
  _id: Id,
  email: z.string(),
  role: Role,
  name: z.string().nullable(),
  picture: z.string().nullable(),
  isProfileCompleted: z.boolean(),
  isFirstLogin: z.boolean(),
  emailVerified: z.boolean(),
  phoneNumber: z.string().nullable(),
  /** Dial code with its plus sign, e.g. `+91`. */
  countrycode: z.string().nullable(),
  /** ISO country of the phone number, e.g. `IN`. */
  phoneCountry: z.string().nullable(),
  linkedIn: z.string().nullable(),
  iam: Iam.nullable(),
  tShirtSize: TShirtSize.nullable(),
  addressLine1: z.string().nullable(),
  addressLine2: z.string().nullable(),
  country: z.string().nullable(),
  state: z.string().nullable(),
  city: z.string().nullable(),
  pincode: z.string().nullable(),
  /** False once the one allowed name change has been used. */
  canChangeName: z.boolean(),
  isDeleted: z.boolean(),
  deleteReason: z.string().nullable(),
  createdAt: DateTime,
});
entities.add(User, { id: 'User' });
export type User = z.infer<typeof User>;

/** The session a client keeps. */
export const Session = z.object({
  token: z.string(),
  refreshToken: z.string(),
  user: User,
});
entities.add(Session, { id: 'Session' });
export type Session = z.infer<typeof Session>;

// ---- validation messages (the specification's wording, spelling corrected where recorded in copy-errata)
export const profileMessages = {
  nameRequired: 'Name Required',
  phoneRequired: 'Please provide a valid Mobile Number.',
  phoneInvalid: 'Please enter valid phone number',
  iamRequired: 'Required*',
  linkedInInvalid: 'Please enter valid linkedin url',
  linkedInRequired: 'Please enter linkedin profile url',
  tShirtSizeRequired: 'Please choose a T-shirt size',
  addressLine1Required: 'Please enter address line 1',
  countryRequired: 'Please choose a country',
  stateRequired: 'Please enter state',
  cityRequired: 'Please enter city',
  pincodeRequired: 'Please enter pincode',
  nameChangedOnce: 'The name can be changed once only. Please contact the support team to change it again.',
  mobileUsed: 'Mobile Number Already Used',
} as const;

/** `{host}/` followed by letters, digits, dot, slash or hyphen. */
export const LINKEDIN_PATTERN = /^(https?:\/\/)?([A-Za-z]{2,3}\.)?linkedin\.com\/[A-Za-z0-9./-]+$/;

/** The tenant's 'I am' is required for tenants only; the server and the forms apply this on top. */
export function requireIamForTenant(role: Role | undefined, iam: unknown): string | null {
  return role === 'TENANT' && !iam ? profileMessages.iamRequired : null;
}

export const ProfilePage = z.enum(['basic_profile_page', 'profile_page']);
entities.add(ProfilePage, { id: 'ProfilePage' });

// ---- account deletion
export const DELETE_REASONS = ['Not useful', 'other'] as const;
export const deleteMessages = {
  reasonRequired: 'Please select a reason for deleting your account.',
  otherRequired: 'Please provide a reason for deleting your account.',
  confirmRequired: 'Please tick the box to confirm you want to delete your account.',
  canceled: 'Account Deletion Canceled',
  scheduled:
    'Your account is scheduled for deletion. It will be deleted within 90 days; signing in again before then cancels the deletion.',
} as const;

/** The delete form as the person fills it. */
export const DeleteForm = z
  .object({
    reason: z.enum(DELETE_REASONS, { error: deleteMessages.reasonRequired }),
    other: z.string().trim().max(500).optional(),
  })
  .superRefine((v, ctx) => {
    if (v.reason === 'other' && !v.other) {
      ctx.addIssue({ code: 'custom', message: deleteMessages.otherRequired, path: ['other'] });
    }
  });
entities.add(DeleteForm, { id: 'DeleteForm' });

/** PUT /user/delete/{userId} */
export const AccountDeletionInput = z.object({
  deleteReason: z
    .string({ error: deleteMessages.reasonRequired })
    .trim()
    .min(1, deleteMessages.reasonRequired)
    .max(500),
  isDeleted: z.boolean({ error: 'must be true or false' }),
});
entities.add(AccountDeletionInput, { id: 'AccountDeletionInput' });

// ---- sign-in
export const SignInInput = z.object({
  token: z
    .string({ error: 'token is required' })
    .min(20, 'token is not an ID token')
    .max(16_384, 'token is not an ID token'),
  role: Role.optional(),
  tenantId: Id.optional(),
  device: Device.default('WEB_APP'),
});
entities.add(SignInInput, { id: 'SignInInput' });

export const Tokens = z.object({ token: z.string(), refreshToken: z.string() });
entities.add(Tokens, { id: 'Tokens' });

export const SignInResult = z.object({
  user: User,
  token: z.string(),
  refreshToken: z.string(),
  /** True when this sign-in cancelled a scheduled account deletion. */
  deletionCanceled: z.boolean(),
});
entities.add(SignInResult, { id: 'SignInResult' });

export const RefreshInput = z.object({
  refreshToken: z
    .string({ error: 'refreshToken is required' })
    .min(20, 'refreshToken is not valid')
    .max(200, 'refreshToken is not valid'),
  device: Device,
});
entities.add(RefreshInput, { id: 'LogoutInput' });

export const SocketTokenQuery = z.object({
  device: z.enum(['CHROME_EXTENSION', 'FIREFOX_EXTENSION'], {
    error: 'must be CHROME_EXTENSION or FIREFOX_EXTENSION',
  }),
  /** JSON with browserType and any other description of the browser. */
  deviceInfo: z
    .string()
    .max(1000)
    .optional()
    .refine(
      (v) => {
        if (!v) return true;
        try {
          return typeof JSON.parse(v) === 'object';
        } catch {
          return false;
        }
      },
      { message: 'must be JSON such as {"browserType":"chrome"}' },
    ),
});
export const SocketTokens = z.object({
  extensionAccessToken: z.string(),
  extensionRefreshToken: z.string(),
  uuid: z.string(),
});
entities.add(SocketTokens, { id: 'SocketTokens' });

export const EmailInput = z.object({
  email: z
    .email({ error: 'Invalid email address' })
    .max(254)
    .transform((v) => v.toLowerCase()),
});
entities.add(EmailInput, { id: 'EmailInput' });
export const EmailExists = z.object({ isExist: z.boolean() });
entities.add(EmailExists, { id: 'EmailExists' });
