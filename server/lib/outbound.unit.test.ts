/**
 * The outbound guard (decision 030): which addresses are refused and in which words, every spelling of a
 * host read as the address it is, nothing sent where it is refused (a real listener on 127.0.0.1 sees no
 * connection), the connection made to the address checked (a second DNS answer is never asked for), no
 * redirects, the deadline, the size cap, and the development allowance — loopback over http only, never
 * in production, never any other private address.
 */
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LOOPBACK_SPELLINGS, type Trap, trapListener } from '../test/fixtures/outbound';
import { addressProblem, checkOutboundUrl, guardedFetch, hostAddress, OutboundRefused } from './outbound';

let trap: Trap;
let tcpPort: number;
/** What the HTTP listener answers, by path; every request it got. */
let http: HttpServer;
let httpPort: number;
const seen: { url: string; host: string }[] = [];

beforeAll(async () => {
  trap = await trapListener();
  tcpPort = trap.port;
  http = createHttpServer((req, res) => {
    seen.push({ url: req.url ?? '', host: req.headers.host ?? '' });
    if (req.url === '/redirect') {
      res.writeHead(302, { location: `http://127.0.0.1:${httpPort}/elsewhere` }).end();
    } else if (req.url === '/big') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('x'.repeat(5000));
    } else if (req.url === '/big-chunked') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('x'.repeat(3000));
      res.end('x'.repeat(3000));
    } else if (req.url === '/silent') {
      // never answers
    } else res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  httpPort = (http.address() as { port: number }).port;
});
afterAll(async () => {
  await trap.close();
  http.closeAllConnections();
  await new Promise<void>((resolve) => http.close(() => resolve()));
});
beforeEach(() => {
  trap.reset();
  seen.length = 0;
});

