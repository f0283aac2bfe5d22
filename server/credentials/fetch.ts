/**
 * Reading another issuer's DID document or status list over the network, for the verifier: HTTPS only
 * (plain HTTP only for loopback hosts, which only a development server uses), no redirects, 5 s, 256 KB, and
 * never to a private, loopback or link-local address (checked when the connection is made, so a DNS answer
 * cannot point the server at its own network). When CREDENTIALS_FETCH is false nothing is fetched and the
 * report says so.
 */
import { lookup } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { Agent, fetch } from 'undici';

export type FetchJson = (url: string) => Promise<unknown>;

const blocked = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['::ffff:0:0', 96],
] as const) {
  blocked.addSubnet(net, bits, 'ipv6');
}

export const isPublicAddress = (address: string) => {
  const family = isIP(address);
  if (!family) return false;
  return !blocked.check(address, family === 6 ? 'ipv6' : 'ipv4');
};

const MAX_BYTES = 256 * 1024;
const TIMEOUT_MS = 5000;

const publicOnly = new Agent({
  connect: {
    timeout: TIMEOUT_MS,
    lookup(hostname, options, callback) {
      lookup(hostname, { ...options, all: true }, (err, addresses) => {
        if (err) return callback(err, '', 0);
        const list = addresses as { address: string; family: number }[];
        const bad = list.find((a) => !isPublicAddress(a.address));
        if (bad || list.length === 0) {
          return callback(new Error(`${hostname} is not a public address`), '', 0);
        }
        if ((options as { all?: boolean }).all)
          return (callback as (e: null, a: typeof list) => void)(null, list);
        callback(null, list[0]!.address, list[0]!.family);
      });
    },
  },
});

/** JSON from another issuer's server, within the limits above. */
export const fetchPublicJson: FetchJson = async (url) => {
  const target = new URL(url);
  if (target.protocol !== 'https:') throw new Error(`only https addresses are read (${url})`);
  const res = await fetch(target, {
    dispatcher: publicOnly,
    redirect: 'manual',
    signal: AbortSignal.timeout(TIMEOUT_MS),
    headers: { accept: 'application/did+json, application/vc+ld+json, application/json' },
  });
  if (res.status !== 200) throw new Error(`${target.host} answered ${res.status}`);
  const declared = Number(res.headers.get('content-length') ?? 0);
  if (declared > MAX_BYTES) throw new Error(`${target.host} sent more than ${MAX_BYTES / 1024} KB`);
  const body = await res.arrayBuffer();
  if (body.byteLength > MAX_BYTES) throw new Error(`${target.host} sent more than ${MAX_BYTES / 1024} KB`);
  try {
    return JSON.parse(new TextDecoder().decode(body));
  } catch {
    throw new Error(`${target.host} did not send JSON`);
  }
};
