/**
 * Verifying a credential, step by step, so a person can see what was checked: that it is a W3C Verifiable
 * Credential, that it follows the Open Badges 3.0 data model, that its issuer's DID resolves and lists the
 * signing key, that the Data Integrity proof (eddsa-rdfc-2022) matches the content, that it is within its
 * validity dates, and that its status list does not mark it revoked. Signature and status use Digital
 * Bazaar's libraries (./proof.ts, ./status.ts); JSON-LD contexts come only from npm packages (./contexts).
 * How DIDs are resolved and status lists fetched is up to the caller (the server reads its own from the
 * database, the CLI over HTTP).
 */
import type { z } from 'zod';
import { type Verdict, VerificationCheck, type VerificationReport } from '../schemas/credential';
import { VC_V1_CONTEXT, VC_V2_CONTEXT } from './contexts';
import { type DidDocument, DidNotResolved, didOf, isAssertionMethod, verificationMethodOf } from './did';
import { asList, claimsOpenBadge, isObject, openBadgeProblems, str } from './ob3';
import {
  failedProof,
  MAX_CLOCK_SKEW_SECONDS,
  MAX_PROOFS,
  methodOf,
  type ProofOutcome,
  SUPPORTED,
  unsupportedProof,
} from './proof';
import { checkStatus, type StatusListLoad } from './status';

type Json = Record<string, unknown>;

export type { VerificationReport };
export type CheckId = z.infer<typeof VerificationCheck>['id'];
export type CheckOutcome = z.infer<typeof VerificationCheck>['outcome'];
type Check = z.infer<typeof VerificationCheck>;
type CredentialSummary = NonNullable<VerificationReport['credential']>;
const CHECK_IDS = VerificationCheck.shape.id.options;

/**
 * The Waymark the verifier speaks for: a credential is said to be its own only when the issuer's DID is its
 * DID (or one it owns) and every proof holds. A name is never enough: any issuer can call itself anything.
 */
export interface LocalIssuer {
  /** Its did:web. */
  did: string;
  /** Whether another DID is its own too: a did:key of a key its DID document lists. */
  owns?(did: string): Promise<boolean>;
  /** The name its own credentials give their issuer ('Waymark'): another issuer that uses it is pointed out. */
  name: string;
  /** How the report refers to it: 'this Waymark', 'the Waymark at https://…'. */
  called: string;
}

export interface VerifierDeps {
  /** The DID document of `did`; throws DidNotResolved (or any error) with the reason. */
  resolveDid(did: string): Promise<DidDocument>;
  /** The status list credential at `url`; throws with the reason when it cannot be read. */
  loadStatusList(url: string): Promise<StatusListLoad>;
  /** This server (or, for the CLI, the server it works with), to say 'issued by this Waymark'. */
  local?: LocalIssuer;
  now?: () => Date;
  /**
   * Where the proofs are checked: checkProof (./proof.ts) on this thread unless given — a server passes its
   * signing threads (server/credentials/signers.ts), so a verification does not hold up other requests.
   */
  checkProof?: (document: Json, issuerDoc: DidDocument, at: Date) => Promise<ProofOutcome>;
}

const LABELS: Record<CheckId, string> = {
  format: 'Verifiable Credential',
  'open-badge': 'Open Badges 3.0',
  issuer: 'Issuer',
  signature: 'Signature',
  dates: 'Validity dates',
  status: 'Revocation status',
};

const SUMMARIES: Record<Verdict, string> = {
  valid: 'This credential is valid: it is authentic, unchanged since it was signed, and not revoked.',
  revoked: 'This credential was revoked by its issuer: it is authentic but no longer stands.',
  tampered: 'This credential was altered after it was signed: its content does not match its signature.',
  'unknown-issuer':
    "This credential's issuer could not be confirmed: its DID or signing key could not be found.",
  expired: 'This credential has expired.',
  'not-yet-valid': 'This credential is not valid yet.',
  malformed: 'This is not a credential that can be verified.',
};

const day = (iso: string) => iso.slice(0, 10);

