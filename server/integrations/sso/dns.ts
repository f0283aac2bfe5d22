/**
 * Reading a domain's TXT records for its proof (decision 047): Node's own stub resolver (c-ares), asking the
 * servers the DNS_SERVERS setting names, or the system's. A name that does not exist (NXDOMAIN) or has no
 * TXT record is "no record"; a server that does not answer in time or fails is "DNS unavailable", so the
 * person is told to try again rather than that the record is wrong.
 */
import { Resolver } from 'node:dns/promises';

export type TxtLookup = (name: string) => Promise<string[][] | 'UNAVAILABLE'>;

/** Codes of node:dns for an answer that says there is nothing (RFC 1035 §4.1.1 RCODE 3, or no TXT RR). */
const NOTHING = new Set(['ENOTFOUND', 'ENODATA']);

export function txtLookup(servers: readonly string[], options: { timeoutMs?: number; tries?: number } = {}) {
  const lookup: TxtLookup = async (name) => {
    const resolver = new Resolver({ timeout: options.timeoutMs ?? 2500, tries: options.tries ?? 2 });
    if (servers.length) resolver.setServers([...servers]);
    try {
      return await resolver.resolveTxt(name);
    } catch (err) {
      if (NOTHING.has((err as { code?: string }).code ?? '')) return [];
      return 'UNAVAILABLE';
    }
  };
  return lookup;
}
