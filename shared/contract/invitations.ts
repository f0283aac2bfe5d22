/**
 * Invitations to a tenant's seats: an e-mail address with no account is invited, which keeps a seat for it
 * until it signs up or the invitation expires; the sign-up page checks the link. Served by
 * server/tenant/routes.ts beside ./tenant.ts, and published under its group (`tenant.*`).
 */
import { z } from 'zod';
import { envelope, errors, Id } from '../schemas/common';
import { AddUserInput, Invitation, InvitationCheck, InvitationCreated } from '../schemas/tenant';
import { defineCall, defineRouter } from './define';

const TENANT = ['TENANT'] as const;

export const tenantInviteUser = defineCall({
  method: 'POST',
  path: '/tenant/users/invite-user',
  summary:
    "Records an invitation for an e-mail address with no account (after 'Email Not Found' with isAllowToInvite). It keeps a seat for 7 days; the portal then sends the Firebase e-mail sign-in link with continueUrl. When the invitee signs up with that tenantId they become a seat. Inviting again renews the invitation. 409 code 11000 when the address already has an account; 400 (field email) when no seat is free.",
  tags: ['tenant'],
  access: TENANT,
  scopes: ['seats:write'],
  body: AddUserInput,
  responses: { 200: envelope(InvitationCreated), ...errors },
});

export const tenantInvitations = defineCall({
  method: 'GET',
  path: '/tenant/users/invitations',
  summary: "The tenant's invitations, newest first (pending ones keep a seat until they expire).",
  tags: ['tenant'],
  access: TENANT,
  scopes: ['seats:read'],
  responses: { 200: envelope(z.array(Invitation)), ...errors },
});

export const tenantCancelInvitation = defineCall({
  method: 'DELETE',
  path: '/tenant/users/invitations/{id}',
  summary: 'Cancels a pending invitation (its seat is free again).',
  tags: ['tenant'],
  access: TENANT,
  scopes: ['seats:write'],
  params: z.object({ id: Id }),
  responses: { 200: envelope(Invitation), ...errors },
});

export const invitationCheck = defineCall({
  method: 'GET',
  path: '/invitation/check',
  summary:
    'Validates an invitation link on load (the sign-up page opened from the e-mail, with tenantId and email in its URL): valid while the invitation is pending. Public, rate limited; says nothing else about the tenant.',
  tags: ['tenant'],
  access: 'optional',
  rateLimit: 'strict',
  query: z.object({ tenantId: Id, email: AddUserInput.shape.email }),
  responses: { 200: envelope(InvitationCheck), ...errors },
});

/** The invitations' calls, served by server/tenant/routes.ts. */
export const invitationsRouter = defineRouter({
  tenantInviteUser,
  tenantInvitations,
  tenantCancelInvitation,
  invitationCheck,
});
