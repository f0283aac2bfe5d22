/**
 * Credentials of other issuers for the verifier's tests, signed with the Digital Credentials Consortium's
 * libraries (not the ones Waymark issues with): an Open Badge from a did:key, and one from the did:web of
 * another site (partner.example), written from the OB 3.0 data model.
 */
// @ts-nocheck the DCC packages ship no types
import { DataIntegrityProof } from '@digitalcredentials/data-integrity';
import * as Ed25519Multikey from '@digitalcredentials/ed25519-multikey';
import { cryptosuite } from '@digitalcredentials/eddsa-rdfc-2022-cryptosuite';
import { securityLoader } from '@digitalcredentials/security-document-loader';
import * as dccVc from '@digitalcredentials/vc';
import * as base58 from 'base58-universal';

export interface ForeignOptions {
  /** The issuer's name in the credential (default 'Partner Academy'). */
  name?: string;
  /** Properties added to the credential before it is signed (a credentialStatus, …). */
  extra?: Record<string, unknown>;
  /** Sign with this key (a secretKeyMultibase) instead of a new one. */
  secretKeyMultibase?: string;
}

export async function signForeign(method: 'key' | 'web', options: ForeignOptions = {}) {
  // a secretKeyMultibase holds the multicodec header (2 bytes) and then the 32-byte seed
  const key = await Ed25519Multikey.generate(
    options.secretKeyMultibase
      ? { seed: base58.decode(options.secretKeyMultibase.slice(1)).slice(2, 34) }
      : {},
  );
  const did = method === 'key' ? `did:key:${key.publicKeyMultibase}` : 'did:web:partner.example';
  key.controller = did;
  key.id = `${did}#${key.publicKeyMultibase}`;
  const method0 = {
    id: key.id,
    type: 'Multikey',
    controller: did,
    publicKeyMultibase: key.publicKeyMultibase,
  };
  const didDocument = {
    '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/multikey/v1'],
    id: did,
    verificationMethod: [method0],
    assertionMethod: [key.id],
  };
  const loader = securityLoader({ fetchRemoteContexts: false });
  loader.addStatic(did, didDocument);
  loader.addStatic(key.id, { '@context': 'https://w3id.org/security/multikey/v1', ...method0 });
  const credential = {
    '@context': [
      'https://www.w3.org/ns/credentials/v2',
      'https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json',
    ],
    id: 'urn:uuid:2f1b6a44-9f0e-4d8b-8c1e-6b1f4f6c2a10',
    type: ['VerifiableCredential', 'OpenBadgeCredential'],
    name: 'Partner Workshop Badge',
    issuer: { id: did, type: ['Profile'], name: options.name ?? 'Partner Academy' },
    validFrom: '2025-06-01T09:00:00Z',
    credentialSubject: {
      type: ['AchievementSubject'],
      identifier: [
        { type: 'IdentityObject', hashed: false, identityHash: 'Rae Reader', identityType: 'name' },
      ],
      achievement: {
        id: 'urn:uuid:0b6c5a1e-1d7f-4e0a-9a5b-3f2d1c0e9b8a',
        type: ['Achievement'],
        name: 'Workshop',
        description: 'Attended the partner workshop.',
        criteria: { narrative: 'Attend every session.' },
      },
    },
    ...options.extra,
  };
  const suite = new DataIntegrityProof({ signer: key.signer(), cryptosuite });
  const signed = await dccVc.issue({ credential, suite, documentLoader: loader.build() });
  return { did, didDocument, credential: signed, key };
}
