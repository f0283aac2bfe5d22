/**
 * The domain's DNS TXT proof against a real resolver (decision 047): Node's `dns.promises.Resolver`, pointed
 * by the DNS_SERVERS setting at a DNS server of our own on 127.0.0.1 (server/test/dns-server.ts, written from
 * RFC 1035), through the real HTTP call: proved, a wrong value, no record (NXDOMAIN, and a name without TXT),
 * a record in two character-strings, and a server that does not answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DnsServer } from '../../test/dns-server';
import { type SignedIn, setupServer } from '../../test/helper';
import { txtLookup } from './dns';

const dns = new DnsServer();
await dns.start();
const server = setupServer({ env: { DNS_SERVERS: dns.address } });
let tenant: SignedIn;

beforeAll(async () => {
  tenant = await server.signedIn('TENANT', { profile: true });
}, 60_000);
afterAll(() => dns.stop());

async function claim(domain: string) {
  const added = await server.post('/api/tenant/sso/domains', { domain }, tenant.auth);
  expect(added.status, added.text).toBe(201);
  return added.body.data as { _id: string; txtName: string; txtValue: string };
}
const check = (id: string) => server.post(`/api/tenant/sso/domains/${id}/verify`, {}, tenant.auth);

describe('proving a domain by its DNS TXT record', () => {
  it('verifies the domain when the record holds the value, asked of the configured server', async () => {
    const d = await claim(`proved-${process.pid}.example`);
    dns.zone.set(d.txtName, [['v=spf1 -all'], [d.txtValue]]);
    const res = await check(d._id);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'VERIFIED', verifiedBy: 'DNS' });
    expect(dns.asked).toContainEqual({ name: d.txtName, type: 16 });
  });

  it('joins a value split into several character-strings (RFC 1035 §3.3.14)', async () => {
    const d = await claim(`split-${process.pid}.example`);
    dns.zone.set(d.txtName, [[d.txtValue.slice(0, 10), d.txtValue.slice(10)]]);
    expect((await check(d._id)).body.data?.status).toBe('VERIFIED');
  });

  it('refuses a wrong value, a name without TXT records and a name that does not exist', async () => {
    const wrong = await claim(`wrong-${process.pid}.example`);
    dns.zone.set(wrong.txtName, [['waymark-verification=not-this-one']]);
    const empty = await claim(`empty-${process.pid}.example`);
    dns.zone.set(empty.txtName, []);
    const missing = await claim(`missing-${process.pid}.example`);
    for (const d of [wrong, empty, missing]) {
      const res = await check(d._id);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ errorCode: 'TXT_NOT_FOUND', field: 'domain' });
      expect(res.body.message).toContain(d.txtValue);
    }
  });

  it('says DNS did not answer, not that the record is wrong, when the server is silent', async () => {
    const slow = await claim(`silent-${process.pid}.example`);
    dns.silent.add(slow.txtName);
    const res = await check(slow._id);
    expect(res.status).toBe(503);
    expect(res.body.errorCode).toBe('DNS_UNAVAILABLE');
    // the resolver itself, with a short timeout: the same answer, soon
    const started = Date.now();
    expect(await txtLookup([dns.address], { timeoutMs: 200, tries: 1 })(slow.txtName)).toBe('UNAVAILABLE');
    expect(Date.now() - started).toBeLessThan(2000);
  }, 30_000);
});
