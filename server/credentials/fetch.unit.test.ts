/**
 * The verifier's reads of other issuers' documents never reach this machine or its network, whatever form
 * the address takes: every spelling of 127.0.0.1 the URL parser accepts (decimal, hex, octal, short), an
 * IPv4-mapped IPv6 address in brackets, a trailing dot, a status list address with an IP literal, and a name
 * that resolves to loopback. A real listener on 127.0.0.1 stands where the request would land; it must see
 * no connection at all (issue 25: the old check ran in the DNS lookup hook, which Node never calls for an
 * IP literal, so all of these but the name reached it).
 */
import { didWebDocumentUrl } from '@shared/credentials/did';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { didWebAt, LOOPBACK_SPELLINGS, type Trap, trapListener } from '../test/fixtures/outbound';
import { fetchPublicJson } from './fetch';

let trap: Trap;
let port: number;

beforeAll(async () => {
  trap = await trapListener();
  port = trap.port;
});
afterAll(() => trap.close());
beforeEach(() => trap.reset());

describe('reading another issuer’s document', () => {
  it('refuses a did:web whose host is any spelling of a loopback address, and connects to nothing', async () => {
    for (const did of LOOPBACK_SPELLINGS.map((host) => didWebAt(host, port))) {
      const url = didWebDocumentUrl(did);
      await expect(fetchPublicJson(url), did).rejects.toThrow(/not a public address|loopback/);
    }
    expect(trap.connections()).toBe(0);
  });

  it('refuses a status list address that is an IP literal, and connects to nothing', async () => {
    for (const url of [
      `https://127.0.0.1:${port}/api/credentials/status/1`,
      `https://[::ffff:7f00:1]:${port}/status`,
      `https://0x7f.1:${port}/status`,
    ]) {
      await expect(fetchPublicJson(url), url).rejects.toThrow(/not a public address|loopback/);
    }
    expect(trap.connections()).toBe(0);
  });

  it('refuses a name that resolves to a loopback address, and connects to nothing', async () => {
    for (const url of [`https://localhost:${port}/x`, `https://localhost.:${port}/x`]) {
      await expect(fetchPublicJson(url), url).rejects.toThrow(/not a public address|loopback/);
    }
    expect(trap.connections()).toBe(0);
  });

  it('reads only https', async () => {
    await expect(fetchPublicJson(`http://127.0.0.1:${port}/x`)).rejects.toThrow(/https/);
    await expect(fetchPublicJson('ftp://example.org/x')).rejects.toThrow(/https/);
    expect(trap.connections()).toBe(0);
  });
});
