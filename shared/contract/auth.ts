import { z } from 'zod';
import { ErrorBody, envelope, errors, Ok } from '../schemas/common';
import { entities } from '../schemas/entities';
import {
  EmailExists,
  EmailInput,
  RefreshInput,
  SignInInput,
  SignInResult,
  SocketTokenQuery,
  SocketTokens,
  Tokens,
} from '../schemas/user';
import { defineCall, defineRouter } from './define';

export const signInWithFirebase = defineCall({
  method: 'POST',
  path: '/login/sign-in-with-firebase',
  summary:
    'Exchange an identity-provider ID token for Waymark tokens. With a role, a first sign-in registers the person.',
  tags: ['login'],
  access: 'public',
  rateLimit: 'auth',
  body: SignInInput,
  responses: { 200: envelope(SignInResult), ...errors },
});

export const refresh = defineCall({
  method: 'POST',
  path: '/login/refresh',
  summary: 'Rotate a refresh token: the old one stops working, reusing it revokes the whole family.',
  tags: ['login'],
  access: 'public',
  rateLimit: 'auth',
  body: RefreshInput,
  responses: { 200: envelope(Tokens), ...errors },
});

export const logout = defineCall({
  method: 'POST',
  path: '/login/logout',
  summary: 'Revoke the refresh token (and its family) of this device.',
  tags: ['login'],
  access: 'public',
  body: RefreshInput,
  responses: { 200: Ok, ...errors },
});

export const socketToken = defineCall({
  method: 'GET',
  path: '/login/socket-token',
  summary: 'Tokens for the browser extension of the signed-in learner.',
  tags: ['login'],
  access: ['USER'],
  query: SocketTokenQuery,
  responses: { 200: envelope(SocketTokens), ...errors },
});

export const checkEmailExist = defineCall({
  method: 'POST',
  path: '/user/check-email-exist',
  summary: 'Whether an account uses this e-mail address.',
  tags: ['user'],
  access: 'public',
  rateLimit: 'strict',
  body: EmailInput,
  responses: { 200: envelope(EmailExists), ...errors },
});

// ---- terminal sign-in: the CLI asks, the person approves in the portal, the CLI collects its tokens
export const CliStart = z.object({
  deviceCode: z.string(),
  userCode: z.string(),
  verificationUrl: z.string(),
  expiresIn: z.number().int(),
  interval: z.number().int(),
});
entities.add(CliStart, { id: 'CliStart' });
export const cliStart = defineCall({
  method: 'POST',
  path: '/login/cli/start',
  summary: 'Start a terminal sign-in; the person approves it in the portal at verificationUrl.',
  tags: ['login'],
  access: 'public',
  rateLimit: 'strict',
  body: z.object({ deviceInfo: z.string().max(200).optional() }).optional(),
  responses: { 200: envelope(CliStart), ...errors },
});
export const cliApprove = defineCall({
  method: 'POST',
  path: '/login/cli/approve',
  summary: 'Approve a terminal sign-in by its code, as the signed-in person.',
  tags: ['login'],
  access: 'signedIn',
  rateLimit: 'strict',
  body: z.object({
    userCode: z
      .string()
      .max(20, 'must look like ABCD-1234')
      .trim()
      .toUpperCase()
      .regex(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/, 'must look like ABCD-1234'),
  }),
  responses: { 200: Ok, ...errors },
});
export const cliPoll = defineCall({
  method: 'POST',
  path: '/login/cli/poll',
  summary: 'Collect the tokens of an approved terminal sign-in. 428 while it waits for approval.',
  tags: ['login'],
  access: 'public',
  body: z.object({
    deviceCode: z.string().min(20, 'deviceCode is not valid').max(200, 'deviceCode is not valid'),
  }),
  responses: {
    200: envelope(SignInResult.omit({ deletionCanceled: true })),
    410: ErrorBody,
    428: ErrorBody,
    ...errors,
  },
});

/** Every call of this module, served by server/auth/routes.ts. */
export const authRouter = defineRouter({
  signInWithFirebase,
  refresh,
  logout,
  socketToken,
  checkEmailExist,
  cliStart,
  cliApprove,
  cliPoll,
});
