/**
 * The one way the server makes a request to an address someone else gave it (another issuer's DID document
 * or status list today; webhooks, LTI platforms and learning record stores later): it can never be pointed
 * at this machine or the network it sits in (decision 030).
 *
 * 1. The URL is parsed as a browser parses it (WHATWG), which already turns every spelling of an IPv4
 *    address into its dotted form (`2130706433`, `0x7f000001`, `0177.0.0.1`, `127.1`, `127.0.0.1.` are all
 *    127.0.0.1); brackets and a trailing dot are taken off the host, and a host that is still a number in
 *    another spelling is read as the address it names. Only https (plain http: see `allowLoopbackHttp`),
 *    and no user name or password in the URL.
 * 2. The host is an IP address, or a name resolved here (every address it resolves to). Every one of them
 *    must be a public unicast address: not loopback, private (RFC 1918, IPv6 unique local), link-local,
 *    carrier-grade NAT, multicast, broadcast, unspecified, documentation, benchmarking or otherwise reserved
 *    — and an IPv6 address that carries an IPv4 one (IPv4-mapped, NAT64, 6to4, Teredo) is judged by that
 *    IPv4 address. One address that is not public refuses the whole name.
 * 3. The connection is made to the address that was checked, never to the name (the name goes only into
 *    the Host header and TLS's server name, so the certificate is still checked against it): no second DNS
 *    answer comes between the check and the connection, so DNS rebinding cannot reach inside.
 * 4. Redirects are not followed (a 3xx is answered as it is), the whole exchange has a deadline, the body a
 *    size cap (no compression is asked for, so none can inflate past it).
 */
import { lookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** A request the guard will not make (the address is not public, or not https); nothing was sent. */
export class OutboundRefused extends Error {
  override name = 'OutboundRefused';
}

/** The addresses a name resolves to (tests give their own; by default the system's resolver, as a connection would use). */
type Resolve = (hostname: string) => Promise<string[]>;

export interface OutboundOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** The deadline of the whole exchange, connection to last byte (default 5 s). */
  timeoutMs?: number;
  /** The most bytes of body read; more fails the request (default 256 KB). */
  maxBytes?: number;
  /**
   * Keep only the answer's first `keepBytes` and stop reading there, instead of failing a larger answer
   * (a webhook's receiver: its status is the answer, its body only shown). The connection is then closed.
   */
  keepBytes?: number;
  /**
   * Development only: also plain http, and loopback addresses (127.0.0.0/8, ::1) — never any other
   * address that is not public, and never when NODE_ENV is production, whatever the caller asks.
   */
  allowLoopbackHttp?: boolean;
  signal?: AbortSignal;
  resolve?: Resolve;
}

export interface OutboundResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The body is the first `keepBytes` of a longer one. */
  truncated?: boolean;
}

/** Where a request may go: the URL, and the one checked address the connection is made to. */
export interface CheckedTarget {
  url: URL;
  /** The host as a name ('' when the URL names an IP address). */
  name: string;
  address: string;
}

const DEFAULT_TIMEOUT_MS = 5000;
const DEFAULT_MAX_BYTES = 256 * 1024;

const systemResolve: Resolve = async (hostname) =>
  (await lookup(hostname, { all: true, order: 'verbatim' })).map((a) => a.address);

/** The words for an ipaddr.js range name. */
const RANGE_WORDS: Record<string, string> = {
  unspecified: 'an unspecified address',
  broadcast: 'the broadcast address',
  multicast: 'a multicast address',
  linkLocal: 'a link-local address',
  loopback: 'a loopback address',
  carrierGradeNat: 'a carrier-grade NAT address',
  private: 'a private address',
  uniqueLocal: 'a private (unique local) address',
  reserved: 'a reserved or documentation address',
  benchmarking: 'a benchmarking address',
  as112: 'an AS112 address',
  as112v6: 'an AS112 address',
  amt: 'an AMT relay address',
  deprecatedSiteLocal: 'a site-local address',
  discard: 'a discard-only address',
  orchid2: 'an ORCHID address',
  deprecatedOrchid: 'an ORCHID address',
  droneRemoteIdProtocolEntityTags: 'a drone identifier address',
  segmentRouting: 'a segment-routing address',
};

