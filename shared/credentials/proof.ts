/**
 * A credential's Data Integrity proofs (eddsa-rdfc-2022): which the verifier can check, and the check itself
 * (RDF canonicalisation and an Ed25519 signature, by Digital Bazaar's libraries) — for ./verify.ts, and for
 * a server's signing threads, which run checkProof off the event loop.
 */

import { DataIntegrityProof } from '@digitalbazaar/data-integrity';
import { cryptosuite } from '@digitalbazaar/eddsa-rdfc-2022-cryptosuite';
import * as vc from '@digitalbazaar/vc';
import { DocumentRefused, documentLoader } from './contexts';
import { type DidDocument, normalisedDidDocument, verificationMethodOf } from './did';
import { isObject } from './ob3';
import type { VerifierDeps } from './verify';
import { type Said, said } from './words';

type Json = Record<string, unknown>;

/** The most proofs a credential may carry: each one is checked (a canonicalisation each). */
export const MAX_PROOFS = 4;

export const MAX_CLOCK_SKEW_SECONDS = 300;

/** The verification method a proof names, or null. */
export function methodOf(proof: unknown): string | null {
  if (!isObject(proof)) return null;
  const m = isObject(proof.verificationMethod) ? proof.verificationMethod.id : proof.verificationMethod;
  return typeof m === 'string' && m !== '' ? m : null;
}

export const SUPPORTED = (p: unknown) =>
  isObject(p) && p.type === 'DataIntegrityProof' && p.cryptosuite === 'eddsa-rdfc-2022';

/** Why a proof cannot be checked at all, or null. */
export function unsupportedProof(proof: unknown, which = { index: 1, count: 1 }): Said | null {
  if (!isObject(proof)) return said('verify.check.proofNotObject', which);
  if (!SUPPORTED(proof)) {
    const kind = [proof.type, proof.cryptosuite].filter((v) => typeof v === 'string').join(' ');
    return kind
      ? said('verify.check.proofKind', { ...which, kind })
      : said('verify.check.proofNoKind', which);
  }
  if (proof.previousProof !== undefined) return said('verify.check.proofChained', which);
  if (!methodOf(proof)) return said('verify.check.proofNoMethod', which);
  return null;
}

/**
 * Checks every proof of a document — each proof of a set signs the document without the others (Data
 * Integrity, proof sets) — and answers the first that does not hold, or null when all do.
 */
export async function failedProof(
  document: Json,
  proofs: unknown[],
  issuerDoc: DidDocument,
  at: Date,
  deps: VerifierDeps,
): Promise<{ index: number; outcome: ProofOutcome } | null> {
  for (const [index, proof] of proofs.entries()) {
    const one = proofs.length === 1 ? document : { ...document, proof };
    const outcome = await (deps.checkProof ?? checkProof)(one, issuerDoc, at);
    if (!outcome.ok) return { index, outcome };
  }
  return null;
}

export interface ProofOutcome {
  ok: boolean;
  refused?: string;
  message?: string;
}

/**
 * Checks the Data Integrity proof of a document issued by `issuerDoc` (RDF canonicalisation and an Ed25519
 * check: CPU work, which a server runs off its event loop through VerifierDeps.checkProof).
 */
export async function checkProof(document: Json, issuerDoc: DidDocument, at: Date): Promise<ProofOutcome> {
  const controller = normalisedDidDocument(issuerDoc);
  const loader = documentLoader(async (url) => {
    if (url.startsWith(`${controller.id}#`)) return verificationMethodOf(controller, url);
    if (url === controller.id) return controller;
    return null;
  });
  try {
    const result = await vc.verifyCredential({
      credential: document,
      suite: new DataIntegrityProof({ cryptosuite }),
      documentLoader: loader,
      // status is checked on its own (./status.ts), so the report can say which step failed
      checkStatus: async () => ({ verified: true }),
      now: at,
      maxClockSkew: MAX_CLOCK_SKEW_SECONDS,
      ...({ controller } as object),
    });
    if (result.verified) return { ok: true };
    const errors = [result.error, ...(result.error?.errors ?? [])].filter(Boolean) as Error[];
    const refused = errors.find((e) => e instanceof DocumentRefused || e.name === 'DocumentRefused');
    if (refused) return { ok: false, refused: refused.message };
    const message = errors.map((e) => e.message).find((m) => m && m !== 'Verification error(s).');
    return { ok: false, message: message ?? 'The signature does not match the content.' };
  } catch (err) {
    if (err instanceof DocumentRefused) return { ok: false, refused: err.message };
    return { ok: false, message: (err as Error).message };
  }
}
