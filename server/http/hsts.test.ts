/**
 * HSTS (Strict-Transport-Security) only for a site served over TLS: sent over plain HTTP — a start on a
 * laptop or a LAN address — it would make browsers refuse that host name over HTTP for a year (ARCHITECTURE.md).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupServer, TestServer } from '../test/helper';

const HSTS = 'strict-transport-security';
const plain = setupServer({ env: { TRUST_PROXY: 'true' } });

describe('Strict-Transport-Security', () => {
  it('is not sent over plain HTTP to an http:// site', async () => {
    const res = await plain.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.headers[HSTS]).toBeUndefined();
  });

  it('is sent when the request came over TLS through a trusted proxy', async () => {
    const res = await plain.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(res.headers[HSTS]).toBe('max-age=31536000; includeSubDomains');
  });

  describe('on a site whose PUBLIC_URL is https', () => {
    const tls = new TestServer({ env: { PUBLIC_URL: 'https://waymark.example.com' } });
    beforeAll(() => tls.start(), 120_000);
    afterAll(() => tls.close());
    it('is sent on every answer', async () => {
      const res = await tls.app.inject({ method: 'GET', url: '/api/health' });
      expect(res.headers[HSTS]).toBe('max-age=31536000; includeSubDomains');
    });
  });
});
