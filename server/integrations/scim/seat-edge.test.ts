/**
 * Exact seats when a directory pushes many users at once (issue 28; decision 050): the seat rule writes the
 * seat first and counts under the tenant's lock last, so parallel creates proceed — and at the allowance's
 * edge exactly the free seats are given, on two server processes at once, with nothing half-written for
 * the refused (no account, no SCIM user, no seat). The portal's Add User races the same rule.
 */
import { FREE_SEATS } from '@shared/rules/seats';
import { eq, like, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/helpers';
import { users } from '../../db/schema';
import { type SignedIn, setupServer, uniqueEmail } from '../../test/helper';
import { scimUsers } from './tables';

const server = setupServer();

const activeSeats = async (tenantId: string) =>
  rowsOf<{ n: number }>(
    await server.db.execute(
      sql`select count(*)::int as n from tenant_users where tenant_id = ${tenantId} and not is_disabled`,
    ),
  )[0]!.n;

async function tenantWithToken() {
  const tenant = await server.signedIn('TENANT', { profile: true });
  const res = await server.post('/api/tenant/scim/tokens', { name: 'Entra ID' }, tenant.auth);
  expect(res.status, res.text).toBe(201);
  return { tenant, token: res.body.data.token as string };
}

const entraUser = (email: string) => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
  externalId: email,
  userName: email,
  active: true,
  emails: [{ primary: true, type: 'work', value: email }],
  name: { givenName: 'Edge', familyName: 'Case' },
});

describe('seats at the allowance’s edge', () => {
  let other: Awaited<ReturnType<typeof server.anotherProcess>>;
  beforeAll(async () => {
    other = await server.anotherProcess();
    return () => other.close();
  }, 60_000);

  it('gives exactly the free seats to 16 creates sent 8 at a time to two processes', async () => {
    const { tenant, token } = await tenantWithToken();
    const tag = `edge-${Date.now().toString(36)}`;
    const emails = Array.from({ length: 16 }, (_, i) => `${tag}-${i}@example.com`);
    const apps = [server.app, other.app];
    const statuses: number[] = [];
    for (let batch = 0; batch < emails.length; batch += 8) {
      const answers = await Promise.all(
        emails.slice(batch, batch + 8).map((email, i) =>
          apps[i % 2]!.inject({
            method: 'POST',
            url: '/scim/v2/Users',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/scim+json' },
            payload: JSON.stringify(entraUser(email)),
          }),
        ),
      );
      statuses.push(...answers.map((a) => a.statusCode));
    }
    expect(statuses.filter((s) => s === 201)).toHaveLength(FREE_SEATS);
    expect(statuses.filter((s) => s === 403)).toHaveLength(emails.length - FREE_SEATS);
    expect(await activeSeats(tenant.user._id)).toBe(FREE_SEATS);
    // the refused left nothing behind: as many accounts and SCIM users as seats
    const accounts = await server.db
      .select()
      .from(users)
      .where(like(users.email, `${tag}-%`));
    expect(accounts).toHaveLength(FREE_SEATS);
    const scim = await server.db.select().from(scimUsers).where(eq(scimUsers.tenantId, tenant.user._id));
    expect(scim).toHaveLength(FREE_SEATS);
  });

  it('gives exactly the free seats to learners added in the portal at the same moment', async () => {
    const tenant = await server.signedIn('TENANT', { profile: true });
    const learners: SignedIn[] = [];
    for (let i = 0; i < FREE_SEATS + 4; i++)
      learners.push(await server.signedIn('USER', { email: uniqueEmail('racer'), profile: true }));
    const apps = [server.app, other.app];
    const answers = await Promise.all(
      learners.map((l, i) =>
        apps[i % 2]!.inject({
          method: 'POST',
          url: '/api/tenant/users/add-user-v2',
          headers: { authorization: `Bearer ${tenant.token}`, 'content-type': 'application/json' },
          payload: JSON.stringify({ email: l.account.email }),
        }),
      ),
    );
    const outcomes = answers.map((a) => a.json().data?.outcome);
    expect(outcomes.filter((o) => o === 'ADDED')).toHaveLength(FREE_SEATS);
    expect(outcomes.filter((o) => o === 'NOT_YET_SUBSCRIBED')).toHaveLength(4);
    expect(await activeSeats(tenant.user._id)).toBe(FREE_SEATS);
    // the same learner added twice at once, with room: one seat, the other told it is taken
    const roomy = await server.signedIn('TENANT', { profile: true });
    const learner = learners[0]!;
    const twice = await Promise.all(
      apps.map((app) =>
        app.inject({
          method: 'POST',
          url: '/api/tenant/users/add-user-v2',
          headers: { authorization: `Bearer ${roomy.token}`, 'content-type': 'application/json' },
          payload: JSON.stringify({ email: learner.account.email }),
        }),
      ),
    );
    expect(twice.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    const rows = await server.db.execute(
      sql`select count(*)::int as n from tenant_users where tenant_id = ${roomy.user._id} and learner_id = ${learner.user._id}`,
    );
    expect(rowsOf<{ n: number }>(rows)[0]!.n).toBe(1);
  });
});
