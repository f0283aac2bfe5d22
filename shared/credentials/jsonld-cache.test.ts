/**
 * jsonld.js as Waymark runs it carries a patch (patches/jsonld+9.0.0.patch, docs/decisions/024): an active
 * context is never changed once made, so a type-scoped context's non-propagating copy and the context a
 * node reverts to are shared instead of deep-copied each time — and the processed contexts cached on them
 * are found again. Unpatched, every verification of an Open Badge processed its type-scoped contexts anew
 * and left them in a cache that nothing would hit, the retained copies made the young-generation
 * collections slow, and one verification in eight took 20–50 ms instead of 4 (upstream
 * digitalbazaar/jsonld.js#414).
 *
 * The patch must not change what any document means. Each document below is canonicalised (RDFC-1.0, what
 * eddsa-rdfc-2022 signs) by the patched jsonld and by the same release left unpatched — the Digital
 * Credentials Consortium's copy, @digitalcredentials/jsonld 9.0.0, which the independent verifier in the
 * server's tests also uses — cold, warm, and interleaved with the others, and the N-Quads must be equal.
 * The documents are written from the specifications: JSON-LD 1.1 §4.1.8 (scoped contexts, @propagate,
 * @protected, a null context), the VC Data Model 2.0 with Open Badges 3.0, a DID document, a Bitstring
 * Status List credential.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import example from '../contract/examples/credentials/getCredential.json';
import { documentLoader } from './contexts';

const require = createRequire(import.meta.url);
type Canonize = (doc: unknown, options: Record<string, unknown>) => Promise<string>;
const patched = require('jsonld') as { canonize: Canonize };
const unpatched = require('@digitalcredentials/jsonld') as { canonize: Canonize };
const ResolvedContext = require('jsonld/lib/ResolvedContext.js') as {
  prototype: { getProcessed(ctx: unknown): unknown };
};

const loader = documentLoader();
const canonize = (jsonld: { canonize: Canonize }, doc: unknown) =>
  jsonld.canonize(structuredClone(doc), {
    // RDFC-1.0 under the name both releases know it by
    algorithm: 'URDNA2015',
    format: 'application/n-quads',
    documentLoader: loader,
    safe: true,
  });

/** Waymark's own credential as GET /api/credentials/{id} answers it, without its proof. */
const { proof: _proof, ...waymarkCredential } = example.response.body as Record<string, unknown>;

