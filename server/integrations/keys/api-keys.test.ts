/**
 * API keys for machines (issue 28 item 3), against the real server: made by the mentor (shown once, kept
 * hashed with a visible prefix), used as `Authorization: Bearer wm_…` acting as the tenant within its scopes,
 * refused once revoked or expired — on every process, at once —, their last use recorded at most once a
 * minute, and counted against a rate limit of their own.
 */
import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/helpers';
import { users } from '../../db/schema';
import { type SignedIn, setupServer } from '../../test/helper';
import { apiKeys } from '../core/tables';

const server = setupServer({ env: { RATE_LIMIT_API_KEY: '8' } });

let tenant: SignedIn;
let learnerEmail: string;

async function makeKey(body: Record<string, unknown>, who: { token: string } = tenant.auth) {
  const res = await server.post('/api/tenant/api-keys', body, who);
  expect(res.status, res.text).toBe(201);
  return res.body.data as {
    _id: string;
    key: string;
    prefix: string;
    status: string;
    expiresAt: string | null;
  };
}
const asKey = (key: string, extra: Record<string, string> = {}) => ({
  headers: { authorization: `Bearer ${key}`, ...extra },
});

beforeAll(async () => {
  tenant = await server.signedIn('TENANT', { profile: true, name: 'Key Mentor' });
  const learner = await server.signedIn('USER', { profile: true, name: 'Keyed Learner' });
  learnerEmail = learner.account.email;
  const added = await server.post('/api/tenant/users/add-user-v2', { email: learnerEmail }, tenant.auth);
  expect(added.status).toBe(200);
}, 60_000);

