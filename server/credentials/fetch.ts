/**
 * Reading another issuer's DID document or status list over the network, for the verifier: through the
 * outbound guard (server/lib/outbound.ts — https only, public addresses only whatever the address's
 * spelling, connected to the address checked, no redirects), 5 s, 256 KB, JSON no deeper than 64 levels.
 * No development allowance: this server's own DID and status lists are read from its keys and database,
 * never over the network. When CREDENTIALS_FETCH is false nothing is fetched and the report says so.
 */
import { type DidDocument, DidNotResolved, didWebDocumentUrl } from '@shared/credentials/did';
import { jsonTextTooDeep, TOO_DEEP } from '@shared/schemas/json-depth';
import { guardedFetch } from '../lib/outbound';

export type FetchJson = (url: string) => Promise<unknown>;

const MAX_BYTES = 256 * 1024;
const TIMEOUT_MS = 5000;

/** JSON from another issuer's server, within the limits above. */
export const fetchPublicJson: FetchJson = async (url) => {
  const res = await guardedFetch(url, {
    timeoutMs: TIMEOUT_MS,
    maxBytes: MAX_BYTES,
    headers: { accept: 'application/did+json, application/vc+ld+json, application/json' },
  });
  const { host } = new URL(url);
  if (res.status !== 200) throw new Error(`${host} answered ${res.status}`);
  const text = new TextDecoder().decode(res.body);
  if (jsonTextTooDeep(text)) throw new Error(`${host} sent JSON that ${TOO_DEEP}`);
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`${host} did not send JSON`);
  }
};

/**
 * Another site's did:web document, fetched with `fetchJson` (null when CREDENTIALS_FETCH is false) and
 * checked to be the document of `did`; DidNotResolved says why it could not be.
 */
export async function fetchDidWebDocument(did: string, fetchJson: FetchJson | null): Promise<DidDocument> {
  const url = didWebDocumentUrl(did);
  if (!fetchJson) {
    throw new DidNotResolved(
      `${did} is another site's DID; this server is set not to fetch other issuers' documents (CREDENTIALS_FETCH=false), so its key cannot be looked up.`,
    );
  }
  let doc: unknown;
  try {
    doc = await fetchJson(url);
  } catch (err) {
    throw new DidNotResolved(
      `${did} could not be resolved: fetching ${url} failed (${(err as Error).message}).`,
    );
  }
  if (!doc || typeof doc !== 'object' || (doc as DidDocument).id !== did) {
    throw new DidNotResolved(`${url} is not the DID document of ${did}.`);
  }
  return doc as DidDocument;
}
