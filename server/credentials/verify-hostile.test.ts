/**
 * POST /api/credentials/verify (anonymous) against hostile input, through the real server and its real
 * network reads (no stand-in for the other site): an issuer's did:web or a status list address that spells
 * this machine in any way the URL parser accepts is refused before any connection — a listener on
 * 127.0.0.1 sees none — and a credential nested thousands deep is a 400 naming the limit, never a 500
 * (issue 25).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { didWebAt, LOOPBACK_SPELLINGS, type Trap, trapListener } from '../test/fixtures/outbound';
import { BACKENDS } from '../test/harness';
import { type Json, TestServer } from '../test/helper';
import { signForeign } from './foreign.fixture';

for (const backend of BACKENDS) {
  describe(`verifying hostile credentials on ${backend}`, () => {
    let server: TestServer;
    let trap: Trap;
    let port: number;

    const verify = (credential: unknown) =>
      server.app.inject({ method: 'POST', url: '/api/credentials/verify', payload: { credential } });
    const check = (report: Json, id: string) => report.checks.find((c: { id: string }) => c.id === id);

    beforeAll(async () => {
      // the real reader of other issuers' documents: no fetchJson stand-in
      server = await new TestServer().start();
      trap = await trapListener();
      port = trap.port;
    }, 120_000);

    afterAll(async () => {
      await trap?.close();
      await server?.close();
    });

    beforeEach(() => trap.reset());

    it('refuses a did:web issuer that is this machine in any spelling, and connects to nothing', async () => {
      const { credential } = await signForeign('key');
      const key = (credential.proof.verificationMethod as string).split('#')[1];
      // and a name the system resolves to 127.0.0.1 (/etc/hosts)
      const dids = [...LOOPBACK_SPELLINGS, 'localhost.'].map((host) => didWebAt(host, port));
      for (const did of dids) {
        const moved = {
          ...credential,
          issuer: { ...credential.issuer, id: did },
          proof: { ...credential.proof, verificationMethod: `${did}#${key}` },
        };
        const res = await verify(moved);
        expect(res.statusCode, did).toBe(200);
        const report = res.json().data;
        expect(report.verdict, did).toBe('unknown-issuer');
        expect(check(report, 'issuer').detail, did).toMatch(/is not a public address: .*loopback address/);
      }
      expect(trap.connections()).toBe(0);
    });

    it('refuses a status list at an IP literal of this machine, and connects to nothing', async () => {
      for (const url of [`https://127.0.0.1:${port}/status/1`, `https://0x7f000001:${port}/status/1`]) {
        const { credential } = await signForeign('key', {
          extra: {
            credentialStatus: {
              id: `${url}#5`,
              type: 'BitstringStatusListEntry',
              statusPurpose: 'revocation',
              statusListIndex: '5',
              statusListCredential: url,
            },
          },
        });
        const report = (await verify(credential)).json().data;
        // authentic, but whether it was revoked could not be read
        expect(check(report, 'signature').outcome, url).toBe('passed');
        expect(check(report, 'status'), url).toMatchObject({ outcome: 'warning' });
        expect(check(report, 'status').detail, url).toMatch(
          /could not be read \(127\.0\.0\.1 is not a public address/,
        );
      }
      expect(trap.connections()).toBe(0);
    });

    it('answers a credential nested 6,000 levels deep with a 400 naming the limit, as an object or as text', async () => {
      const { credential } = await signForeign('key');
      // the text is written as such: JSON.stringify itself cannot go that deep
      const deep = `${'{"nested":'.repeat(6000)}{"end":true}${'}'.repeat(6000)}`;
      const text = JSON.stringify({
        ...credential,
        credentialSubject: { ...credential.credentialSubject, deep: 'DEEP' },
      }).replace('"DEEP"', deep);

      const asObject = await server.app.inject({
        method: 'POST',
        url: '/api/credentials/verify',
        headers: { 'content-type': 'application/json' },
        payload: `{"credential":${text}}`,
      });
      expect(asObject.statusCode).toBe(400);
      expect(asObject.json()).toMatchObject({
        message: 'The request body nests deeper than 64 levels',
        field: 'body',
      });

      // as text the body is shallow: the credential's own text is read with the same bound
      const asText = await verify(text);
      expect(asText.statusCode).toBe(200);
      expect(asText.json().data).toMatchObject({ verdict: 'malformed' });
      expect(asText.json().data.summary).toMatch(/nests deeper than 64 levels/);

      // as deep as any real credential and then some: read and verified as usual
      let fine: Json = { end: true };
      for (let i = 0; i < 40; i++) fine = { nested: fine };
      const res = await verify({
        ...credential,
        credentialSubject: { ...credential.credentialSubject, fine },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().data.verdict).toBe('tampered');
    });
  });
}