describe('API keys', () => {
  it('is shown once, kept as a hash with its visible prefix, and lists without its secret', async () => {
    const made = await makeKey({ name: 'HR sync', scopes: ['seats:read'], expiresInDays: 30 });
    expect(made.key).toMatch(/^wm_[a-z0-9]{12}_[A-Za-z0-9_-]{43}$/);
    const prefix = made.key.slice(3, 15);
    expect(made.prefix).toBe(`wm_${prefix}_…`);
    expect(made.status).toBe('ACTIVE');
    expect(Date.parse(made.expiresAt!) - Date.now()).toBeGreaterThan(29 * 86_400_000);
    const [row] = await server.db.select().from(apiKeys).where(eq(apiKeys.id, made._id));
    const secret = made.key.slice(16);
    expect(row!.secretHash).toBe(createHash('sha256').update(secret).digest('hex'));
    // the secret is nowhere in the database
    const dump = rowsOf<{ t: string }>(
      await server.db.execute(sql`select row_to_json(k)::text as t from api_keys k`),
    );
    expect(dump.map((r) => r.t).join('')).not.toContain(secret);
    const list = await server.get('/api/tenant/api-keys', tenant.auth);
    expect(list.text).not.toContain(secret);
    expect(list.body.data.find((k: { _id: string }) => k._id === made._id)).toMatchObject({
      name: 'HR sync',
      scopes: ['seats:read'],
      lastUsedAt: null,
    });
  });

  it('acts as its tenant within its scopes, and nothing else', async () => {
    const { key } = await makeKey({ name: 'Reader', scopes: ['seats:read'] });
    const seats = await server.get('/api/tenant/users/list?limit=15', asKey(key));
    expect(seats.status, seats.text).toBe(200);
    expect(seats.text).toContain(learnerEmail);
    // a scope it does not hold
    const add = await server.post(
      '/api/tenant/users/add-user-v2',
      { email: 'someone@example.com' },
      asKey(key),
    );
    expect(add.status).toBe(403);
    expect(add.body.errorCode).toBe('API_KEY_SCOPE');
    // a call no key may make: its tenant's profile, paying, making keys
    for (const [method, url, body] of [
      ['GET', '/api/user/me', undefined],
      ['POST', '/api/tenant/stripe/create-subscription', { quantity: 11 }],
      ['POST', '/api/tenant/api-keys', { name: 'Escalate', scopes: ['seats:write'] }],
      ['GET', '/api/tenant/api-keys', undefined],
    ] as const) {
      const res = await server.request(method, url, body, asKey(key));
      expect(res.status, `${method} ${url}`).toBe(403);
      expect(res.body.errorCode, `${method} ${url}`).toBe('API_KEY_NOT_ALLOWED');
    }
  });

  it('is refused at once when revoked, on every process, and when expired', async () => {
    const { key, _id } = await makeKey({ name: 'Short-lived', scopes: ['reports:read'] });
    const other = await server.anotherProcess();
    try {
      const viaOther = () =>
        other.app.inject({ method: 'GET', url: '/api/tenant/dashboard/stats', ...asKey(key) });
      expect((await viaOther()).statusCode).toBe(200);
      const revoked = await server.request('DELETE', `/api/tenant/api-keys/${_id}`, undefined, tenant.auth);
      expect(revoked.status).toBe(200);
      expect(revoked.body.data.status).toBe('REVOKED');
      const after = await viaOther();
      expect(after.statusCode).toBe(401);
      expect(after.json().errorCode).toBe('API_KEY_REVOKED');
      // revoking again changes nothing
      const again = await server.request('DELETE', `/api/tenant/api-keys/${_id}`, undefined, tenant.auth);
      expect(again.body.data.revokedAt).toBe(revoked.body.data.revokedAt);
    } finally {
      await other.close();
    }
    const expiring = await makeKey({ name: 'Expiring', scopes: ['reports:read'], expiresInDays: 1 });
    await server.db
      .update(apiKeys)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiKeys.id, expiring._id));
    const expired = await server.get('/api/tenant/dashboard/stats', asKey(expiring.key));
    expect(expired.status).toBe(401);
    expect(expired.body.errorCode).toBe('API_KEY_EXPIRED');
    const listed = await server.get('/api/tenant/api-keys', tenant.auth);
    expect(listed.body.data.find((k: { _id: string }) => k._id === expiring._id).status).toBe('EXPIRED');
  });

  it('refuses a key with a wrong secret, a malformed one, and another tenant revoking it', async () => {
    const { key, _id } = await makeKey({ name: 'Mine', scopes: ['seats:read'] });
    const wrong = `${key.slice(0, 16)}${'A'.repeat(43)}`;
    for (const bad of [wrong, 'wm_nope', `${key}x`]) {
      const res = await server.get('/api/tenant/users/list', asKey(bad));
      expect(res.status, bad).toBe(401);
      expect(res.body.errorCode).toBe('API_KEY_INVALID');
    }
    const other = await server.signedIn('TENANT', { profile: true });
    const res = await server.request('DELETE', `/api/tenant/api-keys/${_id}`, undefined, other.auth);
    expect(res.status).toBe(404);
    expect((await server.get('/api/tenant/users/list', asKey(key))).status).toBe(200);
  });

  it('stops with its account: a deleted tenant’s key is refused', async () => {
    const owner = await server.signedIn('TENANT', { profile: true });
    const { key } = await makeKey({ name: 'Orphan', scopes: ['seats:read'] }, owner.auth);
    expect((await server.get('/api/tenant/users/list', asKey(key))).status).toBe(200);
    await server.db.update(users).set({ isDeleted: true }).where(eq(users.id, owner.user._id));
    const res = await server.get('/api/tenant/users/list', asKey(key));
    expect(res.status).toBe(401);
  });

  it('records its last use at most once a minute', async () => {
    const { key, _id } = await makeKey({ name: 'Counted', scopes: ['seats:read'] });
    const lastUsed = async () =>
      (await server.db.select().from(apiKeys).where(eq(apiKeys.id, _id)))[0]!.lastUsedAt;
    expect(await lastUsed()).toBeNull();
    await server.get('/api/tenant/users/list', asKey(key));
    const first = await lastUsed();
    expect(first).not.toBeNull();
    await server.get('/api/tenant/users/list', asKey(key));
    expect(await lastUsed()).toEqual(first);
    // a minute later, the next use is recorded
    await server.db
      .update(apiKeys)
      .set({ lastUsedAt: new Date(Date.now() - 61_000) })
      .where(eq(apiKeys.id, _id));
    await server.get('/api/tenant/users/list', asKey(key));
    expect((await lastUsed())!.getTime()).toBeGreaterThan(Date.now() - 10_000);
  });

  it('counts requests per key: past the limit 429 with Retry-After, another key unaffected', async () => {
    const a = await makeKey({ name: 'Busy', scopes: ['seats:read'] });
    const b = await makeKey({ name: 'Quiet', scopes: ['seats:read'] });
    const statuses: number[] = [];
    let last: { status: number; headers: Record<string, unknown>; body: { errorCode?: string } } | null =
      null;
    for (let i = 0; i < 10; i++) {
      last = await server.get('/api/tenant/users/list', asKey(a.key));
      statuses.push(last.status);
    }
    expect(statuses).toEqual([...Array(8).fill(200), 429, 429]);
    expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
    expect(last!.headers['x-ratelimit-limit']).toBe('8');
    expect(last!.body.errorCode).toBe('RATE_LIMITED');
    const other = await server.get('/api/tenant/users/list', asKey(b.key));
    expect(other.status).toBe(200);
    expect(other.headers['x-ratelimit-remaining']).toBe('7');
    // the tenant in person is not counted against its keys
    expect((await server.get('/api/tenant/users/list', tenant.auth)).status).toBe(200);
  });

  it('refuses bad input naming the field: no scope, an unknown one, a name too long, expiry out of range', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'x', scopes: [] }, 'scopes'],
      [{ name: 'x', scopes: ['seats:delete'] }, 'scopes.0'],
      [{ name: 'x'.repeat(101), scopes: ['seats:read'] }, 'name'],
      [{ name: '  ', scopes: ['seats:read'] }, 'name'],
      [{ name: 'x', scopes: ['seats:read'], expiresInDays: 0 }, 'expiresInDays'],
      [{ name: 'x', scopes: ['seats:read'], expiresInDays: 731 }, 'expiresInDays'],
    ];
    for (const [body, field] of cases) {
      const res = await server.post('/api/tenant/api-keys', body, tenant.auth);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.field).toBe(field);
    }
    const learner = await server.signedIn('USER');
    expect(
      (await server.post('/api/tenant/api-keys', { name: 'x', scopes: ['seats:read'] }, learner.auth)).status,
    ).toBe(403);
  });
});
