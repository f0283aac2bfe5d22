/**
 * /scim/v2's rate limits (issue 28): per SCIM token, and per client address before the token is read, each a
 * count per minute in the database that every server process shares; past it, 429 with SCIM's error body
 * (RFC 7644 §3.12) and Retry-After, which Entra ID and Okta honour. Tried with small limits.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { type SignedIn, setupServer } from '../../test/helper';

const server = setupServer({ env: { RATE_LIMIT_SCIM_TOKEN: '5', RATE_LIMIT_SCIM_ADDRESS: '14' } });

let tenant: SignedIn;

async function makeToken(name: string) {
  const res = await server.post('/api/tenant/scim/tokens', { name }, tenant.auth);
  expect(res.status, res.text).toBe(201);
  return res.body.data.token as string;
}

beforeAll(async () => {
  tenant = await server.signedIn('TENANT', { profile: true });
}, 60_000);

const get = (app: typeof server.app, token: string) =>
  app.inject({
    method: 'GET',
    url: '/scim/v2/Users?count=1',
    headers: { authorization: `Bearer ${token}`, accept: 'application/scim+json' },
  });

describe('SCIM rate limits', () => {
  it('counts each token across processes, then answers 429 in SCIM’s shape with Retry-After', async () => {
    const first = await makeToken('Entra ID');
    const other = await server.anotherProcess();
    try {
      // five requests split between two processes: one count
      for (const app of [server.app, other.app, server.app, other.app, server.app]) {
        expect((await get(app, first)).statusCode).toBe(200);
      }
      const refused = await get(other.app, first);
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['content-type']).toContain('application/scim+json');
      const wait = Number(refused.headers['retry-after']);
      expect(wait).toBeGreaterThan(0);
      expect(wait).toBeLessThanOrEqual(60);
      expect(refused.json()).toEqual({
        schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
        status: '429',
        detail: expect.stringMatching(
          /^This SCIM token made more than 5 requests in a minute: wait \d+ s\.$/,
        ),
      });
      // another token of the tenant has its own count
      const second = await makeToken('Okta');
      expect((await get(server.app, second)).statusCode).toBe(200);
    } finally {
      await other.close();
    }
  });

  it('counts every request of an address before its token is read', async () => {
    // 7 requests so far from this address; bad tokens are counted too, and answered 401 until the limit
    for (let n = 8; n <= 14; n++)
      expect((await get(server.app, 'wmscim_guess')).statusCode, `request ${n}`).toBe(401);
    const refused = await get(server.app, 'wmscim_guess');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().detail).toMatch(/^This address made more than 14 requests in a minute/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });
});
