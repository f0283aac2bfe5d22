/** The sign-up and login forms' rules and messages (mentor §5). */
import { z } from 'zod';
import { entities } from './entities';

export const authMessages = {
  emailRequired: 'Email Required*',
  emailInvalid: 'Invalid email address',
  emailTaken: 'Email already exists',
  emailUnknown: 'Email does not exist',
  passwordRequired: '*Required',
  passwordLength: '*Password must be 8 characters long.',
  passwordNumber: 'Must contain one number.',
  passwordCapital: 'Must contain one capital letter',
  passwordSmall: 'Must contain one small letter',
  passwordSpecial: 'Must contain one special character',
  confirmRequired: '*Required',
  confirmMismatch: 'Password does not match',
  notRegistered: 'Failed: You are not Existing User, Please login after registration',
  signUpNotice:
    'Thank you for signing up with our platform. To complete the registration process, please verify your account by clicking the link we sent to your e-mail address.',
  attention:
    "It appears that you haven't yet verified your email address. Please check your inbox for the verification link, or we can send it again.",
} as const;

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
