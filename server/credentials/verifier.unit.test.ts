/**
 * The shared verifier cannot be fooled by a name or by a proof beside a good one (issue 25): a credential
 * signed by someone else's did:key that calls its issuer "Waymark" is reported as that did:key, "not by
 * this Waymark", with a warning on the issuer check; only this Waymark's DID — or a did:key of a key it
 * lists — is "this Waymark"; and every proof on a credential must hold for it to be valid. The credentials
 * are signed with the Digital Credentials Consortium's libraries (foreign.fixture.ts), which also confirm
 * that the first proof of the two-proof credential holds on its own and the second does not.
 */
// @ts-nocheck the DCC packages ship no types
import { DataIntegrityProof } from '@digitalcredentials/data-integrity';
import { cryptosuite } from '@digitalcredentials/eddsa-rdfc-2022-cryptosuite';
import { securityLoader } from '@digitalcredentials/security-document-loader';
import * as dccVc from '@digitalcredentials/vc';
import { resolveDidKey } from '@shared/credentials/did';
import { MAX_PROOFS } from '@shared/credentials/proof';
import { type LocalIssuer, verifyCredential } from '@shared/credentials/verify';
import { describe, expect, it } from 'vitest';
import { signForeign } from './foreign.fixture';

const THIS_WAYMARK: LocalIssuer = {
  did: 'did:web:waymark.example',
  name: 'Waymark',
  called: 'this Waymark',
};

const verify = (credential: unknown, local: LocalIssuer = THIS_WAYMARK) =>
  verifyCredential(credential, {
    resolveDid: resolveDidKey,
    loadStatusList: async () => {
      throw new Error('no status list here');
    },
    local,
  });

const check = (report: Awaited<ReturnType<typeof verify>>, id: string) =>
  report.checks.find((c) => c.id === id)!;

/** The DCC verifier's verdict on a did:key credential (its own JSON-LD processor and canonicalisation). */
async function dccVerified(signed: Awaited<ReturnType<typeof signForeign>>, credential: unknown) {
  const loader = securityLoader({ fetchRemoteContexts: false });
  loader.addStatic(signed.did, signed.didDocument);
  const method = signed.didDocument.verificationMethod[0];
  loader.addStatic(method.id, { '@context': 'https://w3id.org/security/multikey/v1', ...method });
  const result = await dccVc.verifyCredential({
    credential,
    suite: new DataIntegrityProof({ cryptosuite }),
    documentLoader: loader.build(),
  });
  return result.verified === true;
}

describe('who issued it', () => {
  it('shows a foreign did:key that calls itself "Waymark" as itself, not as this Waymark', async () => {
    const signed = await signForeign('key', { name: 'Waymark' });
    const report = await verify(signed.credential);
    // authentic: it is what its issuer signed
    expect(report.verdict).toBe('valid');
    expect(report.issuer).toEqual({
      id: signed.did,
      name: 'Waymark',
      isThisServer: false,
      confirmed: true,
      statement: `Issued by ${signed.did}, which calls itself “Waymark” — not by this Waymark.`,
    });
    expect(report.summary).toMatch(
      new RegExp(`It was issued by ${signed.did}, which calls itself “Waymark”, not by this Waymark\\.$`),
    );
    expect(check(report, 'issuer')).toMatchObject({ outcome: 'warning' });
    expect(check(report, 'issuer').detail).toMatch(
      /it is not this Waymark: it calls itself “Waymark”, and that name is only its own claim/,
    );
    // any spelling of the name
    const shouted = await verify((await signForeign('key', { name: 'WAYMARK  Academy' })).credential);
    expect(check(shouted, 'issuer').outcome).toBe('warning');
  });

  it('names another issuer by its DID, its name only as its own', async () => {
    const signed = await signForeign('key');
    const report = await verify(signed.credential);
    expect(report.issuer).toMatchObject({ isThisServer: false, confirmed: true, name: 'Partner Academy' });
    expect(report.issuer.statement).toBe(
      `Issued by ${signed.did}, which calls itself “Partner Academy” — not by this Waymark.`,
    );
    expect(check(report, 'issuer').outcome).toBe('passed');
  });

  it('is this Waymark for a did:key of a key it lists, and only when the proof holds', async () => {
    const signed = await signForeign('key', { name: 'Waymark' });
    const local = { ...THIS_WAYMARK, owns: async (did: string) => did === signed.did };
    const report = await verify(signed.credential, local);
    expect(report.issuer).toMatchObject({ isThisServer: true, confirmed: true });
    expect(report.issuer.statement).toBe(`Issued by this Waymark (${signed.did}).`);
    expect(check(report, 'issuer')).toMatchObject({ outcome: 'passed' });

    // the same DID on content that was altered: named, never confirmed
    const altered = await verify({ ...signed.credential, name: 'Something else' }, local);
    expect(altered.verdict).toBe('tampered');
    expect(altered.issuer).toMatchObject({ isThisServer: false, confirmed: false });
    expect(altered.issuer.statement).toMatch(
      /names this Waymark .* as its issuer, but its proof does not confirm/,
    );
  });
});

