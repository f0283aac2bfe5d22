/** The sign-up and login forms' rules and messages (mentor §5). */
import { z } from 'zod';
import type { MessageKey } from '../i18n/keys';
import { entities } from './entities';

/** The forms' messages (message keys: the forms and the server say them in the reader's language). */
export const authMessages = {
  emailRequired: 'auth.emailRequired',
  emailInvalid: 'auth.emailInvalid',
  emailTaken: 'auth.emailTaken',
  emailUnknown: 'auth.emailUnknown',
  passwordRequired: 'auth.required',
  passwordLength: 'auth.passwordLength',
  passwordNumber: 'auth.passwordNumber',
  passwordCapital: 'auth.passwordCapital',
  passwordSmall: 'auth.passwordSmall',
  passwordSpecial: 'auth.passwordSpecial',
  confirmRequired: 'auth.required',
  confirmMismatch: 'auth.confirmMismatch',
  notRegistered: 'auth.notRegistered',
  signUpNotice: 'auth.signUpNotice',
  attention: 'auth.attention',
} as const satisfies Record<string, MessageKey>;

export const EMAIL_PATTERN = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$/;

export const emailField = z
  .string()
  .trim()
  .min(1, authMessages.emailRequired)
  .regex(EMAIL_PATTERN, authMessages.emailInvalid);

export const passwordField = z
  .string()
  .min(1, authMessages.passwordRequired)
  .min(8, authMessages.passwordLength)
  .regex(/[0-9]/, authMessages.passwordNumber)
  .regex(/[A-Z]/, authMessages.passwordCapital)
  .regex(/[a-z]/, authMessages.passwordSmall)
  .regex(/[!@#$%^&*]/, authMessages.passwordSpecial);

export const LoginForm = z.object({ email: emailField, password: passwordField });
entities.add(LoginForm, { id: 'LoginForm' });
export type LoginForm = z.infer<typeof LoginForm>;

export const SignUpForm = z
  .object({
    email: emailField,
    password: passwordField,
    confirmPassword: z.string().min(1, authMessages.confirmRequired),
  })
  .refine((v) => v.password === v.confirmPassword, {
    message: authMessages.confirmMismatch,
    path: ['confirmPassword'],
  });
entities.add(SignUpForm, { id: 'SignUpForm' });
export type SignUpForm = z.infer<typeof SignUpForm>;
