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
  detail: string;
  revoked: boolean;
}

export async function checkStatus(
  credential: Json,
  issuerId: string,
  issuerDoc: DidDocument,
  deps: VerifierDeps,
  now: Date,
): Promise<StatusOutcome> {
  const entries = asList(credential.credentialStatus).filter(isObject);
  if (entries.length === 0) {
    return {
      outcome: 'passed',
      detail: 'It has no status list: its issuer cannot revoke it.',
      revoked: false,
    };
  }
  const bitstring = entries.filter((e) => e.type === 'BitstringStatusListEntry');
  if (bitstring.length === 0) {
    const types = entries.map((e) => String(e.type)).join(', ');
    return {
      outcome: 'warning',
      detail: `Its status (${types}) is of a kind this verifier does not read.`,
      revoked: false,
    };
  }
  const details: string[] = [];
  for (const entry of bitstring) {
    const url = str(entry.statusListCredential);
    const index = Number.parseInt(String(entry.statusListIndex), 10);
    const purpose = str(entry.statusPurpose) ?? 'revocation';
    if (!url || !Number.isInteger(index) || index < 0) {
      return {
        outcome: 'failed',
        detail: 'Its status entry has no status list address or index.',
        revoked: false,
      };
    }
    let loaded: StatusListLoad;
    try {
      loaded = await deps.loadStatusList(url);
    } catch (err) {
      return {
        outcome: 'warning',
        detail: `Its status list ${url} could not be read (${(err as Error).message}).`,
        revoked: false,
      };
    }
    const list = loaded.credential;
    if (!isObject(list) || !asList(list.type).includes('BitstringStatusListCredential')) {
      return {
        outcome: 'warning',
        detail: `${url} is not a Bitstring Status List credential.`,
        revoked: false,
      };
    }
    const listIssuer = isObject(list.issuer) ? list.issuer.id : list.issuer;
    if (listIssuer !== issuerId) {
      return {
        outcome: 'failed',
        detail: `The status list ${url} was issued by someone else (${String(listIssuer)}).`,
        revoked: false,
      };
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
          return {
            outcome: 'failed',
            detail: `The status list ${url} is not signed by the issuer.`,
            revoked: false,
          };
        }
        if (verifiedLists.size > 500) verifiedLists.clear();
        verifiedLists.set(key, Date.now() + LIST_TRUST_MS);
      }
    }
    const subject = isObject(list.credentialSubject) ? list.credentialSubject : {};
    if (str(subject.statusPurpose) !== purpose) {
      return {
        outcome: 'failed',
        detail: `The status list ${url} is for ${String(subject.statusPurpose)}, not ${purpose}.`,
        revoked: false,
      };
    }
    let bits: Awaited<ReturnType<typeof decodeList>>;
    try {
      bits = await decodedOf(list, String(subject.encodedList));
    } catch {
      return { outcome: 'failed', detail: `The status list ${url} cannot be decoded.`, revoked: false };
    }
    if (index >= bits.length) {
      return {
        outcome: 'failed',
        detail: `Its index ${index} is beyond the status list's ${bits.length} entries.`,
        revoked: false,
      };
    }
    if (bits.getStatus(index)) {
      const word = purpose === 'suspension' ? 'suspended' : 'revoked';
      return {
        outcome: 'failed',
        detail: `Marked ${word} in the issuer's status list (${url}, entry ${index}, read from ${loaded.source}).`,
        revoked: true,
      };
    }
    details.push(
      `Not ${purpose === 'suspension' ? 'suspended' : 'revoked'}: entry ${index} of ${url} is clear (read from ${loaded.source}).`,
    );
  }
  return { outcome: 'passed', detail: details.join(' '), revoked: false };
}
