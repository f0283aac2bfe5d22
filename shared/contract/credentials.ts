/**
 * Verifiable awards: every feather, badge and certificate is an Open Badges 3.0 credential (W3C VC 2.0, a
 * Data Integrity proof eddsa-rdfc-2022) issued by this server's did:web (its DID document is
 * /.well-known/did.json), revocable through a public Bitstring Status List, and verifiable by anyone.
 * The award id is the link id of the test that earned it.
 */
import { z } from 'zod';
import { envelope, errors } from '../schemas/common';
import {
  CredentialStatusInfo,
  Revocation,
  RevokeInput,
  VerifiableCredentialJson,
  VerificationReport,
  VerifyInput,
} from '../schemas/credential';
import { LinkIdParam } from './assessments';
import { defineCall, defineRouter } from './define';

export const getCredential = defineCall({
  method: 'GET',
  path: '/credentials/{id}',
  summary:
    "An award's Open Badges 3.0 credential, signed by this server's did:web, as application/vc+ld+json. Public. An award earned before credentials existed is issued on this first request.",
  tags: ['credentials'],
  access: 'public',
  params: LinkIdParam,
  responses: { 200: VerifiableCredentialJson, ...errors },
});

export const credentialStatusList = defineCall({
  method: 'GET',
  path: '/credentials/status/{list}',
  summary:
    "The issuer's Bitstring Status List credential (revocation) as application/vc+ld+json: public and cacheable for 30 s, so a revocation shows within a minute.",
  tags: ['credentials'],
  access: 'public',
  params: z.object({
    // a PostgreSQL integer column: a larger number is no list (and not a database error)
    list: z.coerce
      .number({ error: 'must be a list number' })
      .int('must be a list number')
      .min(1, 'must be a list number')
      .max(2_147_483_647, 'must be a list number'),
  }),
  responses: { 200: VerifiableCredentialJson, ...errors },
});

export const credentialStatus = defineCall({
  method: 'GET',
  path: '/credentials/{id}/status',
  summary:
    "Whether an award's credential stands or was revoked (the reason only for the learner, the mentor whose test it was and platform staff), its addresses, and whether the caller may revoke it.",
  tags: ['credentials'],
  access: 'optional',
  params: LinkIdParam,
  responses: { 200: envelope(CredentialStatusInfo), ...errors },
});

export const verifyCredential = defineCall({
  method: 'POST',
  path: '/credentials/verify',
  summary:
    'Verifies any Verifiable Credential (this server’s or another issuer’s whose did:web or did:key resolves): format, Open Badges 3.0 data model, issuer, Data Integrity signature (eddsa-rdfc-2022), validity dates and revocation. Answers a report with the verdict — valid, revoked, tampered, unknown-issuer, expired, not-yet-valid or malformed — and what was checked. Public.',
  tags: ['credentials'],
  access: 'public',
  rateLimit: 'strict',
  body: VerifyInput,
  responses: { 200: envelope(VerificationReport), ...errors },
});

export const revokeCredential = defineCall({
  method: 'POST',
  path: '/credentials/{id}/revoke',
  summary:
    "Revokes an award's credential, with a reason that is recorded: the mentor who assigned the roadmap the test was on, or platform staff (PLATFORM_STAFF_EMAILS). The status list shows it within a minute. Revoking again answers the first revocation.",
  tags: ['credentials'],
  access: 'signedIn',
  params: LinkIdParam,
  body: RevokeInput,
  responses: { 200: envelope(Revocation), 201: envelope(Revocation), ...errors },
});

/** Every call of this module, served by server/credentials/routes.ts. */
export const credentialsRouter = defineRouter({
  getCredential,
  credentialStatusList,
  credentialStatus,
  verifyCredential,
  revokeCredential,
});
