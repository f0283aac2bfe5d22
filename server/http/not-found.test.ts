/**
 * The 404 is rate-limited: a client walking through unknown paths (a scanner guessing /wp-admin, /.env,
 * /api/v1/…) gets 429 after a burst, counted in the database like every other limit (decision 009), so it
 * cannot make the server answer 404s as fast as it can ask. Portal pages are not counted: every page path is
 * the portal's index.html, which a person reloading or following links must always get.
 */
import { describe, expect, it } from 'vitest';
import { setupServer } from '../test/helper';

const server = setupServer();

/** The default limit of unknown paths per minute and address (RATE_LIMIT_NOT_FOUND). */
const LIMIT = 60;

describe('unknown paths', () => {
  it('answer 404 for a while, then 429 with Retry-After, per address; pages are still served', async () => {
    const from = (remoteAddress: string, url: string) =>
      server.app.inject({ method: 'GET', url, remoteAddress });
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 5; i++) {
      statuses.push((await from('203.0.113.7', `/api/no/such/call/${i}`)).statusCode);
    }
    expect(statuses.slice(0, LIMIT).every((s) => s === 404)).toBe(true);
    expect(statuses.slice(LIMIT)).toEqual([429, 429, 429, 429, 429]);

    const limited = await from('203.0.113.7', '/missing-asset.js');
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json()).toMatchObject({ statusCode: 429, error: 'Too Many Requests' });

    // a portal page is the portal's index.html (here: the "not built" page), whoever asks, however often
    const page = await from('203.0.113.7', '/learner/dashboard');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);

    // another address has its own count
    expect((await from('198.51.100.9', '/api/no/such/call')).statusCode).toBe(404);
  });

  it('are portal pages when they only start like the API or the docs: the API is /api and below', async () => {
    for (const url of ['/apiary', '/api-keys', '/docsify', '/documents/mine']) {
      const res = await server.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toMatch(/text\/html/);
    }
    for (const url of ['/api/no-such-call', '/api', '/api?x=1', '/docs/no-such-file']) {
      const res = await server.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toMatch(/application\/json/);
    }
  });
});
