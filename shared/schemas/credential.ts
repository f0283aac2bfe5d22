/**
 * Credentials of awards (Open Badges 3.0): the verification report of any credential, an award's credential
 * status, and a revocation.
 */
import { z } from 'zod';
import { DateTime } from './common';

export const VERDICTS = [
  'valid',
  'revoked',
  'tampered',
  'unknown-issuer',
  'expired',
  'not-yet-valid',
  'malformed',
] as const;
export const Verdict = z.enum(VERDICTS);
export type Verdict = z.infer<typeof Verdict>;

export const VerificationCheck = z.object({
  id: z.enum(['format', 'open-badge', 'issuer', 'signature', 'dates', 'status']),
  label: z.string(),
  outcome: z.enum(['passed', 'failed', 'warning', 'skipped']),
  detail: z.string(),
});

export const VerificationReport = z.object({
  verdict: Verdict,
  summary: z.string(),
  checks: z.array(VerificationCheck),
  issuer: z.object({ id: z.string().nullable(), name: z.string().nullable(), isThisServer: z.boolean() }),
  credential: z
    .object({
      id: z.string().nullable(),
      name: z.string().nullable(),
      achievement: z.string().nullable(),
      achievementType: z.string().nullable(),
      description: z.string().nullable(),
      recipient: z.string().nullable(),
      validFrom: z.string().nullable(),
      validUntil: z.string().nullable(),
    })
    .nullable(),
  checkedAt: DateTime,
});
export type VerificationReport = z.infer<typeof VerificationReport>;

/** The largest credential the verifier reads (JSON text). */
export const MAX_CREDENTIAL_CHARS = 200_000;

export const VerifyInput = z.object({
  credential: z.union(
    [
      z.record(z.string(), z.unknown()),
      z
        .string()
        .min(1, 'is empty: paste a credential')
        .max(MAX_CREDENTIAL_CHARS, 'is too long for a credential'),
    ],
    { error: 'must be a credential: a JSON object, or its JSON text' },
  ),
});

export const CredentialStatusInfo = z.object({
  awardId: z.string(),
  /** The credential's address (GET answers it as application/vc+ld+json). */
  credentialUrl: z.string(),
  /** The public verify page. */
  verifyUrl: z.string(),
  /** The issuer's DID. */
  issuer: z.string(),
  status: z.enum(['active', 'revoked']),
  revokedAt: DateTime.nullable(),
  /** Why it was revoked: only for the learner, the mentor whose test it was and platform staff. */
  reason: z.string().nullable(),
  /** Whether the caller may revoke it (the mentor whose test it was, or platform staff). */
  canRevoke: z.boolean(),
});
export type CredentialStatusInfo = z.infer<typeof CredentialStatusInfo>;

export const RevokeInput = z.object({
  reason: z
    .string({ error: 'is required: say why the award is revoked' })
    .trim()
    .min(5, 'must say why the award is revoked (at least 5 characters)')
    .max(500, 'must be at most 500 characters'),
});

export const Revocation = z.object({
  awardId: z.string(),
  revokedAt: DateTime,
  reason: z.string(),
  revokedAs: z.enum(['MENTOR', 'PLATFORM']),
});

/** A credential or status list as JSON-LD (answered as application/vc+ld+json). */
export const VerifiableCredentialJson = z
  .record(z.string(), z.unknown())
  .describe('A W3C Verifiable Credential (JSON-LD), answered as application/vc+ld+json');
