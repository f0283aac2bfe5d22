/**
 * The security headers of every response (Content-Security-Policy, the cross-origin policies, nosniff, …):
 * for the portal's pages and files, worked out once at start with helmet and then set on each response as a
 * fixed list; for the API's answers, a short fixed list of its own (API_HEADERS).
 *
 * Why not @fastify/helmet: it calls `helmet(options)` again for every request, re-parsing and re-validating
 * the whole policy each time — 9 % of the server's CPU on a cached public read (bench/credentials.ts
 * --profile, 2026-11-25). None of our headers depends on the request (no CSP nonces), so the policy is
 * built once here and each response only copies the strings. HSTS is the one header that depends on the
 * request: it is sent only for a site served over TLS (see below).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';
import { bucketBase } from '../adapters/storage';
import type { Config } from '../config';
import { isApiPath } from './routes';

type Header = readonly [name: string, value: string];

/** The headers helmet sets for these options, collected once. */
export function helmetHeaders(options: Parameters<typeof helmet>[0]): Header[] {
  const headers = new Map<string, string>();
  const response = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers.set(name.toLowerCase(), Array.isArray(value) ? value.join(', ') : String(value));
    },
    removeHeader(name: string) {
      headers.delete(name.toLowerCase());
    },
    getHeader(name: string) {
      return headers.get(name.toLowerCase());
    },
  };
  let failure: unknown = null;
  // helmet's middlewares run synchronously and read nothing of the request for a static policy
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, (err?: unknown) => {
    failure = err ?? null;
  });
  if (failure) throw failure;
  return [...headers];
}

/** Waymark's policy: scripts and styles of its own, the Firebase sign-in, uploads straight to the bucket. */
export function securityPolicy(config: Config): Parameters<typeof helmet>[0] {
  const emulatorOrigin = config.firebase.emulatorHost ? `http://${config.firebase.emulatorHost}` : null;
  return {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", 'https://apis.google.com', 'https://www.gstatic.com'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
        mediaSrc: ["'self'", 'https:', 'data:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: [
          "'self'",
          'https://*.googleapis.com',
          ...(emulatorOrigin ? [emulatorOrigin] : []),
          // award and question images are uploaded by the browser straight to the bucket
          ...(config.storage.s3 ? [new URL(bucketBase(config.storage.s3)).origin] : []),
        ],
        frameSrc: [
          "'self'",
          `https://${config.firebase.authDomain}`,
          'https://www.youtube-nocookie.com',
          ...(emulatorOrigin ? [emulatorOrigin] : []),
        ],
        formAction: ["'self'", 'https://www.linkedin.com'],
        objectSrc: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    // the Firebase sign-in popup must be able to talk back to its opener
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    // set below, only where the site is served over TLS
    strictTransportSecurity: false,
  };
}

const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * The headers of an API response (a path under /api): JSON or a download, never a document a browser runs.
 * What OWASP's REST Security Cheat Sheet lists for every API response — nosniff, a policy that loads nothing
 * and may not be framed, no framing, no referrer — and the resource policy the documents keep (a verifier
 * or a partner's page fetches an award's credential and status list from elsewhere). The document-only
 * headers (the page's script and style sources, the opener policy, origin-agent-cluster, the legacy
 * x-xss-protection and friends) do nothing on JSON: dropping them takes 600 bytes off each answer — a
 * third of what the exam's submission sends back (docs/decisions/027-api-security-headers.md).
 */
export const API_HEADERS: readonly Header[] = [
  ['content-security-policy', "default-src 'none'; frame-ancestors 'none'"],
  ['cross-origin-resource-policy', 'cross-origin'],
  ['referrer-policy', 'no-referrer'],
  ['x-content-type-options', 'nosniff'],
  ['x-frame-options', 'DENY'],
];

/**
 * Sets the security headers on every response, 404s and errors included (an onRequest hook): the API's
 * short list on API paths, the portal's policy (helmet's, worked out once) on everything else.
 */
export function installSecurityHeaders(app: FastifyInstance, config: Config) {
  const documents = helmetHeaders(securityPolicy(config));
  // HSTS only for a site served over TLS (PUBLIC_URL https, or this request came over TLS — directly or,
  // with TRUST_PROXY, through the proxy's X-Forwarded-Proto): sent over plain HTTP it would make browsers
  // refuse that host name over HTTP for a year (a LAN or local start)
  const tlsSite = config.publicUrl.startsWith('https:');
  app.addHook('onRequest', (request, reply, done) => {
    const raw = reply.raw;
    for (const [name, value] of isApiPath(request.url) ? API_HEADERS : documents) raw.setHeader(name, value);
    if (tlsSite || request.protocol === 'https') raw.setHeader('strict-transport-security', HSTS);
    done();
  });
}