describe('every proof must hold', () => {
  it('a garbage second proof beside a valid one: not valid, saying which', async () => {
    const signed = await signForeign('key');
    const good = signed.credential.proof;
    const value: string = good.proofValue;
    const garbage = {
      ...good,
      proofValue: `${value.slice(0, -6)}${value.slice(-6) === 'zzzzzz' ? 'yyyyyy' : 'zzzzzz'}`,
    };
    const twoProofs = { ...signed.credential, proof: [good, garbage] };
    // the independent library: the first holds on its own, the second does not
    expect(await dccVerified(signed, { ...signed.credential, proof: good })).toBe(true);
    expect(await dccVerified(signed, { ...signed.credential, proof: garbage })).toBe(false);

    const report = await verify(twoProofs);
    expect(report.verdict).toBe('tampered');
    expect(report.summary).toMatch(/carries 2 proofs and proof 2 does not match its content/);
    expect(check(report, 'signature')).toMatchObject({ outcome: 'failed' });
    expect(check(report, 'signature').detail).toMatch(
      /^The Data Integrity proof 2 of 2 does not match the content/,
    );
    expect(report.issuer).toMatchObject({ confirmed: false, isThisServer: false });

    // the order does not matter
    expect((await verify({ ...signed.credential, proof: [garbage, good] })).verdict).toBe('tampered');
  });

  it('a second proof that cannot be checked (another kind, not an object, chained): not valid, saying why', async () => {
    const signed = await signForeign('key');
    const good = signed.credential.proof;
    const cases: [unknown, RegExp][] = [
      [
        { type: 'Ed25519Signature2020', proofValue: 'z3FXQ' },
        /proof 2 of 2 is a proof of the kind Ed25519Signature2020, which this verifier does not check/,
      ],
      ['garbage', /proof 2 of 2 is not a proof object/],
      [{ ...good, previousProof: 'urn:uuid:1' }, /proof 2 of 2 is chained to an earlier proof/],
      [{ ...good, verificationMethod: undefined }, /proof 2 of 2 names no verification method/],
    ];
    for (const [second, words] of cases) {
      const report = await verify({ ...signed.credential, proof: [good, second] });
      expect(report.verdict, String(words)).toBe('malformed');
      expect(check(report, 'signature').detail).toMatch(words);
      expect(report.summary).toMatch(
        /carries a proof this verifier cannot check, so it cannot be called valid/,
      );
    }
    const many = Array.from({ length: MAX_PROOFS + 1 }, () => good);
    expect(check(await verify({ ...signed.credential, proof: many }), 'signature').detail).toMatch(
      new RegExp(`carries ${MAX_PROOFS + 1} proofs; this verifier checks at most ${MAX_PROOFS}`),
    );
  });

  it('two proofs that both hold: valid', async () => {
    const first = await signForeign('key');
    const again = await signForeign('key', { secretKeyMultibase: first.key.secretKeyMultibase });
    expect(again.did).toBe(first.did);
    const report = await verify({
      ...first.credential,
      proof: [first.credential.proof, again.credential.proof],
    });
    expect(report.verdict).toBe('valid');
    expect(check(report, 'signature').detail).toMatch(/^All 2 Data Integrity proofs/);
  });
});
