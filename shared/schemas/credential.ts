/**
 * Credentials of awards (Open Badges 3.0): the verification report of any credential, an award's credential
 * status, and a revocation.
 */
import { z } from 'zod';
import { DateTime } from './common';
import { entities } from './entities';
import { jsonValueTooDeep, TOO_DEEP } from './json-depth';

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
entities.add(Verdict, { id: 'Verdict' });
export type Verdict = z.infer<typeof Verdict>;

/**
 * Words said by a code (a message key of Waymark's catalogues, decision 048) and the values they name, for
 * a reader in another language than the English beside them.
 */
export const CodedWords = z.object({
  code: z.string().describe('Stable code of the words: their message key (`verify.check.…`, `verify.ob.…`).'),
  params: z
    .record(z.string(), z.union([z.string(), z.number()]))
    .optional()
    .describe('The values the words name (a DID, a date, a count, a property path).'),
});
entities.add(CodedWords, { id: 'CodedWords' });

export const VerificationCheck = z.object({
  id: z.enum(['format', 'open-badge', 'issuer', 'signature', 'dates', 'status']),
  label: z.string(),
  outcome: z.enum(['passed', 'failed', 'warning', 'skipped']),
  detail: z.string().describe('What the check found, in English.'),
  ...CodedWords.shape,
  problems: z
    .array(CodedWords)
    .optional()
    .describe('The Open Badges 3.0 check: each problem the detail lists, by its code.'),
});
entities.add(VerificationCheck, { id: 'VerificationCheck' });

export const VerificationReport = z.object({
  verdict: Verdict,
  summary: z.string().describe('The verdict in English words.'),
  summaryParts: z
    .array(CodedWords)
    .describe('The summary by code, sentence by sentence (its words joined by a space are `summary`).'),
  checks: z.array(VerificationCheck),
  issuer: z.object({
    id: z
      .string()
      .nullable()
      .describe("The issuer's DID (or whatever issuer.id says when it is no DID): who issued it."),
    name: z
      .string()
      .nullable()
      .describe(
        'The name the credential gives its issuer: the issuer’s own claim, never proof of who it is.',
      ),
    isThisServer: z
      .boolean()
      .describe(
        "True only when the issuer's DID is this server's (or a did:key of a key it lists) and every proof holds.",
      ),
    confirmed: z
      .boolean()
      .describe("True when the issuer's DID resolved, lists the key of every proof, and every proof holds."),
    statement: z
      .string()
      .describe(
        'Who issued it, in words, by its DID: "Issued by this Waymark (did:web:…).", "Issued by did:key:…, which calls itself “Waymark” — not by this Waymark."',
      ),
  }),
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
entities.add(VerificationReport, { id: 'VerificationReport' });
export type VerificationReport = z.infer<typeof VerificationReport>;

/** The largest credential the verifier reads (JSON text). */
const MAX_CREDENTIAL_CHARS = 200_000;
/** The most top-level properties a credential object may have (a verifiable credential has about a dozen). */
export const MAX_CREDENTIAL_PROPERTIES = 100;

const isRecord = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The length of a value's JSON text; a value that has none (a cycle, a BigInt) counts as endless. */
function jsonLength(value: unknown): number {
  try {
    return JSON.stringify(value)?.length ?? 0;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

export const VerifyInput = z.object({
  credential: z.union(
    [
      z
        .record(z.string().max(1000, 'is too long for a property name'), z.unknown())
        // bounded like the text form: a few top-level properties, and as much JSON as a pasted credential
        .refine(
          (o) => Object.keys(o).length <= MAX_CREDENTIAL_PROPERTIES,
          'has too many properties for a credential',
        )
        // depth first, without recursion: JSON.stringify of a value nested thousands deep throws
        .refine((o) => !jsonValueTooDeep(o), { message: TOO_DEEP, abort: true })
        .refine((o) => jsonLength(o) <= MAX_CREDENTIAL_CHARS, 'is too long for a credential')
        .meta({ maxProperties: MAX_CREDENTIAL_PROPERTIES }),
      z
        .string()
        .min(1, 'is empty: paste a credential')
        .max(MAX_CREDENTIAL_CHARS, 'is too long for a credential'),
    ],
    {
      // an object that is no credential says why (too deep, too long…); anything else is neither form
      error: (issue) =>
        (issue.code === 'invalid_union' && isRecord(issue.input) && issue.errors[0]?.[0]?.message) ||
        'must be a credential: a JSON object, or its JSON text',
    },
  ),
});
entities.add(VerifyInput, { id: 'VerifyInput' });

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
entities.add(CredentialStatusInfo, { id: 'CredentialStatusInfo' });
export type CredentialStatusInfo = z.infer<typeof CredentialStatusInfo>;

export const RevokeInput = z.object({
  reason: z
    .string({ error: 'is required: say why the award is revoked' })
    .trim()
    .min(5, 'must say why the award is revoked (at least 5 characters)')
    .max(500, 'must be at most 500 characters'),
});
entities.add(RevokeInput, { id: 'RevokeInput' });

export const Revocation = z.object({
  awardId: z.string(),
  revokedAt: DateTime,
  reason: z.string(),
  revokedAs: z.enum(['MENTOR', 'PLATFORM']),
});
entities.add(Revocation, { id: 'Revocation' });

/** A credential or status list as JSON-LD (answered as application/vc+ld+json). */
export const VerifiableCredentialJson = z
  .record(z.string(), z.unknown())
  .describe('A W3C Verifiable Credential (JSON-LD), answered as application/vc+ld+json');
entities.add(VerifiableCredentialJson, { id: 'VerifiableCredentialJson' });