function summarise(credential: Json): CredentialSummary {
  const subject = asList(credential.credentialSubject)[0];
  const s = isObject(subject) ? subject : {};
  const achievement = isObject(s.achievement) ? s.achievement : {};
  const identifiers = asList(s.identifier).filter(isObject);
  const named = identifiers.find((i) => i.identityType === 'name' && i.hashed === false);
  return {
    id: str(credential.id),
    name: str(credential.name),
    achievement: str(achievement.name),
    achievementType: str(achievement.achievementType),
    description: str(achievement.description) ?? str(credential.description),
    recipient: str(s.name) ?? str(named?.identityHash),
    validFrom: str(credential.validFrom) ?? str(credential.issuanceDate),
    validUntil: str(credential.validUntil) ?? str(credential.expirationDate),
  };
}

/** Why a credential is not a Verifiable Credential at all, or null when its shape is right. */
function formatProblem(credential: unknown): string | null {
  if (!isObject(credential)) return 'It is not a JSON object.';
  const contexts = asList(credential['@context']);
  if (contexts.length === 0) return 'It has no @context: it is not a JSON-LD credential.';
  if (contexts[0] !== VC_V2_CONTEXT && contexts[0] !== VC_V1_CONTEXT)
    return '@context does not start with the W3C Verifiable Credentials context.';
  if (!asList(credential.type).includes('VerifiableCredential'))
    return 'type does not include "VerifiableCredential".';
  const issuer = isObject(credential.issuer) ? credential.issuer.id : credential.issuer;
  if (typeof issuer !== 'string' || issuer === '') return 'It names no issuer.';
  if (!isObject(credential.credentialSubject) && !Array.isArray(credential.credentialSubject))
    return 'It has no credentialSubject.';
  if (credential.proof === undefined) return 'It has no proof: it was never signed.';
  return null;
}

/** 'proof 2 of 3' when there are several, 'proof' for the one proof. */
const nth = (i: number, n: number) => (n > 1 ? `proof ${i + 1} of ${n}` : 'proof');

/** Loosely the same name: 'Waymark', 'WAYMARK', 'Way-mark Academy' all use 'Waymark'. */
const usesName = (claimed: string | null, own: string) =>
  claimed !== null &&
  own !== '' &&
  claimed
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '')
    .includes(own.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ''));

/**
 * Who issued the credential, in words: by its DID always; 'this Waymark' only when the DID is the local
 * issuer's and the proofs hold; a name it gives itself only as its own claim.
 */
function issuerStatement(
  id: string | null,
  name: string | null,
  state: { own: boolean; confirmed: boolean },
  local: LocalIssuer | undefined,
): string {
  if (!id) return 'It names no issuer.';
  const calls = name ? `, which calls itself “${name}”` : '';
  if (state.confirmed && state.own) return `Issued by ${local!.called} (${id}).`;
  if (state.confirmed) return `Issued by ${id}${calls}${local ? ` — not by ${local.called}` : ''}.`;
  if (state.own)
    return `It names ${local!.called} (${id}) as its issuer, but its proof does not confirm that ${local!.called} issued it.`;
  return `It names ${id}${calls} as its issuer; that could not be confirmed${local ? `, and it is not ${local.called}` : ''}.`;
}

function validityWindow(
  credential: Json,
  now: Date,
): { outcome: 'ok' | 'expired' | 'early'; detail: string } {
  const from = str(credential.validFrom) ?? str(credential.issuanceDate);
  const until = str(credential.validUntil) ?? str(credential.expirationDate);
  const skew = MAX_CLOCK_SKEW_SECONDS * 1000;
  if (from && Date.parse(from) - skew > now.getTime())
    return { outcome: 'early', detail: `Valid only from ${day(from)}.` };
  if (until && Date.parse(until) + skew < now.getTime())
    return { outcome: 'expired', detail: `Expired on ${day(until)}.` };
  return {
    outcome: 'ok',
    detail: `Valid from ${from ? day(from) : 'its issue'}${until ? ` until ${day(until)}` : ', with no end date'}.`,
  };
}