describe('addressProblem', () => {
  it('passes public unicast addresses, IPv4 and IPv6, and IPv6 that carries a public IPv4', () => {
    for (const a of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808'])
      expect(addressProblem(a), a).toBeNull();
  });

  it('refuses every range that is not public, in words', () => {
    const cases: [string, RegExp][] = [
      ['127.0.0.1', /loopback/],
      ['127.255.0.9', /loopback/],
      ['10.1.2.3', /private/],
      ['172.16.0.1', /private/],
      ['172.31.255.255', /private/],
      ['192.168.1.1', /private/],
      ['100.64.0.1', /carrier-grade NAT/],
      ['169.254.169.254', /link-local/],
      ['0.0.0.0', /unspecified/],
      ['0.1.2.3', /unspecified/],
      ['255.255.255.255', /broadcast/],
      ['224.0.0.1', /multicast/],
      ['192.0.2.10', /documentation/],
      ['198.51.100.7', /documentation/],
      ['203.0.113.9', /documentation/],
      ['198.18.0.1', /reserved/],
      ['240.0.0.1', /reserved/],
      ['192.0.0.8', /reserved/],
      ['::1', /loopback/],
      ['::', /unspecified/],
      ['fe80::1', /link-local/],
      ['fc00::1', /private/],
      ['fd12:3456::1', /private/],
      ['ff02::1', /multicast/],
      ['2001:db8::1', /documentation/],
      ['::ffff:127.0.0.1', /loopback address \(127\.0\.0\.1, IPv4 in IPv6\)/],
      ['::ffff:10.0.0.1', /private/],
      ['::ffff:0:7f00:1', /loopback/],
      ['64:ff9b::7f00:1', /loopback address \(127\.0\.0\.1, through NAT64\)/],
      ['64:ff9b:1::a00:1', /private/],
      ['2002:7f00:1::1', /loopback address \(127\.0\.0\.1, through 6to4\)/],
      ['2002:c0a8:101::1', /private/],
      // Teredo: the server's address, then the client's (stored inverted)
      ['2001:0:a00:1::1', /private address \(10\.0\.0\.1, a Teredo server\)/],
      ['2001:0:808:808:0:0:80ff:fffe', /loopback address \(127\.0\.0\.1, a Teredo client\)/],
      ['::7f00:1', /global unicast/],
      ['fe80::1%eth0', /scoped|link-local/],
      ['not-an-ip', /not an IP/],
    ];
    for (const [address, words] of cases) expect(addressProblem(address), address).toMatch(words);
  });
});

describe('hostAddress', () => {
  it('reads every spelling of an address as the address, and a name as no address', () => {
    const cases: [string, string | null][] = [
      ['127.0.0.1', '127.0.0.1'],
      ['127.0.0.1.', '127.0.0.1'],
      ['2130706433', '127.0.0.1'],
      ['0x7f000001', '127.0.0.1'],
      ['0177.0.0.1', '127.0.0.1'],
      ['127.1', '127.0.0.1'],
      ['0x7f.1', '127.0.0.1'],
      ['[::ffff:127.0.0.1]', '::ffff:127.0.0.1'],
      ['[::1]', '::1'],
      ['example.org', null],
      ['localhost', null],
      ['1e100.net', null],
    ];
    for (const [host, address] of cases) expect(hostAddress(host), host).toBe(address);
  });
});

describe('guardedFetch refuses before connecting', () => {
  const refused = async (url: string, options: Parameters<typeof guardedFetch>[1] = {}) => {
    const err = await guardedFetch(url, options).then(
      () => null,
      (e: Error) => e,
    );
    expect(err, url).toBeInstanceOf(OutboundRefused);
    return err!.message;
  };

  it('every spelling of 127.0.0.1 and IPv4-mapped IPv6, in brackets or with a trailing dot', async () => {
    for (const host of [
      ...LOOPBACK_SPELLINGS,
      '127.0.0.1',
      '0x7f.1',
      '[::ffff:7f00:1]',
      '[::ffff:0:7f00:1]',
      '[64:ff9b::7f00:1]',
    ]) {
      expect(await refused(`https://${host}:${tcpPort}/.well-known/did.json`)).toMatch(
        /not a public address/,
      );
    }
    expect(trap.connections()).toBe(0);
  });

  it('a name that resolves to loopback (the system resolver and /etc/hosts), or to one private address among public ones', async () => {
    for (const host of ['localhost', 'localhost.']) {
      expect(await refused(`https://${host}:${tcpPort}/x`)).toMatch(
        /resolves to (127\.0\.0\.1|::1), a loopback address/,
      );
    }
    const mixed = async () => ['8.8.8.8', '10.0.0.7'];
    expect(await refused(`https://partner.example:${tcpPort}/x`, { resolve: mixed })).toMatch(
      /partner\.example is not a public address: it resolves to 10\.0\.0\.7, a private address/,
    );
    expect(trap.connections()).toBe(0);
  });

  it('anything but https, and an address with a user name', async () => {
    expect(await refused(`http://127.0.0.1:${tcpPort}/x`)).toMatch(/only https/);
    expect(await refused('http://8.8.8.8/x')).toMatch(/only https/);
    expect(await refused('file:///etc/passwd')).toMatch(/only https/);
    expect(await refused('https://user:secret@8.8.8.8/x')).toMatch(/user name or password/);
    expect(await refused('not a url')).toMatch(/not a valid address/);
    expect(trap.connections()).toBe(0);
  });
});

describe('the development allowance (allowLoopbackHttp)', () => {
  const env = process.env.NODE_ENV;
  afterEach(() => {
    process.env.NODE_ENV = env;
  });

  it('reads loopback over http, and connects to the address it checked — a second DNS answer is never asked for', async () => {
    const answers = [['127.0.0.1'], ['192.168.9.9']];
    let asked = 0;
    const rebinding = async () => answers[Math.min(asked++, 1)]!;
    const res = await guardedFetch(`http://rebind.test:${httpPort}/doc`, {
      allowLoopbackHttp: true,
      resolve: rebinding,
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body.toString())).toEqual({ ok: true });
    expect(asked).toBe(1);
    // the name is what was asked for, the checked address is where it went
    expect(seen).toEqual([{ url: '/doc', host: `rebind.test:${httpPort}` }]);
  });

  it('still refuses every other address that is not public, and plain http to a public one', async () => {
    for (const address of ['10.0.0.1', '169.254.169.254', '::ffff:192.168.0.1', 'fd00::1']) {
      await expect(
        checkOutboundUrl('http://inside.test/x', { allowLoopbackHttp: true, resolve: async () => [address] }),
        address,
      ).rejects.toThrow(OutboundRefused);
    }
    await expect(checkOutboundUrl('http://8.8.8.8/x', { allowLoopbackHttp: true })).rejects.toThrow(
      /only https/,
    );
  });

  it('is ignored in production', async () => {
    process.env.NODE_ENV = 'production';
    await expect(
      guardedFetch(`http://127.0.0.1:${httpPort}/doc`, { allowLoopbackHttp: true }),
    ).rejects.toThrow(/only https/);
    await expect(
      guardedFetch(`https://127.0.0.1:${tcpPort}/doc`, { allowLoopbackHttp: true }),
    ).rejects.toThrow(/loopback/);
    expect(seen).toEqual([]);
    expect(trap.connections()).toBe(0);
  });
});

describe('guardedFetch, once connected', () => {
  const local = { allowLoopbackHttp: true };

  it('does not follow a redirect: the 3xx is the answer', async () => {
    const res = await guardedFetch(`http://127.0.0.1:${httpPort}/redirect`, local);
    expect(res.status).toBe(302);
    expect(res.headers.location).toMatch(/\/elsewhere$/);
    expect(seen.map((s) => s.url)).toEqual(['/redirect']);
  });

  it('stops reading past the size cap, declared or not', async () => {
    for (const path of ['/big', '/big-chunked']) {
      await expect(
        guardedFetch(`http://127.0.0.1:${httpPort}${path}`, { ...local, maxBytes: 1024 }),
      ).rejects.toThrow(/sent more than 1 KB/);
    }
  });

  it('keeps only the first keepBytes of a longer answer, without failing it', async () => {
    for (const path of ['/big', '/big-chunked']) {
      const res = await guardedFetch(`http://127.0.0.1:${httpPort}${path}`, {
        ...local,
        maxBytes: 1024,
        keepBytes: 2048,
      });
      expect(res.status).toBe(200);
      expect(res.body.length).toBe(2048);
      expect(res.truncated).toBe(true);
    }
    const short = await guardedFetch(`http://127.0.0.1:${httpPort}/echo`, { ...local, keepBytes: 2048 });
    expect(short.body.toString()).toBe('{"ok":true}');
    expect(short.truncated).toBeUndefined();
  });

  it('gives up at the deadline', async () => {
    const started = Date.now();
    await expect(
      guardedFetch(`http://127.0.0.1:${httpPort}/silent`, { ...local, timeoutMs: 300 }),
    ).rejects.toThrow(/did not answer within 0.3 s/);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('sends the method, headers and body it is given', async () => {
    const res = await guardedFetch(`http://127.0.0.1:${httpPort}/echo`, {
      ...local,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"a":1}',
    });
    expect(res.status).toBe(200);
    expect(seen.map((s) => s.url)).toEqual(['/echo']);
  });
});