/** 2000::/3, the only IPv6 addresses routed on the internet. */
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');

function ipv4At(parts: number[], first: number): ipaddr.IPv4 {
  const [hi, lo] = [parts[first]!, parts[first + 1]!];
  return new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
}

/**
 * Why an IP address is not one the server may connect to, in words ('a loopback address'), or null when it
 * is a public unicast address. `loopbackAllowed`: loopback addresses pass (the development allowance).
 */
export function addressProblem(address: string, loopbackAllowed = false): string | null {
  let ip: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    ip = ipaddr.parse(address);
  } catch {
    return 'not an IP address';
  }
  if (ip.kind() === 'ipv4') {
    const range = (ip as ipaddr.IPv4).range();
    if (range === 'unicast') return null;
    if (range === 'loopback' && loopbackAllowed) return null;
    return RANGE_WORDS[range] ?? `a special-purpose address (${range})`;
  }
  const v6 = ip as ipaddr.IPv6;
  if (v6.zoneId) return 'a scoped (link-local) address';
  const range = v6.range();
  const embedded = (v4: ipaddr.IPv4, how: string) => {
    const problem = addressProblem(v4.toString(), loopbackAllowed);
    return problem ? `${problem} (${v4.toString()}, ${how})` : null;
  };
  switch (range) {
    case 'ipv4Mapped':
    case 'rfc6145':
    case 'rfc6052':
      // ::ffff:a.b.c.d, ::ffff:0:a.b.c.d, 64:ff9b::a.b.c.d (NAT64): the last 32 bits
      return embedded(ipv4At(v6.parts, 6), range === 'rfc6052' ? 'through NAT64' : 'IPv4 in IPv6');
    case '6to4':
      // 2002:AABB:CCDD::/48
      return embedded(ipv4At(v6.parts, 1), 'through 6to4');
    case 'teredo': {
      // 2001:0:SSSS:SSSS:…:CCCC:CCCC, the client's address inverted
      const server = embedded(ipv4At(v6.parts, 2), 'a Teredo server');
      if (server) return server;
      const client = ipv4At(
        v6.parts.map((p, i) => (i >= 6 ? p ^ 0xffff : p)),
        6,
      );
      return embedded(client, 'a Teredo client');
    }
    case 'loopback':
      return loopbackAllowed ? null : RANGE_WORDS.loopback!;
    case 'unicast':
      return v6.match(GLOBAL_UNICAST_V6)
        ? null
        : 'an address outside the global unicast range (IPv4-compatible or unassigned)';
    default:
      return RANGE_WORDS[range] ?? `a special-purpose address (${range})`;
  }
}

/** A host as an IP address when it is one in any spelling (brackets, a trailing dot, 0x7f.1), else null. */
export function hostAddress(hostname: string): string | null {
  let host = hostname.toLowerCase();
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  host = host.replace(/\.+$/, '');
  if (isIP(host)) return host;
  // the legacy IPv4 spellings (one to four parts, decimal, 0x hex or 0 octal) the WHATWG parser and
  // inet_aton read as an address; a URL has them in dotted form already, this is for any other caller
  if (/^(0x[0-9a-f]*|[0-9]+)(\.(0x[0-9a-f]*|[0-9]+)){0,3}$/.test(host)) {
    try {
      const parsed = new URL(`http://${host}/`).hostname;
      if (isIP(parsed) === 4) return parsed;
    } catch {
      // not a number in any spelling: a name
    }
  }
  return null;
}

const productionNever = (allow: boolean | undefined) =>
  allow === true && process.env.NODE_ENV !== 'production';

/**
 * Checks where a request to `input` would go, resolving a name: the URL and the one address to connect to,
 * or OutboundRefused saying why not. Nothing is sent.
 */