/** Verifies one credential (a parsed JSON value). Never throws: every problem is in the report. */
export async function verifyCredential(input: unknown, deps: VerifierDeps): Promise<VerificationReport> {
  const now = deps.now?.() ?? new Date();
  const checks: Check[] = [];
  const add = (id: CheckId, outcome: CheckOutcome, detail: string) =>
    checks.push({ id, label: LABELS[id], outcome, detail });
  const { local } = deps;
  /** Whether the issuer's DID is the local issuer's, and whether every proof by its keys held. */
  const state = { own: false, confirmed: false };
  const report = (verdict: Verdict, summary = SUMMARIES[verdict]): VerificationReport => {
    for (const id of CHECK_IDS) {
      if (!checks.some((c) => c.id === id)) add(id, 'skipped', 'Not checked: an earlier step failed.');
    }
    checks.sort((a, b) => CHECK_IDS.indexOf(a.id) - CHECK_IDS.indexOf(b.id));
    const credential = isObject(input) ? input : null;
    const issuerValue =
      credential && (isObject(credential.issuer) ? credential.issuer : { id: credential.issuer });
    const issuerId = issuerValue ? str(issuerValue.id) : null;
    const issuerName = issuerValue ? str(issuerValue.name) : null;
    const foreignUse = state.confirmed && !state.own && local && usesName(issuerName, local.name);
    return {
      verdict,
      summary:
        state.confirmed && !state.own && local
          ? `${summary} It was issued by ${issuerId}${foreignUse ? `, which calls itself “${issuerName}”` : ''}, not by ${local.called}.`
          : summary,
      checks,
      issuer: {
        id: issuerId,
        name: issuerName,
        isThisServer: state.own && state.confirmed,
        confirmed: state.confirmed,
        statement: issuerStatement(issuerId, issuerName, state, local),
      },
      credential: credential ? summarise(credential) : null,
      checkedAt: now.toISOString(),
    };
  };

  // 1. a Verifiable Credential at all
  const problem = formatProblem(input);
  if (problem) {
    add('format', 'failed', problem);
    return report('malformed', `This is not a verifiable credential: ${problem}`);
  }
  const credential = input as Json;
  const v2 = asList(credential['@context'])[0] === VC_V2_CONTEXT;
  add(
    'format',
    'passed',
    `A W3C Verifiable Credential (data model ${v2 ? '2.0' : '1.1'}) of type ${asList(credential.type).join(', ')}.`,
  );

  // 2. the Open Badges 3.0 data model (a warning only: other credentials are verified too)
  if (claimsOpenBadge(credential)) {
    const problems = openBadgeProblems(credential);
    if (problems.length === 0)
      add('open-badge', 'passed', 'Has every property the Open Badges 3.0 data model requires.');
    else
      add('open-badge', 'warning', `Does not follow the Open Badges 3.0 data model: ${problems.join('; ')}.`);
  } else {
    add('open-badge', 'skipped', 'Not an Open Badge (no OpenBadgeCredential or AchievementCredential type).');
  }

  // 3. the issuer: its DID resolves and lists the key every proof was made with
  const issuerId = (isObject(credential.issuer) ? credential.issuer.id : credential.issuer) as string;
  const proofs = asList(credential.proof);
  if (!proofs.some(SUPPORTED)) {
    const kinds = proofs
      .filter(isObject)
      .map((p) => [p.type, p.cryptosuite].filter(Boolean).join(' '))
      .join(', ');
    add(
      'signature',
      'failed',
      `It is signed with ${kinds || 'an unknown proof'}; this verifier checks Data Integrity proofs with the eddsa-rdfc-2022 cryptosuite.`,
    );
    return report('malformed', 'This credential is signed in a way this verifier does not check.');
  }
  // every proof must hold for the credential to be valid: one that cannot be checked is not passed over
  if (proofs.length > MAX_PROOFS) {
    add(
      'signature',
      'failed',
      `It carries ${proofs.length} proofs; this verifier checks at most ${MAX_PROOFS}, and every one must hold.`,
    );
    return report('malformed', 'This credential carries more proofs than this verifier checks.');
  }
  for (const [i, proof] of proofs.entries()) {
    const why = unsupportedProof(proof);
    if (why) {
      add(
        'signature',
        'failed',
        `Its ${nth(i, proofs.length)} ${why}. Every proof must hold for a credential to be valid.`,
      );
      return report(
        'malformed',
        'This credential carries a proof this verifier cannot check, so it cannot be called valid.',
      );
    }
  }
  if (!issuerId.startsWith('did:')) {
    add('issuer', 'failed', `The issuer ${issuerId} is not a DID, so its key cannot be looked up.`);
    return report('unknown-issuer');
  }
  state.own = issuerId === local?.did || ((await local?.owns?.(issuerId)) ?? false);
  let issuerDoc: DidDocument;
  try {
    issuerDoc = await deps.resolveDid(issuerId);
  } catch (err) {
    const reason =
      err instanceof DidNotResolved
        ? err.message
        : `${issuerId} could not be resolved: ${(err as Error).message}`;
    add('issuer', 'failed', reason);
    return report('unknown-issuer');
  }
  const methods = proofs.map((p) => methodOf(p)!);
  const foreign = methods.find((m) => didOf(m) !== issuerId);
  if (foreign) {
    add(
      'issuer',
      'failed',
      `The proof was made with ${foreign}, a key of someone other than the issuer ${issuerId}.`,
    );
    return report('tampered', 'This credential was not signed by the issuer it names.');
  }
  const unlisted = methods.find(
    (m) => !(verificationMethodOf(issuerDoc, m) && isAssertionMethod(issuerDoc, m)),
  );
  if (unlisted) {
    add(
      'issuer',
      'failed',
      `${issuerId} resolved, but it does not list the signing key ${unlisted} for issuing credentials.`,
    );
    return report('unknown-issuer');
  }
  const claimed = isObject(credential.issuer) ? str(credential.issuer.name) : null;
  if (state.own) {
    add(
      'issuer',
      'passed',
      `${issuerId} resolved (${local!.called}); it lists the signing key ${methods.join(', ')} for issuing credentials.`,
    );
  } else if (local && usesName(claimed, local.name)) {
    add(
      'issuer',
      'warning',
      `${issuerId} resolved and lists the signing key ${methods.join(', ')}, but it is not ${local.called}: it calls itself “${claimed}”, and that name is only its own claim.`,
    );
  } else {
    add(
      'issuer',
      'passed',
      `${issuerId} resolved; it lists the signing key ${methods.join(', ')} for issuing credentials${local ? `. It is not ${local.called}` : ''}.`,
    );
  }

  // 4. the signature over the content, every proof of it (checked at a time inside the validity window, so
  // that an expired credential is still told apart from a forged one)
  const window = validityWindow(credential, now);
  const from = str(credential.validFrom) ?? str(credential.issuanceDate);
  const until = str(credential.validUntil) ?? str(credential.expirationDate);
  const at =
    window.outcome === 'early' && from
      ? new Date(from)
      : window.outcome === 'expired' && until
        ? new Date(until)
        : now;
  const failed = await failedProof(credential, proofs, issuerDoc, at, deps);
  if (failed) {
    const { index: i, outcome: proof } = failed;
    if (proof.refused && !state.own) {
      add('signature', 'failed', `${proof.refused} Contexts are never fetched from the network.`);
      return report('malformed', 'This credential uses a JSON-LD context this verifier does not hold.');
    }
    add(
      'signature',
      'failed',
      `The Data Integrity ${nth(i, proofs.length)} does not match the content (${proof.refused ?? proof.message}).`,
    );
    return report(
      'tampered',
      proofs.length > 1
        ? `This credential carries ${proofs.length} proofs and proof ${i + 1} does not match its content: every proof must hold for it to be valid.`
        : undefined,
    );
  }
  state.confirmed = true;
  add(
    'signature',
    'passed',
    proofs.length > 1
      ? `All ${proofs.length} Data Integrity proofs (eddsa-rdfc-2022, Ed25519) match every statement of the credential.`
      : 'The Data Integrity proof (eddsa-rdfc-2022, Ed25519) matches every statement of the credential.',
  );

  // 5. validity dates
  if (window.outcome !== 'ok') {
    add('dates', 'failed', window.detail);
  } else add('dates', 'passed', window.detail);

  // 6. revocation
  const status = await checkStatus(credential, issuerId, issuerDoc, deps, now);
  add('status', status.outcome, status.detail);
  if (status.revoked) return report('revoked');
  if (window.outcome === 'expired') return report('expired');
  if (window.outcome === 'early') return report('not-yet-valid');
  if (status.outcome === 'warning') {
    return report(
      'valid',
      'This credential is authentic and unchanged, but whether it was revoked could not be checked.',
    );
  }
  return report('valid');
}
