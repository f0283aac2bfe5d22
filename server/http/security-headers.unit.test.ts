/**
 * The security headers are worked out once at start (server/http/security-headers.ts): the list must be
 * what helmet's own middleware sets on a real response for the same policy, so building it once changes
 * nothing a browser sees.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import helmet from 'helmet';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { isApiPath, underPath } from './routes';
import { helmetHeaders, securityPolicy } from './security-headers';

const config = loadConfig({
  NODE_ENV: 'test',
  JWT_SECRET: 'unit-secret-unit-secret-unit-secret-0123',
  FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099',
});

/** The headers helmet's middleware sets on a real node response. */
async function realHelmet(policy: Parameters<typeof helmet>[0]) {
  const middleware = helmet(policy);
  const server = createServer((req, res: ServerResponse) =>
    middleware(req, res, () => {
      res.end('ok');
    }),
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    const seen: Record<string, string> = {};
    res.headers.forEach((value, name) => {
      if (!['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'].includes(name))
        seen[name] = value;
    });
    return seen;
  } finally {
    server.close();
  }
}

describe('security headers', () => {
  it('are exactly what helmet sets for the same policy', async () => {
    const policy = securityPolicy(config);
    expect(Object.fromEntries(helmetHeaders(policy))).toEqual(await realHelmet(policy));
  });

  it('allow the Firebase sign-in popup and the emulator, and leave HSTS to the TLS check', () => {
    const headers = Object.fromEntries(helmetHeaders(securityPolicy(config)));
    expect(headers['cross-origin-opener-policy']).toBe('same-origin-allow-popups');
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['content-security-policy']).toContain('http://127.0.0.1:9099');
    expect(headers['content-security-policy']).toContain("object-src 'none'");
    expect(headers['strict-transport-security']).toBeUndefined();
  });
});

describe('isApiPath', () => {
  it('is the API prefix and what lies below it, with or without a query', () => {
    for (const url of ['/api', '/api/', '/api/health', '/api?x=1', '/api/testlink/evaluvate/v2'])
      expect(isApiPath(url), url).toBe(true);
    for (const url of ['/', '/apiary', '/apis/x', '/portal/api', '/files/api/x', '/docs'])
      expect(isApiPath(url), url).toBe(false);
  });
});

describe('underPath', () => {
  it('is the path itself and what lies below it, never a longer name that starts the same', () => {
    for (const url of ['/docs', '/docs/', '/docs/openapi.json', '/docs?x=1'])
      expect(underPath(url, '/docs'), url).toBe(true);
    for (const url of ['/docsify', '/documents/mine', '/doc', '/api/docs'])
      expect(underPath(url, '/docs'), url).toBe(false);
  });
});
