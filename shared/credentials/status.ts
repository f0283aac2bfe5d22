/**
 * A credential's status, checked against its issuer's Bitstring Status List (W3C Bitstring Status List v1.0):
 * the list must be the issuer's and signed by it (./proof.ts), and the credential's entry must be clear.
 * How a list is fetched is up to the caller (VerifierDeps.loadStatusList).
 */

import { decodeList } from '@digitalbazaar/vc-bitstring-status-list';
import type { DidDocument } from './did';
import { asList, isObject, str } from './ob3';
import { failedProof, MAX_PROOFS, unsupportedProof } from './proof';
import type { CheckOutcome, VerifierDeps } from './verify';
import { type Said, said } from './words';

type Json = Record<string, unknown>;

/** A status list credential as its issuer serves it. */
export interface StatusListLoad {
  credential: unknown;
  /** Where it came from, in words ('this server', 'https://…'). */
  source: string;
  /** True when the caller already trusts it (its own list, read from its own database). */
  trusted?: boolean;
}

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Status list credentials whose signature was checked, by the hash of their JSON, for a short while. */
const verifiedLists = new Map<string, number>();
const LIST_TRUST_MS = 30_000;

/**
 * Decoded bitstrings by the status list document they came from: a server hands the verifier the same
 * cached list object for every credential it verifies in a while, and inflating its 16 KB each time was
 * repeated work on every verification. A list fetched anew is a new object, decoded anew.
 */
const decodedLists = new WeakMap<object, ReturnType<typeof decodeList>>();

function decodedOf(list: object, encodedList: string): ReturnType<typeof decodeList> {
  let bits = decodedLists.get(list);
  if (!bits) {
    bits = decodeList({ encodedList });
    decodedLists.set(list, bits);
  }
  return bits;
}

interface StatusOutcome {
  outcome: CheckOutcome;
  said: Said;
  revoked: boolean;
}

const notRevoked = (outcome: CheckOutcome, words: Said): StatusOutcome => ({
  outcome,
  said: words,
  revoked: false,
});

export async function checkStatus(
  credential: Json,
  issuerId: string,
  issuerDoc: DidDocument,
  deps: VerifierDeps,
  now: Date,
): Promise<StatusOutcome> {
  const entries = asList(credential.credentialStatus).filter(isObject);
  if (entries.length === 0) {
    return notRevoked('passed', said('verify.check.noStatusList'));
  }
  const bitstring = entries.filter((e) => e.type === 'BitstringStatusListEntry');
  if (bitstring.length === 0) {
    const types = entries.map((e) => String(e.type)).join(', ');
    return notRevoked('warning', said('verify.check.statusKind', { types }));
  }
  const details: Said[] = [];
  for (const entry of bitstring) {
    const url = str(entry.statusListCredential);
    const index = Number.parseInt(String(entry.statusListIndex), 10);
    const purpose = str(entry.statusPurpose) ?? 'revocation';
    if (!url || !Number.isInteger(index) || index < 0) {
      return notRevoked('failed', said('verify.check.statusNoAddress'));
    }
    let loaded: StatusListLoad;
    try {
      loaded = await deps.loadStatusList(url);
    } catch (err) {
      return notRevoked(
        'warning',
        said('verify.check.statusUnread', { url, reason: (err as Error).message }),
      );
    }
    const list = loaded.credential;
    if (!isObject(list) || !asList(list.type).includes('BitstringStatusListCredential')) {
      return notRevoked('warning', said('verify.check.notStatusList', { url }));
    }
    const listIssuer = isObject(list.issuer) ? list.issuer.id : list.issuer;
    if (listIssuer !== issuerId) {
      return notRevoked(
        'failed',
        said('verify.check.statusOtherIssuer', { url, issuer: String(listIssuer) }),
      );
    }
    if (!loaded.trusted) {
      const key = await sha256(JSON.stringify(list));
      const until = verifiedLists.get(key);
      if (!until || until < Date.now()) {
        const proofs = asList(list.proof);
        const unsigned =
          proofs.length === 0 ||
          proofs.length > MAX_PROOFS ||
          proofs.some((p) => unsupportedProof(p) !== null) ||
          (await failedProof(list, proofs, issuerDoc, now, deps)) !== null;
        if (unsigned) {
          return notRevoked('failed', said('verify.check.statusUnsigned', { url }));
        }
        if (verifiedLists.size > 500) verifiedLists.clear();
        verifiedLists.set(key, Date.now() + LIST_TRUST_MS);
      }
    }
    const subject = isObject(list.credentialSubject) ? list.credentialSubject : {};
    if (str(subject.statusPurpose) !== purpose) {
      return notRevoked(
        'failed',
        said('verify.check.statusPurpose', {
          url,
          purpose: String(subject.statusPurpose),
          expected: purpose,
        }),
      );
    }
    let bits: Awaited<ReturnType<typeof decodeList>>;
    try {
      bits = await decodedOf(list, String(subject.encodedList));
    } catch {
      return notRevoked('failed', said('verify.check.statusUndecodable', { url }));
    }
    if (index >= bits.length) {
      return notRevoked('failed', said('verify.check.statusBeyond', { index, size: bits.length }));
    }
    if (bits.getStatus(index)) {
      const marked = said('verify.check.statusMarked', { purpose, url, index, source: loaded.source });
      return { outcome: 'failed', said: marked, revoked: true };
    }
    details.push(said('verify.check.statusClear', { purpose, url, index, source: loaded.source }));
  }
  // several entries are said by the first's code, their English joined
  return notRevoked('passed', { ...details[0]!, message: details.map((d) => d.message).join(' ') });
}
