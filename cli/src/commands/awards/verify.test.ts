/**
 * `waymark awards verify` says who issued a credential by its DID: "the Waymark at {server}" only when the
 * DID is that server's — its did:web, or a did:key of a key its DID document lists — and a name an issuer
 * gives itself only as that issuer's claim (issue 25: a foreign did:key named "Waymark" printed as
 * "issuer      Waymark did:key:…"). The credentials are signed with the DCC libraries; the "server" is a
 * small site that serves a DID document listing one key.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signForeign } from '@server/credentials/foreign.fixture';
import { didWebOf } from '@shared/credentials/did';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWaymark } from '../../../test/harness';
import { createHttp } from '../../core/http';
import { SessionStore } from '../../core/session';

const dir = mkdtempSync(join(tmpdir(), 'waymark-verify-issuer-'));
const http = createHttp();
let site: Server;
let server = '';
let ownKey: Awaited<ReturnType<typeof signForeign>>;

beforeAll(async () => {
  ownKey = await signForeign('key', { name: 'Waymark' });
  site = createServer((req, res) => {
    if (req.url !== '/.well-known/did.json') return void res.writeHead(404).end();
    const did = didWebOf(server);
    const id = `${did}#${ownKey.key.publicKeyMultibase}`;
    res.writeHead(200, { 'content-type': 'application/did+json' }).end(
      JSON.stringify({
        '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/multikey/v1'],
        id: did,
        verificationMethod: [
          { id, type: 'Multikey', controller: did, publicKeyMultibase: ownKey.key.publicKeyMultibase },
        ],
        assertionMethod: [id],
      }),
    );
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  server = `http://127.0.0.1:${(site.address() as { port: number }).port}`;
});
afterAll(async () => {
  await http.close();
  await new Promise((r) => site.close(r));
  rmSync(dir, { recursive: true, force: true });
});

const verify = async (credential: unknown, json = false) => {
  const file = join(dir, `${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(credential));
  return runWaymark(['--server', server, json ? '--json' : '--no-json', 'awards', 'verify', file], {
    sessions: new SessionStore(join(dir, 'session.json')),
    http,
  });
};

describe('waymark awards verify: who issued it', () => {
  it('prints a foreign did:key that calls itself "Waymark" by its DID, not as the Waymark it works with', async () => {
    const impostor = await signForeign('key', { name: 'Waymark' });
    const text = await verify(impostor.credential);
    expect(text.code, text.err).toBe(0);
    expect(text.out).toContain(
      `  issuer      Issued by ${impostor.did}, which calls itself “Waymark” — not by the Waymark at ${server}.`,
    );
    expect(text.out).toMatch(/warning\s+Issuer: .* it is not the Waymark at/);
    const json = await verify(impostor.credential, true);
    expect(json.events[0].issuer).toMatchObject({ id: impostor.did, name: 'Waymark', isThisServer: false });
  });

  it('says in plain words until when a credential is valid, or when it expired', async () => {
    const lasting = await signForeign('key', { extra: { validUntil: '2099-03-03T10:00:00Z' } });
    const valid = await verify(lasting.credential);
    expect(valid.code, valid.err).toBe(0);
    expect(valid.out).toContain('  validity    Valid until 3rd Mar 2099');
    const ended = await signForeign('key', { extra: { validUntil: '2021-03-03T10:00:00Z' } });
    const expired = await verify(ended.credential);
    expect(expired.out).toContain('  validity    Expired on 3rd Mar 2021');
    expect(expired.code).not.toBe(0);
    const forever = await verify((await signForeign('key')).credential);
    expect(forever.out).toContain('  validity    Valid with no end date');
  });

  it('prints a did:key of a key the server lists as that Waymark', async () => {
    const text = await verify(ownKey.credential);
    expect(text.code, text.err).toBe(0);
    expect(text.out).toContain(`  issuer      Issued by the Waymark at ${server} (${ownKey.did}).`);
    const json = await verify(ownKey.credential, true);
    expect(json.events[0].issuer).toMatchObject({ id: ownKey.did, isThisServer: true, confirmed: true });
  });
});
