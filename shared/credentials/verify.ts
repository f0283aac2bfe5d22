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
import { asList, claimsOpenBadge, isObject, openBadgeFindings, str } from './ob3';
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
import { type Said, said, type WordCode } from './words';

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

const SUMMARIES: Record<Verdict, WordCode> = {
  valid: 'verify.summary.valid',
  revoked: 'verify.summary.revoked',
  tampered: 'verify.summary.tampered',
  'unknown-issuer': 'verify.summary.unknownIssuer',
  expired: 'verify.summary.expired',
  'not-yet-valid': 'verify.summary.notYetValid',
  malformed: 'verify.summary.malformed',
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
function formatProblem(credential: unknown): Said | null {
  if (!isObject(credential)) return said('verify.check.notObject');
  const contexts = asList(credential['@context']);
  if (contexts.length === 0) return said('verify.check.noContext');
  if (contexts[0] !== VC_V2_CONTEXT && contexts[0] !== VC_V1_CONTEXT)
    return said('verify.check.contextNotVc');
  if (!asList(credential.type).includes('VerifiableCredential')) return said('verify.check.typeNotVc');
  const issuer = isObject(credential.issuer) ? credential.issuer.id : credential.issuer;
  if (typeof issuer !== 'string' || issuer === '') return said('verify.check.noIssuer');
  if (!isObject(credential.credentialSubject) && !Array.isArray(credential.credentialSubject))
    return said('verify.check.noSubject');
  if (credential.proof === undefined) return said('verify.check.noProof');
  return null;
}

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

function validityWindow(credential: Json, now: Date): { outcome: 'ok' | 'expired' | 'early'; said: Said } {
  const from = str(credential.validFrom) ?? str(credential.issuanceDate);
  const until = str(credential.validUntil) ?? str(credential.expirationDate);
  const skew = MAX_CLOCK_SKEW_SECONDS * 1000;
  if (from && Date.parse(from) - skew > now.getTime())
    return { outcome: 'early', said: said('verify.check.validOnlyFrom', { date: day(from) }) };
  if (until && Date.parse(until) + skew < now.getTime())
    return { outcome: 'expired', said: said('verify.check.expiredOn', { date: day(until) }) };
  const ok = (w: Said) => ({ outcome: 'ok' as const, said: w });
  if (from && until) return ok(said('verify.check.validFromUntil', { from: day(from), until: day(until) }));
  if (from) return ok(said('verify.check.validFrom', { from: day(from) }));
  if (until) return ok(said('verify.check.validUntil', { until: day(until) }));
  return ok(said('verify.check.validAlways'));
}

/** The report as it is built: the checks so far, and what is known of the issuer. */
class Report {
  readonly checks: Check[] = [];
  /** Whether the issuer's DID is the local issuer's, and whether every proof by its keys held. */
  readonly state = { own: false, confirmed: false };
  constructor(
    readonly input: unknown,
    readonly local: LocalIssuer | undefined,
    readonly now: Date,
  ) {}

  add(id: CheckId, outcome: CheckOutcome, words: Said, problems?: Said[]) {
    const { message, ...coded } = words;
    this.checks.push({
      id,
      label: LABELS[id],
      outcome,
      detail: message,
      ...coded,
      ...(problems ? { problems: problems.map(({ message: _, ...p }) => p) } : {}),
    });
  }

  /** The report with `verdict`, its summary said by `summary` (the verdict's own words unless given). */
  done(verdict: Verdict, summary: Said[] = [said(SUMMARIES[verdict])]): VerificationReport {
    for (const id of CHECK_IDS)
      if (!this.checks.some((c) => c.id === id)) this.add(id, 'skipped', said('verify.check.skipped'));
    this.checks.sort((a, b) => CHECK_IDS.indexOf(a.id) - CHECK_IDS.indexOf(b.id));
    const { state, local } = this;
    const credential = isObject(this.input) ? this.input : null;
    const issuerValue =
      credential && (isObject(credential.issuer) ? credential.issuer : { id: credential.issuer });
    const issuerId = issuerValue ? str(issuerValue.id) : null;
    const issuerName = issuerValue ? str(issuerValue.name) : null;
    const parts = [...summary];
    if (state.confirmed && !state.own && local) {
      const named = usesName(issuerName, local.name) && issuerName;
      parts.push(
        named
          ? said('verify.summary.foreignNamed', {
              issuer: String(issuerId),
              name: named,
              local: local.called,
            })
          : said('verify.summary.foreign', { issuer: String(issuerId), local: local.called }),
      );
    }
    return {
      verdict,
      summary: parts.map((p) => p.message).join(' '),
      summaryParts: parts.map(({ message: _, ...p }) => p),
      checks: this.checks,
      issuer: {
        id: issuerId,
        name: issuerName,
        isThisServer: state.own && state.confirmed,
        confirmed: state.confirmed,
        statement: issuerStatement(issuerId, issuerName, state, local),
      },
      credential: credential ? summarise(credential) : null,
      checkedAt: this.now.toISOString(),
    };
  }
}

/** 2. The Open Badges 3.0 data model (a warning only: other credentials are verified too). */
function checkOpenBadge(credential: Json, report: Report) {
  if (!claimsOpenBadge(credential)) {
    report.add('open-badge', 'skipped', said('verify.check.notOpenBadge'));
    return;
  }
  const problems = openBadgeFindings(credential);
  if (problems.length === 0) report.add('open-badge', 'passed', said('verify.check.openBadge'));
  else
    report.add(
      'open-badge',
      'warning',
      said('verify.check.openBadgeProblems', { problems: problems.map((p) => p.message).join('; ') }),
      problems,
    );
}

/** 3a. Every proof is one this verifier checks, and not too many: else the report, malformed. */
function checkProofKinds(proofs: unknown[], report: Report): VerificationReport | null {
  if (!proofs.some(SUPPORTED)) {
    const kinds = proofs
      .filter(isObject)
      .map((p) => [p.type, p.cryptosuite].filter(Boolean).join(' '))
      .join(', ');
    report.add(
      'signature',
      'failed',
      kinds ? said('verify.check.signedWith', { kinds }) : said('verify.check.signedUnknown'),
    );
    return report.done('malformed', [said('verify.summary.signedOtherwise')]);
  }
  // every proof must hold for the credential to be valid: one that cannot be checked is not passed over
  if (proofs.length > MAX_PROOFS) {
    report.add(
      'signature',
      'failed',
      said('verify.check.tooManyProofs', { count: proofs.length, max: MAX_PROOFS }),
    );
    return report.done('malformed', [said('verify.summary.tooManyProofs')]);
  }
  for (const [i, proof] of proofs.entries()) {
    const why = unsupportedProof(proof, { index: i + 1, count: proofs.length });
    if (why) {
      report.add('signature', 'failed', why);
      return report.done('malformed', [said('verify.summary.uncheckableProof')]);
    }
  }
  return null;
}

/** 3b. The issuer: its DID resolves and lists the key every proof was made with. */
async function checkIssuer(
  credential: Json,
  issuerId: string,
  methods: string[],
  deps: VerifierDeps,
  report: Report,
): Promise<{ doc: DidDocument } | { refused: VerificationReport }> {
  const { local, state } = report;
  if (!issuerId.startsWith('did:')) {
    report.add('issuer', 'failed', said('verify.check.issuerNotDid', { issuer: issuerId }));
    return { refused: report.done('unknown-issuer') };
  }
  state.own = issuerId === local?.did || ((await local?.owns?.(issuerId)) ?? false);
  let issuerDoc: DidDocument;
  try {
    issuerDoc = await deps.resolveDid(issuerId);
  } catch (err) {
    report.add(
      'issuer',
      'failed',
      err instanceof DidNotResolved
        ? said('verify.check.didNotResolved', { reason: err.message })
        : said('verify.check.issuerUnresolved', { issuer: issuerId, reason: (err as Error).message }),
    );
    return { refused: report.done('unknown-issuer') };
  }
  const foreign = methods.find((m) => didOf(m) !== issuerId);
  if (foreign) {
    report.add('issuer', 'failed', said('verify.check.foreignKey', { method: foreign, issuer: issuerId }));
    return { refused: report.done('tampered', [said('verify.summary.wrongSigner')]) };
  }
  const unlisted = methods.find(
    (m) => !(verificationMethodOf(issuerDoc, m) && isAssertionMethod(issuerDoc, m)),
  );
  if (unlisted) {
    report.add('issuer', 'failed', said('verify.check.keyNotListed', { issuer: issuerId, method: unlisted }));
    return { refused: report.done('unknown-issuer') };
  }
  const claimed = isObject(credential.issuer) ? str(credential.issuer.name) : null;
  const keys = { issuer: issuerId, methods: methods.join(', ') };
  if (state.own)
    report.add('issuer', 'passed', said('verify.check.issuerOwn', { ...keys, local: local!.called }));
  else if (local && usesName(claimed, local.name))
    report.add(
      'issuer',
      'warning',
      said('verify.check.issuerNameClaim', { ...keys, local: local.called, name: claimed! }),
    );
  else
    report.add(
      'issuer',
      'passed',
      local
        ? said('verify.check.issuerResolvedNotLocal', { ...keys, local: local.called })
        : said('verify.check.issuerResolved', keys),
    );
  return { doc: issuerDoc };
}

/**
 * 4. The signature over the content, every proof of it (checked at a time inside the validity window, so
 * that an expired credential is still told apart from a forged one).
 */
async function checkSignature(
  credential: Json,
  proofs: unknown[],
  issuerDoc: DidDocument,
  at: Date,
  deps: VerifierDeps,
  report: Report,
): Promise<VerificationReport | null> {
  const failed = await failedProof(credential, proofs, issuerDoc, at, deps);
  if (failed) {
    const { index: i, outcome: proof } = failed;
    if (proof.refused && !report.state.own) {
      report.add('signature', 'failed', said('verify.check.contextRefused', { reason: proof.refused }));
      return report.done('malformed', [said('verify.summary.unknownContext')]);
    }
    const which = { index: i + 1, count: proofs.length };
    report.add(
      'signature',
      'failed',
      said('verify.check.proofMismatch', { ...which, reason: proof.refused ?? proof.message ?? '' }),
    );
    return report.done(
      'tampered',
      proofs.length > 1 ? [said('verify.summary.proofMismatch', which)] : undefined,
    );
  }
  report.state.confirmed = true;
  report.add(
    'signature',
    'passed',
    proofs.length > 1
      ? said('verify.check.proofsMatch', { count: proofs.length })
      : said('verify.check.proofMatches'),
  );
  return null;
}

/** When the signature is checked: inside the validity window, so an expired credential is still authentic. */
function signedAt(credential: Json, window: ReturnType<typeof validityWindow>, now: Date): Date {
  const from = str(credential.validFrom) ?? str(credential.issuanceDate);
  const until = str(credential.validUntil) ?? str(credential.expirationDate);
  if (window.outcome === 'early' && from) return new Date(from);
  if (window.outcome === 'expired' && until) return new Date(until);
  return now;
}

/** Verifies one credential (a parsed JSON value). Never throws: every problem is in the report. */
export async function verifyCredential(input: unknown, deps: VerifierDeps): Promise<VerificationReport> {
  const now = deps.now?.() ?? new Date();
  const report = new Report(input, deps.local, now);

  // 1. a Verifiable Credential at all
  const problem = formatProblem(input);
  if (problem) {
    report.add('format', 'failed', problem);
    return report.done('malformed', [said('verify.summary.notVc'), problem]);
  }
  const credential = input as Json;
  const v2 = asList(credential['@context'])[0] === VC_V2_CONTEXT;
  report.add(
    'format',
    'passed',
    said('verify.check.isVc', { version: v2 ? '2.0' : '1.1', types: asList(credential.type).join(', ') }),
  );
  checkOpenBadge(credential, report);

  // 3. the issuer: its DID resolves and lists the key every proof was made with
  const issuerId = (isObject(credential.issuer) ? credential.issuer.id : credential.issuer) as string;
  const proofs = asList(credential.proof);
  const refusedProofs = checkProofKinds(proofs, report);
  if (refusedProofs) return refusedProofs;
  const issuer = await checkIssuer(
    credential,
    issuerId,
    proofs.map((p) => methodOf(p)!),
    deps,
    report,
  );
  if ('refused' in issuer) return issuer.refused;
  const issuerDoc = issuer.doc;

  // 4. the signature
  const window = validityWindow(credential, now);
  const signature = await checkSignature(
    credential,
    proofs,
    issuerDoc,
    signedAt(credential, window, now),
    deps,
    report,
  );
  if (signature) return signature;

  // 5. validity dates
  report.add('dates', window.outcome === 'ok' ? 'passed' : 'failed', window.said);

  // 6. revocation
  const status = await checkStatus(credential, issuerId, issuerDoc, deps, now);
  report.add('status', status.outcome, status.said);
  if (status.revoked) return report.done('revoked');
  if (window.outcome === 'expired') return report.done('expired');
  if (window.outcome === 'early') return report.done('not-yet-valid');
  if (status.outcome === 'warning') return report.done('valid', [said('verify.summary.statusUnknown')]);
  return report.done('valid');
}