export async function checkOutboundUrl(
  input: string | URL,
  options: Pick<OutboundOptions, 'allowLoopbackHttp' | 'resolve'> = {},
): Promise<CheckedTarget> {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new OutboundRefused(`${String(input)} is not a valid address`);
  }
  const loopbackAllowed = productionNever(options.allowLoopbackHttp);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopbackAllowed)) {
    throw new OutboundRefused(`only https addresses are read (${url.href})`);
  }
  if (url.username || url.password) {
    throw new OutboundRefused(`${url.host}: an address with a user name or password is not read`);
  }
  const literal = hostAddress(url.hostname);
  const name = literal ? '' : url.hostname.replace(/\.+$/, '');
  let addresses: string[];
  if (literal) addresses = [literal];
  else {
    try {
      addresses = await (options.resolve ?? systemResolve)(name);
    } catch (err) {
      throw new Error(
        `${name} could not be resolved (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
      );
    }
    if (addresses.length === 0) throw new Error(`${name} could not be resolved (no address)`);
  }
  for (const address of addresses) {
    const problem = addressProblem(address, loopbackAllowed);
    if (problem) {
      throw new OutboundRefused(
        `${url.hostname} is not a public address: ${literal ? '' : `it resolves to ${address}, `}${problem}`,
      );
    }
  }
  const address = addresses[0]!;
  if (url.protocol === 'http:' && addressProblem(address, false) === null) {
    // the allowance is plain http to this machine only; a public address is read over https
    throw new OutboundRefused(`only https addresses are read (${url.href})`);
  }
  return { url, name, address: address.startsWith('::ffff:') ? ipaddr.process(address).toString() : address };
}

/**
 * A request to an address someone else gave us, within the guard above: its status, headers and body.
 * Throws OutboundRefused when it may not be made, and an Error when it fails (no answer, the deadline,
 * a body over `maxBytes`).
 */
export async function guardedFetch(
  input: string | URL,
  options: OutboundOptions = {},
): Promise<OutboundResponse> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const deadline = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
  const late = () => new Error(`${String(input)} did not answer within ${timeoutMs / 1000} s`);
  // the deadline covers resolving the name too
  const target = await new Promise<CheckedTarget>((resolve, reject) => {
    const abort = () => reject(deadline.aborted ? late() : signal.reason);
    if (signal.aborted) return abort();
    signal.addEventListener('abort', abort, { once: true });
    checkOutboundUrl(input, options)
      .then(resolve, reject)
      .finally(() => signal.removeEventListener('abort', abort));
  });
  const { url } = target;
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<OutboundResponse>((resolve, reject) => {
    const failed = (err: Error) => reject(deadline.aborted ? late() : err);
    const tooLarge = () => {
      req.destroy();
      reject(new Error(`${url.host} sent more than ${maxBytes / 1024} KB`));
    };
    const req = send({
      // the checked address, never the name: nothing is looked up again (the pinning)
      host: target.address,
      port: url.port || (url.protocol === 'https:' ? 443 : 80),
      path: `${url.pathname}${url.search}`,
      method: options.method ?? 'GET',
      // TLS is checked against the name (or the address, when the URL names one)
      ...(target.name ? { servername: target.name } : {}),
      headers: { ...options.headers, host: url.host },
      agent: false,
      signal,
    });
    req.on('error', failed);
    req.on('response', (res) => {
      res.on('error', failed);
      const keep = options.keepBytes;
      if (keep === undefined && Number(res.headers['content-length'] ?? 0) > maxBytes) return tooLarge();
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        if (keep !== undefined) {
          chunks.push(chunk.subarray(0, Math.max(0, keep - size)));
          size += chunk.length;
          if (size <= keep) return;
          // enough is read: the rest is not wanted
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
            truncated: true,
          });
          req.destroy();
          return;
        }
        size += chunk.length;
        if (size > maxBytes) return tooLarge();
        chunks.push(chunk);
      });
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.end(options.body);
  });
}
