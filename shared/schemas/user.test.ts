import { english } from 'virtual:wm-messages';
import { describe, expect, it } from 'vitest';
import type { MessageKey } from '../i18n/keys';
import { createTranslator } from '../i18n/translator';
import { BasicProfileInput, FullProfileInput, profileFormFor } from './profile-forms';
import {
  AccountDeletionInput,
  DeleteForm,
  deleteMessages,
  EmailInput,
  LINKEDIN_PATTERN,
  profileMessages,
  requireIamForTenant,
  SignInInput,
} from './user';

/** The message zod gives for each invalid field. */

const en = createTranslator('en', english);
function problems(result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) {
  const out: Record<string, string> = {};
  // the schemas' messages are keys of the catalogues: read as the English a person sees
  for (const issue of result.error?.issues ?? [])
    out[issue.path.join('.')] ??= en.t(issue.message as MessageKey);
  return out;
}

const fullProfile = {
  name: 'Meera Nair',
  phoneNumber: '9876543210',
  linkedIn: 'https://www.linkedin.com/in/meera-nair',
  tShirtSize: 'M',
  addressLine1: '4 Residency Road',
  country: 'IN',
  state: 'Karnataka',
  city: 'Bengaluru',
  pincode: '560025',
};

describe('the LinkedIn URL rule: {host}/ then letters, digits, dot, slash or hyphen', () => {
  it.each([
    'https://www.linkedin.com/in/meera-nair',
    'http://linkedin.com/in/meera.nair/',
    'www.linkedin.com/in/meera-nair-1234',
    'linkedin.com/company/waymark',
    'https://in.linkedin.com/in/asha',
  ])('accepts %s', (url) => {
    expect(LINKEDIN_PATTERN.test(url)).toBe(true);
  });

  it.each([
    'https://example.com/in/meera',
    'https://www.linkedin.com/',
    'https://www.linkedin.com/in/meera nair',
    'https://www.linkedin.com/in/meera?trk=x',
    'https://www.linkedin.com/in/meera_nair',
    'https://linkedin.com.evil.example/in/meera',
    'ftp://www.linkedin.com/in/meera',
  ])('refuses %s', (url) => {
    expect(LINKEDIN_PATTERN.test(url)).toBe(false);
  });
});

describe('the basic profile', () => {
  it('takes the phone as Indian when no country is given', () => {
    const parsed = BasicProfileInput.parse({ name: ' Kiran ', phoneNumber: '98765 43210' });
    expect(parsed).toMatchObject({ name: 'Kiran', phoneCountry: 'IN' });
  });

  it('checks the number against its country', () => {
    expect(
      BasicProfileInput.safeParse({ name: 'Sam', phoneNumber: '2025550175', phoneCountry: 'US' }).success,
    ).toBe(true);
    // nine digits are not an Indian number
    expect(problems(BasicProfileInput.safeParse({ name: 'Sam', phoneNumber: '987654321' }))).toEqual({
      phoneNumber: en.t(profileMessages.phoneInvalid),
    });
    expect(problems(BasicProfileInput.safeParse({ name: 'Sam', phoneNumber: '0000000000' }))).toEqual({
      phoneNumber: en.t(profileMessages.phoneInvalid),
    });
  });

  it('names each problem with the specification’s message', () => {
    expect(problems(BasicProfileInput.safeParse({ name: '  ', phoneNumber: '' }))).toEqual({
      name: 'Name Required',
      phoneNumber: 'Please provide a valid Mobile Number.',
    });
    expect(problems(BasicProfileInput.safeParse({ phoneNumber: '12345', name: 'A' }))).toEqual({
      phoneNumber: 'Please enter valid phone number',
    });
    expect(
      problems(
        BasicProfileInput.safeParse({ name: 'A', phoneNumber: '9876543210', linkedIn: 'example.com/me' }),
      ),
    ).toEqual({ linkedIn: 'Please enter valid linkedin url' });
  });

  it('treats an empty LinkedIn URL and an empty I am as not given', () => {
    const parsed = BasicProfileInput.parse({ name: 'A', phoneNumber: '9876543210', linkedIn: '', iam: '' });
    expect(parsed.linkedIn).toBeUndefined();
    expect(parsed.iam).toBeUndefined();
  });

  it('needs I am from tenants only, from Parent, Mentor or Manager', () => {
    expect(en.t(requireIamForTenant('TENANT', undefined) as MessageKey)).toBe('Required*');
    expect(requireIamForTenant('TENANT', 'MENTOR')).toBeNull();
    expect(requireIamForTenant('USER', undefined)).toBeNull();
    expect(
      BasicProfileInput.safeParse({ name: 'A', phoneNumber: '9876543210', iam: 'TEACHER' }).success,
    ).toBe(false);
  });

  it("the forms' schemas by role: a mentor's says 'I am' is required on the field", () => {
    const given = { name: 'A', phoneNumber: '9876543210' };
    expect(problems(profileFormFor(BasicProfileInput, 'TENANT').safeParse(given))).toEqual({
      iam: 'Required*',
    });
    expect(profileFormFor(BasicProfileInput, 'TENANT').safeParse({ ...given, iam: 'PARENT' }).success).toBe(
      true,
    );
    expect(profileFormFor(BasicProfileInput, 'USER').safeParse(given).success).toBe(true);
    expect(problems(profileFormFor(FullProfileInput, 'TENANT').safeParse(given))).toMatchObject({
      iam: 'Required*',
    });
  });
});

