/**
 * Whether a request was made on this machine: for what only the person at the machine may see (the local
 * mailbox of the development setup).
 *
 * - The connection comes from a loopback address (127.0.0.0/8, ::1, or ::ffff:127.x) — the socket's own
 *   peer, never `request.ip`, which with TRUST_PROXY is whatever X-Forwarded-For claims.
 * - No proxy relayed it: a proxy on this machine connects from loopback on behalf of someone else, so any
 *   forwarding header (Forwarded, X-Forwarded-*, X-Real-IP, Via) makes the request a remote one.
 * - The Host it asked for is a loopback name (localhost, *.localhost, 127.x, [::1]): a web page elsewhere
 *   that rebinds its own DNS name to 127.0.0.1 gets its own name in Host and is refused.
 */
import type { FastifyRequest } from 'fastify';

const FORWARDING_HEADERS = ['forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-real-ip', 'via'];

export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const a = address.toLowerCase();
  if (a === '::1') return true;
  const v4 = a.startsWith('::ffff:') ? a.slice(7) : a;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

export function isLoopbackHost(host: string | undefined): boolean {
  if (!host) return false;
  const h = host.toLowerCase();
  const name = h.startsWith('[') ? h.slice(0, h.indexOf(']') + 1) : h.replace(/:\d+$/, '');
  if (name === '[::1]') return true;
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name);
}

export function isLocalRequest(request: FastifyRequest): boolean {
  if (!isLoopbackAddress(request.raw.socket?.remoteAddress)) return false;
  if (FORWARDING_HEADERS.some((h) => request.headers[h] !== undefined)) return false;
  return isLoopbackHost(request.headers.host);
}
