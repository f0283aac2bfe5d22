/**
 * The independent verifier of the tests: the Digital Credentials Consortium's libraries (their fork of the
 * JSON-LD processor and RDF canonicalisation, their eddsa-rdfc-2022 cryptosuite, their Bitstring Status
 * List and document loader with its own bundled contexts) — none of the code Waymark issues with. The DID
 * document and status lists are read from the server under test over HTTP (inject).
 */
// @ts-nocheck the DCC packages ship no types
import { DataIntegrityProof } from '@digitalcredentials/data-integrity';
import { cryptosuite } from '@digitalcredentials/eddsa-rdfc-2022-cryptosuite';
import { securityLoader } from '@digitalcredentials/security-document-loader';
import * as dccVc from '@digitalcredentials/vc';
import { checkStatus } from '@digitalcredentials/vc-bitstring-status-list';
import type { FastifyInstance } from 'fastify';

export interface IndependentResult {
  verified: boolean;
  revoked: boolean | null;
  errors: string[];
}

/** Verifies a credential with the DCC libraries, reading the issuer's documents from `app`. */
export async function verifyIndependently(
  app: FastifyInstance,
  credential: unknown,
): Promise<IndependentResult> {
  const didDoc = (await app.inject({ method: 'GET', url: '/.well-known/did.json' })).json();
  const loader = securityLoader({ fetchRemoteContexts: false });
  loader.addStatic(didDoc.id, didDoc);
  for (const vm of didDoc.verificationMethod) {
    loader.addStatic(vm.id, { '@context': 'https://w3id.org/security/multikey/v1', ...vm });
  }
  const base = loader.build();
  const documentLoader = async (url: string) => {
    const path = url.startsWith('http') ? new URL(url).pathname : null;
    if (path?.startsWith('/api/credentials/status/')) {
      const res = await app.inject({ method: 'GET', url: path });
      return { contextUrl: null, documentUrl: url, document: res.json() };
    }
    return base(url);
  };
  const suite = new DataIntegrityProof({ cryptosuite });
  const result = await dccVc.verifyCredential({
    credential,
    suite,
    documentLoader,
    checkStatus: (options) => checkStatus({ ...options, verifyMatchingIssuers: true }),
  });
  const errors = [
    result.error,
    ...(result.error?.errors ?? []),
    ...(result.results ?? []).map((r) => r.error),
  ]
    .filter(Boolean)
    .map((e) => e.message);
  // the DCC library marks an entry whose bit is set as not verified
  const statuses = result.statusResult?.results;
  return {
    verified: result.verified === true,
    revoked: statuses ? statuses.some((s) => s.verified === false) : null,
    errors,
  };
}