const DOCUMENTS: Record<string, unknown> = {
  'an Open Badge from Waymark': waymarkCredential,
  'an Open Badge with nested typed nodes (issuer, achievement, results, evidence, alignment)': {
    '@context': [
      'https://www.w3.org/ns/credentials/v2',
      'https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json',
    ],
    id: 'urn:uuid:91537dba-56cb-11ec-bf63-0242ac130002',
    type: ['VerifiableCredential', 'OpenBadgeCredential'],
    name: 'Teamwork Badge',
    issuer: {
      id: 'https://example.com/issuers/876543',
      type: ['Profile'],
      name: 'Example Corp',
      image: { id: 'https://example.com/logo.png', type: 'Image', caption: 'Example Corp' },
    },
    validFrom: '2025-01-01T00:00:00Z',
    validUntil: '2030-01-01T00:00:00Z',
    credentialSubject: {
      id: 'did:example:ebfeb1f712ebc6f1c276e12ec21',
      type: ['AchievementSubject'],
      identifier: [
        {
          type: 'IdentityObject',
          hashed: true,
          identityHash: 'sha256$28d4b7a5d5a4a2e5b0f6a1b7c2c7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5',
          identityType: 'emailAddress',
          salt: 'not-a-real-salt',
        },
      ],
      achievement: {
        id: 'https://example.com/achievements/21st-century-skills/teamwork',
        type: ['Achievement'],
        achievementType: 'Badge',
        name: 'Teamwork',
        description: 'This badge recognizes the development of the capacity to collaborate within a group.',
        criteria: { narrative: 'Team members are nominated for this badge by their peers.' },
        alignment: [
          {
            type: ['Alignment'],
            targetName: 'Collaboration',
            targetUrl: 'https://example.com/frameworks/collaboration',
            targetType: 'CFItem',
          },
        ],
        resultDescription: [
          {
            id: 'urn:uuid:f6ab24cd-86e8-4eaf-b8c6-ded74e8fd41c',
            type: ['ResultDescription'],
            name: 'Score',
            resultType: 'ScaledScore',
            valueMin: '0',
            valueMax: '100',
          },
        ],
      },
      result: [
        {
          type: ['Result'],
          resultDescription: 'urn:uuid:f6ab24cd-86e8-4eaf-b8c6-ded74e8fd41c',
          value: '88',
        },
      ],
    },
    evidence: [
      {
        id: 'https://example.com/evidence/1',
        type: ['Evidence'],
        name: 'Project report',
        narrative: 'The team project report.',
      },
    ],
    credentialStatus: {
      id: 'https://example.com/credentials/status/3#94567',
      type: 'BitstringStatusListEntry',
      statusPurpose: 'revocation',
      statusListIndex: '94567',
      statusListCredential: 'https://example.com/credentials/status/3',
    },
  },
  'a Bitstring Status List credential': {
    '@context': ['https://www.w3.org/ns/credentials/v2'],
    id: 'https://example.com/credentials/status/3',
    type: ['VerifiableCredential', 'BitstringStatusListCredential'],
    issuer: 'did:example:12345',
    validFrom: '2021-04-05T14:27:40Z',
    credentialSubject: {
      id: 'https://example.com/status/3#list',
      type: 'BitstringStatusList',
      statusPurpose: 'revocation',
      encodedList: 'uH4sIAAAAAAAAA-3BMQEAAADCoPVPbQwfoAAAAAAAAAAAAAAAAAAAAIC3AYbSVKsAQAAA',
    },
  },
  'a DID document with a Multikey': {
    '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/multikey/v1'],
    id: 'did:web:waymark.example.com',
    verificationMethod: [
      {
        id: 'did:web:waymark.example.com#key-1',
        type: 'Multikey',
        controller: 'did:web:waymark.example.com',
        publicKeyMultibase: 'z6MktNjx86T5bhnJLrc8Ti3h9ZCtvpJzGvMFRZuE6Mx5YqVv',
      },
    ],
    assertionMethod: ['did:web:waymark.example.com#key-1'],
  },
  // JSON-LD 1.1 §4.1.8: a type-scoped context applies to the node of that type only (it does not
  // propagate), a property-scoped one to everything under the property; @propagate changes that
  'type-scoped and property-scoped contexts, @propagate and a null context': {
    '@context': {
      '@version': 1.1,
      '@vocab': 'http://vocab.example/',
      Person: {
        '@id': 'http://schema.org/Person',
        '@context': { name: 'http://schema.org/name', knows: { '@id': 'http://schema.org/knows' } },
      },
      Place: {
        '@id': 'http://schema.org/Place',
        '@context': { '@propagate': true, name: 'http://schema.org/placeName' },
      },
      Reset: { '@id': 'http://vocab.example/Reset', '@context': null },
      interest: {
        '@id': 'http://xmlns.com/foaf/0.1/interest',
        '@context': { '@vocab': 'http://xmlns.com/foaf/0.1/' },
      },
    },
    '@graph': [
      {
        '@type': 'Person',
        name: 'Manu',
        knows: { '@type': 'Person', name: 'Dave', knows: { name: 'outside the scope' } },
        interest: { '@id': 'http://example.org/jsonld', title: 'JSON-LD', topic: 'Linked Data' },
        home: { '@type': 'Place', name: 'Blacksburg', near: { name: 'propagated' } },
      },
      { '@type': 'Reset', 'http://vocab.example/name': 'after a null context' },
      { '@type': ['Place', 'Person'], name: 'two types at once' },
    ],
  },
  // §4.1.11: a protected term may be redefined by a property-scoped context only
  '@protected terms redefined under a property': {
    '@context': {
      '@version': 1.1,
      '@protected': true,
      Thing: { '@id': 'http://example.com/Thing', '@context': { note: 'http://example.com/thingNote' } },
      label: 'http://www.w3.org/2000/01/rdf-schema#label',
      part: {
        '@id': 'http://example.com/part',
        '@context': { label: 'http://example.com/partLabel' },
      },
    },
    '@id': 'http://example.com/a',
    label: 'outer',
    part: {
      '@id': 'http://example.com/b',
      '@type': 'Thing',
      label: 'inner',
      note: 'typed',
      part: { '@id': 'http://example.com/c', label: 'innermost' },
    },
  },
};

describe('jsonld.js with the shared active contexts', () => {
  it.each(Object.entries(DOCUMENTS))('%s: the same N-Quads as unpatched, cold and warm', async (_, doc) => {
    const expected = await canonize(unpatched, doc);
    expect(expected.length).toBeGreaterThan(0);
    for (let i = 0; i < 3; i++) expect(await canonize(patched, doc)).toBe(expected);
  });

  it('the same N-Quads with every document canonicalised in turn, twice over, and all at once', async () => {
    const docs = Object.values(DOCUMENTS);
    const expected = await Promise.all(docs.map((d) => canonize(unpatched, d)));
    for (let round = 0; round < 2; round++)
      for (const [i, d] of docs.entries()) expect(await canonize(patched, d)).toBe(expected[i]);
    expect(await Promise.all([...docs, ...docs].map((d) => canonize(patched, d)))).toEqual([
      ...expected,
      ...expected,
    ]);
  });

  it("processes an Open Badge's contexts once: a second canonicalisation finds every one in cache", async () => {
    await canonize(patched, waymarkCredential);
    const original = ResolvedContext.prototype.getProcessed;
    let misses = 0;
    ResolvedContext.prototype.getProcessed = function (ctx: unknown) {
      const found = original.call(this, ctx);
      if (!found) misses++;
      return found;
    };
    try {
      await canonize(patched, waymarkCredential);
    } finally {
      ResolvedContext.prototype.getProcessed = original;
    }
    expect(misses).toBe(0);
  });
});