describe('the full profile', () => {
  it('accepts a complete profile', () => {
    expect(FullProfileInput.safeParse(fullProfile).success).toBe(true);
  });

  it('requires every field but the second address line, with a message for each', () => {
    expect(problems(FullProfileInput.safeParse({ name: 'A', phoneNumber: '9876543210' }))).toEqual({
      linkedIn: en.t(profileMessages.linkedInRequired),
      tShirtSize: en.t(profileMessages.tShirtSizeRequired),
      addressLine1: en.t(profileMessages.addressLine1Required),
      country: en.t(profileMessages.countryRequired),
      state: en.t(profileMessages.stateRequired),
      city: en.t(profileMessages.cityRequired),
      pincode: en.t(profileMessages.pincodeRequired),
    });
  });

  it('requires a valid LinkedIn URL and a size it offers', () => {
    expect(problems(FullProfileInput.safeParse({ ...fullProfile, linkedIn: 'linkedin' }))).toEqual({
      linkedIn: en.t(profileMessages.linkedInInvalid),
    });
    expect(problems(FullProfileInput.safeParse({ ...fullProfile, tShirtSize: 'XXL' }))).toEqual({
      tShirtSize: en.t(profileMessages.tShirtSizeRequired),
    });
  });
});

describe('account deletion', () => {
  it('needs a reason, and words it when "other" is chosen', () => {
    expect(problems(DeleteForm.safeParse({}))).toEqual({ reason: en.t(deleteMessages.reasonRequired) });
    expect(problems(DeleteForm.safeParse({ reason: 'other', other: ' ' }))).toEqual({
      other: en.t(deleteMessages.otherRequired),
    });
    expect(DeleteForm.safeParse({ reason: 'Not useful' }).success).toBe(true);
    expect(problems(AccountDeletionInput.safeParse({ deleteReason: '', isDeleted: true }))).toEqual({
      deleteReason: en.t(deleteMessages.reasonRequired),
    });
  });
});

describe('sign-in input', () => {
  it('is from the web app unless a device is named, and knows only the two roles', () => {
    const token = 'x'.repeat(40);
    expect(SignInInput.parse({ token }).device).toBe('WEB_APP');
    expect(SignInInput.safeParse({ token, role: 'ADMIN' }).success).toBe(false);
    expect(SignInInput.safeParse({ token, role: 'TENANT', device: 'CLI' }).success).toBe(true);
  });

  it('takes e-mail addresses in lower case and refuses what is not one', () => {
    expect(EmailInput.parse({ email: 'Asha@Example.COM' }).email).toBe('asha@example.com');
    expect(problems(EmailInput.safeParse({ email: 'asha@' }))).toEqual({ email: 'Invalid email address' });
  });
});
