/**
 * DIDs of credential issuers: did:web (W3C CCG did:web method) from and to its HTTPS address, did:key
 * (Ed25519 keys) resolved with Digital Bazaar's did:key driver, and reading a verification method out of a
 * DID document.
 */
import { driver as didKeyDriver } from '@digitalbazaar/did-method-key';
import * as Ed25519Multikey from '@digitalbazaar/ed25519-multikey';
import { DID_V1_CONTEXT, MULTIKEY_V1_CONTEXT } from './contexts';

export interface VerificationMethod {
  id: string;
  type: string;
  controller: string;
  publicKeyMultibase?: string;
  [key: string]: unknown;
}

export interface DidDocument {
  '@context'?: unknown;
  id: string;
  verificationMethod?: VerificationMethod[];
  assertionMethod?: (string | VerificationMethod)[];
  [key: string]: unknown;
}

/** A DID that could not be resolved, with the reason in words. */
export class DidNotResolved extends Error {
  override name = 'DidNotResolved';
}

/** Hosts whose did:web documents are read over plain HTTP: a development server has no TLS. */
const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/**
 * The did:web of a site address: `https://waymark.example` → `did:web:waymark.example`,
 * `http://127.0.0.1:8080` → `did:web:127.0.0.1%3A8080`, `https://example.org/waymark` →
 * `did:web:example.org:waymark`.
 */
export function didWebOf(siteUrl: string): string {
  const url = new URL(siteUrl);
  const host = encodeURIComponent(url.host.toLowerCase());
  const path = url.pathname
    .split('/')
    .filter(Boolean)
    .map((segment) => encodeURIComponent(decodeURIComponent(segment)));
  return ['did:web', host, ...path].join(':');
}

/**
 * Where a did:web's document is: `https://{host}/.well-known/did.json`, or `https://{host}/{path}/did.json`
 * when the DID has a path. Loopback hosts use http (a development server). Throws DidNotResolved for a
 * malformed did:web.
 */
export function didWebDocumentUrl(did: string): string {
  const m = /^did:web:([^:#?/]+)((?::[^:#?/]+)*)$/.exec(did);
  if (!m) throw new DidNotResolved(`${did} is not a valid did:web.`);
  const host = decodeURIComponent(m[1]!);
  const hostname = host.replace(/:\d+$/, '');
  if (!/^[A-Za-z0-9.[\]:-]+$/.test(host)) throw new DidNotResolved(`${did} names an invalid host.`);
  const path = (m[2] ?? '')
    .split(':')
    .filter(Boolean)
    .map((s) => encodeURIComponent(decodeURIComponent(s)));
  const scheme = LOOPBACK.test(hostname) ? 'http' : 'https';
  return `${scheme}://${host}/${path.length ? `${path.join('/')}/did.json` : '.well-known/did.json'}`;
}

let keyDriver: ReturnType<typeof didKeyDriver> | null = null;

/** The DID document of an Ed25519 did:key (`did:key:z6Mk…`). */
export async function resolveDidKey(did: string): Promise<DidDocument> {
  if (!/^did:key:z6Mk[1-9A-HJ-NP-Za-km-z]{40,60}$/.test(did)) {
    throw new DidNotResolved(
      `${did} is not an Ed25519 did:key (did:key:z6Mk…), the kind this verifier reads.`,
    );
  }
  if (!keyDriver) {
    keyDriver = didKeyDriver();
    keyDriver.use({ multibaseMultikeyHeader: 'z6Mk', fromMultibase: Ed25519Multikey.from });
  }
  try {
    return (await keyDriver.get({ did })) as unknown as DidDocument;
  } catch (err) {
    throw new DidNotResolved(`${did} could not be read: ${(err as Error).message}`);
  }
}

/** The DID part of a DID URL: `did:web:x#key-1` → `did:web:x`. */
export const didOf = (didUrl: string) => didUrl.split('#')[0]!.split('?')[0]!;

/** The verification method `id` of a DID document, as a document the libraries can read, or null. */
export function verificationMethodOf(doc: DidDocument, id: string): VerificationMethod | null {
  const all = [
    ...(doc.verificationMethod ?? []),
    ...(doc.assertionMethod ?? []).filter((m): m is VerificationMethod => typeof m === 'object'),
  ];
  const relative = id.startsWith(doc.id) ? id.slice(doc.id.length) : null;
  const found = all.find((m) => m.id === id || (relative !== null && m.id === relative));
  if (!found) return null;
  return {
    '@context': MULTIKEY_V1_CONTEXT,
    ...found,
    id,
    controller: found.controller ?? doc.id,
  } as VerificationMethod;
}

/** Whether the DID document lets `id` make assertions (sign credentials). */
export function isAssertionMethod(doc: DidDocument, id: string): boolean {
  const relative = id.startsWith(doc.id) ? id.slice(doc.id.length) : null;
  return (doc.assertionMethod ?? []).some((m) => {
    const mid = typeof m === 'string' ? m : m.id;
    return mid === id || (relative !== null && mid === relative);
  });
}

/** The DID document the libraries read: with the DID context first, so its terms are read as written. */
export function normalisedDidDocument(doc: DidDocument): DidDocument {
  const ctx = doc['@context'];
  const list = Array.isArray(ctx) ? ctx : ctx ? [ctx] : [];
  if (list[0] === DID_V1_CONTEXT) return doc;
  return { ...doc, '@context': [DID_V1_CONTEXT, ...list.filter((c) => c !== DID_V1_CONTEXT)] };
}
