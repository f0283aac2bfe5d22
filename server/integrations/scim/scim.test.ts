/**
 * SCIM 2.0 provisioning (issue 28 item 2; decision 043) against the real server over real HTTP: the tenant's
 * tokens, discovery, Users as Okta and Entra ID send them (their documented requests, written here from
 * their documentation), seats given and freed through the tenant's own seat rules, Groups as cohorts, SCIM
 * errors — and two independent SCIM libraries from npm checking what we answer: scimmy (its own User and
 * Group schemas, and its PatchOp) and scim-patch (its own PATCH).
 */
import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { and, eq, sql } from 'drizzle-orm';
import { scimPatch } from 'scim-patch';
import SCIMMY from 'scimmy';
import { beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/helpers';
import { outbox, tenantUsers, users } from '../../db/schema';
import { cohortMembers } from '../../tenant/tables';
import { expectLogSaid } from '../../test/audit-said';
import { type SignedIn, setupServer } from '../../test/helper';
import { auditEvents } from '../core/tables';
import { scimTokens, scimUsers } from './tables';

const server = setupServer();

let base: string;
let tenant: SignedIn;
let token: string;
let tokenId: string;

// biome-ignore lint/suspicious/noExplicitAny: SCIM answers are read as they come
type Json = any;

async function scim(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}/scim/v2${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      accept: 'application/scim+json',
      ...(body === undefined ? {} : { 'content-type': 'application/scim+json' }),
      ...headers,
    },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let json: Json = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    // not JSON
  }
  return { status: res.status, body: json, text, headers: res.headers };
}

async function makeToken(name: string, who: SignedIn = tenant, replaces?: string) {
  const res = await server.post(
    '/api/tenant/scim/tokens',
    { name, ...(replaces ? { replaces } : {}) },
    who.auth,
  );
  expect(res.status, res.text).toBe(201);
  return res.body.data as { _id: string; token: string; prefix: string; baseUrl: string };
}

const seatOf = async (email: string) => {
  const [row] = await server.db
    .select({ seat: tenantUsers })
    .from(tenantUsers)
    .innerJoin(users, eq(users.id, tenantUsers.learnerId))
    .where(
      and(eq(tenantUsers.tenantId, tenant.user._id), sql`lower(${users.email}) = ${email.toLowerCase()}`),
    );
  return row?.seat ?? null;
};

const seatCount = async () =>
  rowsOf<{ n: number }>(
    await server.db.execute(
      sql`select count(*)::int as n from tenant_users where tenant_id = ${tenant.user._id} and not is_disabled`,
    ),
  )[0]!.n;

const auditOf = (action: string) =>
  server.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.tenantId, tenant.user._id), eq(auditEvents.action, action)));

/** Okta's "create user" request, as its SCIM 2.0 guide shows it. */
const oktaUser = (email: string, given: string, family: string) => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
  userName: email,
  name: { givenName: given, familyName: family },
  emails: [{ primary: true, value: email, type: 'work' }],
  displayName: `${given} ${family}`,
  locale: 'en-US',
  externalId: `00u${createHash('sha1').update(email).digest('hex').slice(0, 17)}`,
  groups: [],
  password: '1mz050nq',
  active: true,
});

/** Entra ID's "create user" request, as its SCIM guide shows it. */
const entraUser = (email: string, externalId: string) => ({
  schemas: [
    'urn:ietf:params:scim:schemas:core:2.0:User',
    'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User',
  ],
  externalId,
  userName: email,
  active: true,
  emails: [{ primary: true, type: 'work', value: email }],
  meta: { resourceType: 'User' },
  name: { formatted: 'givenName familyName', familyName: 'familyName', givenName: 'givenName' },
  roles: [],
  'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': {
    employeeNumber: 701984,
    department: 'Sales',
  },
});

beforeAll(async () => {
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
  tenant = await server.signedIn('TENANT', { profile: true, name: 'Scim Mentor' });
  const made = await makeToken('Okta');
  token = made.token;
  tokenId = made._id;
}, 60_000);

describe('SCIM tokens', () => {
  it('is shown once, kept as a hash with a visible prefix, and listed without its secret', async () => {
    const made = await makeToken('Entra ID');
    expect(made.token).toMatch(/^wmscim_[a-z0-9]{12}_[A-Za-z0-9_-]{43}$/);
    expect(made.prefix).toBe(`wmscim_${made.token.slice(7, 19)}_…`);
    expect(made.baseUrl).toMatch(/\/scim\/v2$/);
    const secret = made.token.slice(20);
    const [row] = await server.db.select().from(scimTokens).where(eq(scimTokens.id, made._id));
    expect(row!.secretHash).toBe(createHash('sha256').update(secret).digest('hex'));
    const list = await server.get('/api/tenant/scim', tenant.auth);
    expect(list.status).toBe(200);
    expect(list.text).not.toContain(secret);
    expect(list.body.data.tokens.map((t: Json) => t._id)).toContain(made._id);
    expect((await auditOf('scim.token_created')).some((e) => e.targetId === made._id)).toBe(true);
  });

  it('refuses a request without a token, with a wrong one, and a revoked one on every process', async () => {
    const none = await fetch(`${base}/scim/v2/Users`);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(none.headers.get('content-type')).toContain('application/scim+json');
    expect(await none.json()).toMatchObject({
      schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
      status: '401',
    });
    const wrong = await fetch(`${base}/scim/v2/Users`, {
      headers: { authorization: `Bearer ${token.slice(0, -4)}AAAA` },
    });
    expect(wrong.status).toBe(401);
    // a person's access token is not a SCIM token
    const person = await fetch(`${base}/scim/v2/Users`, {
      headers: { authorization: `Bearer ${tenant.token}` },
    });
    expect(person.status).toBe(401);
    // and a SCIM token reaches nothing of the JSON API
    const api = await fetch(`${base}/api/tenant/users/list?limit=15`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(api.status).toBe(401);

    const doomed = await makeToken('Doomed');
    const other = await server.anotherProcess();
    try {
      const viaOther = () =>
        other.app.inject({
          method: 'GET',
          url: '/scim/v2/Users',
          headers: { authorization: `Bearer ${doomed.token}` },
        });
      expect((await viaOther()).statusCode).toBe(200);
      const revoked = await server.request(
        'DELETE',
        `/api/tenant/scim/tokens/${doomed._id}`,
        undefined,
        tenant.auth,
      );
      expect(revoked.body.data.status).toBe('REVOKED');
      const after = await viaOther();
      expect(after.statusCode).toBe(401);
      expect(after.json().detail).toBe('This SCIM token has been revoked.');
    } finally {
      await other.close();
    }
  });

  it('rotates: the new token works and the old one stops at once', async () => {
    const old = await makeToken('Rotating');
    const next = await makeToken('Rotating', tenant, old._id);
    const use = (t: string) =>
      fetch(`${base}/scim/v2/Users?count=1`, { headers: { authorization: `Bearer ${t}` } });
    expect((await use(old.token)).status).toBe(401);
    expect((await use(next.token)).status).toBe(200);
    // another tenant cannot revoke or rotate this tenant's token
    const stranger = await server.signedIn('TENANT', { profile: true });
    const res = await server.request(
      'DELETE',
      `/api/tenant/scim/tokens/${next._id}`,
      undefined,
      stranger.auth,
    );
    expect(res.status).toBe(404);
    // and a learner has no SCIM settings at all
    const learner = await server.signedIn('USER', { profile: true });
    expect((await server.get('/api/tenant/scim', learner.auth)).status).toBe(403);
    // each entry said again in the reader's language from its details (issue 31)
    await expectLogSaid(server.db, tenant.user._id, [
      'scim.token_created',
      'scim.token_rotated',
      'scim.token_revoked',
    ]);
  });
});

describe('discovery', () => {
  it('describes the service: patch, filter with its limit, ETags, no bulk, the bearer token', async () => {
    const res = await scim('GET', '/ServiceProviderConfig');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'],
      patch: { supported: true },
      bulk: { supported: false },
      filter: { supported: true, maxResults: 200 },
      etag: { supported: true },
      sort: { supported: false },
      changePassword: { supported: false },
    });
    expect(res.body.authenticationSchemes[0].type).toBe('oauthbearertoken');
    const types = await scim('GET', '/ResourceTypes');
    expect(types.body.Resources.map((t: Json) => t.endpoint)).toEqual(['/Users', '/Groups']);
    expect((await scim('GET', '/ResourceTypes/User')).body.schema).toBe(
      'urn:ietf:params:scim:schemas:core:2.0:User',
    );
  });

  it('serves schemas whose attributes agree with scimmy’s own User, EnterpriseUser and Group', async () => {
    const res = await scim('GET', '/Schemas');
    expect(res.body.totalResults).toBe(3);
    for (const [id, theirs] of [
      ['urn:ietf:params:scim:schemas:core:2.0:User', SCIMMY.Schemas.User.definition],
      [
        'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User',
        SCIMMY.Schemas.EnterpriseUser.definition,
      ],
      ['urn:ietf:params:scim:schemas:core:2.0:Group', SCIMMY.Schemas.Group.definition],
    ] as const) {
      const ours = (await scim('GET', `/Schemas/${id}`)).body;
      const described = theirs.describe() as { attributes: Json[] };
      for (const attr of ours.attributes) {
        const same = described.attributes.find((a) => a.name === attr.name);
        expect(same, `${id} ${attr.name}`).toBeDefined();
        expect({ type: attr.type, multiValued: attr.multiValued }, `${id} ${attr.name}`).toEqual({
          type: same.type,
          multiValued: same.config?.multiValued ?? false,
        });
      }
    }
    expect((await scim('GET', '/Schemas/urn:nothing')).status).toBe(404);
  });
});

describe('Users as Okta provisions them', () => {
  const email = 'okta.person@example.com';
  let id: string;

  it('looks the user up, creates it with a seat, and answers a resource scimmy accepts', async () => {
    // Okta's first request: is the user there already?
    const lookup = await scim(
      'GET',
      `/Users?filter=${encodeURIComponent(`userName eq "${email}"`)}&startIndex=1&count=100`,
    );
    expect(lookup.status).toBe(200);
    expect(lookup.body).toEqual({
      schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'],
      totalResults: 0,
      startIndex: 1,
      itemsPerPage: 0,
      Resources: [],
    });
    const made = await scim('POST', '/Users', oktaUser(email, 'Okta', 'Person'));
    expect(made.status, made.text).toBe(201);
    id = made.body.id;
    expect(made.headers.get('location')).toBe(`${made.body.meta.location}`);
    expect(made.headers.get('etag')).toBe(made.body.meta.version);
    expect(made.body).toMatchObject({
      userName: email,
      active: true,
      name: { givenName: 'Okta', familyName: 'Person' },
    });
    // the password is never kept nor shown
    expect(made.text).not.toContain('1mz050nq');
    // scimmy's own User schema takes our answer as a User
    const parsed = new SCIMMY.Schemas.User(made.body, 'out');
    expect(parsed.userName).toBe(email);
    // the seat, through the tenant's seat rules, and the activity log names the token
    expect((await seatOf(email))?.isDisabled).toBe(false);
    const added = (await auditOf('seat.added')).find((e) => e.summary.includes(email));
    expect(added).toMatchObject({ actorKind: 'scimToken', actorId: tokenId });
    expect(added!.actorLabel).toContain('Okta (wmscim_');
    // the person was made a learner account and told how to sign in
    const [account] = await server.db.select().from(users).where(sql`lower(${users.email}) = ${email}`);
    expect(account).toMatchObject({ role: 'USER', name: 'Okta Person', emailVerified: true });
    const mails = await server.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.to, email), eq(outbox.kind, 'scim-welcome')));
    expect(mails).toHaveLength(1);
    // the lookup finds it now, whatever the case of the userName (caseExact false)
    const again = await scim(
      'GET',
      `/Users?filter=${encodeURIComponent(`userName eq "${email.toUpperCase()}"`)}`,
    );
    expect(again.body.totalResults).toBe(1);
    expect(again.body.Resources[0].id).toBe(id);
  });

  it('refuses the same userName twice (409 uniqueness)', async () => {
    const dup = await scim('POST', '/Users', oktaUser(email, 'Okta', 'Person'));
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ scimType: 'uniqueness', status: '409' });
  });

  it('deactivates with a path-less replace (the seat freed, the account kept) and reactivates the same seat', async () => {
    const seat = await seatOf(email);
    const off = await scim('PATCH', `/Users/${id}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'replace', value: { active: false } }],
    });
    expect(off.status, off.text).toBe(200);
    expect(off.body.active).toBe(false);
    expect(await seatOf(email)).toBeNull();
    const removed = (await auditOf('seat.removed')).find((e) => e.summary.includes(email));
    expect(removed).toMatchObject({ actorKind: 'scimToken' });
    const [account] = await server.db.select().from(users).where(sql`lower(${users.email}) = ${email}`);
    expect(account!.isDeleted).toBe(false);
    const on = await scim('PATCH', `/Users/${id}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'replace', value: { active: true } }],
    });
    expect(on.body.active).toBe(true);
    const back = await seatOf(email);
    expect(back?.isDisabled).toBe(false);
    expect(back?.learnerId).toBe(seat!.learnerId);
  });

  it('replaces the whole user with PUT (Okta’s profile update), keeping the id', async () => {
    const current = (await scim('GET', `/Users/${id}`)).body;
    const put = await scim('PUT', `/Users/${id}`, {
      ...current,
      name: { givenName: 'Okta', familyName: 'Renamed' },
      displayName: 'Okta Renamed',
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body.id).toBe(id);
    expect(put.body.name).toEqual({ givenName: 'Okta', familyName: 'Renamed' });
    const [account] = await server.db.select().from(users).where(sql`lower(${users.email}) = ${email}`);
    expect(account!.name).toBe('Okta Renamed');
  });

  it('honours ETags: If-None-Match answers 304, a stale If-Match 412', async () => {
    const got = await scim('GET', `/Users/${id}`);
    const etag = got.headers.get('etag')!;
    expect(etag).toMatch(/^W\/"\d+"$/);
    expect((await scim('GET', `/Users/${id}`, undefined, { 'if-none-match': etag })).status).toBe(304);
    const patch = {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'replace', path: 'title', value: 'Engineer' }],
    };
    expect((await scim('PATCH', `/Users/${id}`, patch, { 'if-match': etag })).status).toBe(200);
    const stale = await scim('PATCH', `/Users/${id}`, patch, { 'if-match': etag });
    expect(stale.status).toBe(412);
    expect(stale.body.schemas).toEqual(['urn:ietf:params:scim:api:messages:2.0:Error']);
  });
});

describe('Users as Entra ID provisions them', () => {
  const email = 'entra.person@example.com';
  let id: string;

  it('creates with the enterprise extension, and finds by externalId', async () => {
    const made = await scim('POST', '/Users', entraUser(email, 'e2b6c1d4-0f00-4c7e-9b1a-000000000001'));
    expect(made.status, made.text).toBe(201);
    id = made.body.id;
    expect(made.body.schemas).toContain('urn:ietf:params:scim:schemas:extension:enterprise:2.0:User');
    // a number where the schema says string: kept as its text
    expect(made.body['urn:ietf:params:scim:schemas:extension:enterprise:2.0:User']).toEqual({
      employeeNumber: '701984',
      department: 'Sales',
    });
    const found = await scim(
      'GET',
      `/Users?filter=${encodeURIComponent('externalId eq "e2b6c1d4-0f00-4c7e-9b1a-000000000001"')}`,
    );
    expect(found.body.Resources.map((r: Json) => r.id)).toEqual([id]);
    // externalId is caseExact
    const upper = await scim(
      'GET',
      `/Users?filter=${encodeURIComponent('externalId eq "E2B6C1D4-0F00-4C7E-9B1A-000000000001"')}`,
    );
    expect(upper.body.totalResults).toBe(0);
  });

  it('applies Entra ID’s PATCH (capitalised ops, value filters, "False") as scim-patch and scimmy do', async () => {
    const before = (await scim('GET', `/Users/${id}`)).body;
    const ops = [
      { op: 'Replace', path: 'emails[type eq "work"].value', value: 'entra.moved@example.com' },
      { op: 'Replace', path: 'name.familyName', value: 'Moved' },
      { op: 'Add', path: 'title', value: 'Manager' },
      { op: 'Add', path: 'phoneNumbers[type eq "mobile"].value', value: '+1 555 0100' },
      { op: 'Replace', path: 'displayName', value: 'Entra Moved' },
    ];
    const res = await scim('PATCH', `/Users/${id}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: ops,
    });
    expect(res.status, res.text).toBe(200);
    const pick = (u: Json) => ({
      emails: u.emails,
      name: u.name,
      title: u.title,
      displayName: u.displayName,
      phoneNumbers: u.phoneNumbers,
    });
    // scim-patch (lower-case op names are what it takes)
    const lower = ops.map((o) => ({ ...o, op: o.op.toLowerCase() })) as Json;
    const theirs = scimPatch(structuredClone(before), lower);
    expect(pick(res.body)).toEqual(pick(theirs));
    // scimmy's PatchOp on its own User
    const core = structuredClone(before);
    delete core['urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'];
    core.schemas = ['urn:ietf:params:scim:schemas:core:2.0:User'];
    // (scimmy refuses `add` through a value filter that matches nothing, which Entra ID sends and RFC 7644
    // §3.5.2.1 leaves open: that operation is scim-patch's to check)
    const patched = await new SCIMMY.Messages.PatchOp({
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: lower.filter((o: Json) => !o.path.startsWith('phoneNumbers')),
    }).apply(new SCIMMY.Schemas.User(core, 'in'));
    const s = JSON.parse(JSON.stringify(patched));
    expect(res.body.name).toEqual(s.name);
    expect(res.body.title).toBe(s.title);
    expect(res.body.emails.map((e: Json) => e.value)).toEqual(s.emails.map((e: Json) => e.value));

    // Entra ID's disable: a boolean as the string "False"
    const off = await scim('PATCH', `/Users/${id}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'Replace', path: 'active', value: 'False' }],
    });
    expect(off.body.active).toBe(false);
    expect(await seatOf(email)).toBeNull();
  });

  it('DELETE frees the seat and forgets the SCIM user, keeping the learner', async () => {
    await scim('PATCH', `/Users/${id}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'replace', path: 'active', value: true }],
    });
    expect((await seatOf(email))?.isDisabled).toBe(false);
    const gone = await scim('DELETE', `/Users/${id}`);
    expect(gone.status).toBe(204);
    expect(await seatOf(email)).toBeNull();
    expect((await scim('GET', `/Users/${id}`)).status).toBe(404);
    const [account] = await server.db.select().from(users).where(sql`lower(${users.email}) = ${email}`);
    expect(account).toBeDefined();
    expect(account!.isDeleted).toBe(false);
  });
});

describe('a directory pushing users at once', () => {
  it('creates users sent 8 at a time, each with its seat (no deadlock between their transactions)', async () => {
    const before = await seatCount();
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        scim('POST', '/Users', entraUser(`push-${i}@example.com`, `push-${i}`)),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(201));
    expect(await seatCount()).toBe(before + 8);
    // and they leave 8 at a time too (room for the seats test below)
    const gone = await Promise.all(results.map((r) => scim('DELETE', `/Users/${r.body.id}`)));
    expect(gone.map((r) => r.status)).toEqual(Array(8).fill(204));
    expect(await seatCount()).toBe(before);
  });
});

describe('seats run out', () => {
  it('answers 403 with the reason when no seat is free, mails the mentor once, and writes nothing', async () => {
    // the tenant holds the free seats (10): fill them
    const held = rowsOf<{ n: number }>(
      await server.db.execute(
        sql`select count(*)::int as n from tenant_users where tenant_id = ${tenant.user._id} and not is_disabled`,
      ),
    )[0]!.n;
    for (let i = held; i < 10; i++) {
      const r = await scim('POST', '/Users', oktaUser(`filler${i}@example.com`, 'Filler', String(i)));
      expect(r.status, r.text).toBe(201);
    }
    for (const who of ['late1@example.com', 'late2@example.com']) {
      const late = await scim('POST', '/Users', oktaUser(who, 'Late', 'Comer'));
      expect(late.status).toBe(403);
      expect(late.body.detail).toContain('No seat is free');
      expect(await seatOf(who)).toBeNull();
      const [row] = await server.db
        .select()
        .from(scimUsers)
        .where(sql`lower(${scimUsers.userName}) = ${who}`);
      expect(row).toBeUndefined();
    }
    const notices = await server.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.to, tenant.account.email), eq(outbox.kind, 'no-seat')));
    expect(notices).toHaveLength(1);
    // an inactive user needs no seat
    const parked = await scim('POST', '/Users', {
      ...oktaUser('parked@example.com', 'Parked', 'User'),
      active: false,
    });
    expect(parked.status, parked.text).toBe(201);
    expect(await seatOf('parked@example.com')).toBeNull();
  });
});

describe('Groups are cohorts', () => {
  let a: string;
  let b: string;
  let group: string;

  beforeAll(async () => {
    const list = (await scim('GET', `/Users?filter=${encodeURIComponent('userName sw "filler"')}&count=2`))
      .body;
    [a, b] = list.Resources.map((r: Json) => r.id);
  });

  it('creates a cohort with members and finds it by displayName', async () => {
    const made = await scim('POST', '/Groups', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
      displayName: 'Sales Team',
      externalId: 'okta-grp-1',
      members: [{ value: a, display: 'Filler' }],
    });
    expect(made.status, made.text).toBe(201);
    group = made.body.id;
    expect(made.body.members.map((m: Json) => m.value)).toEqual([a]);
    new SCIMMY.Schemas.Group(made.body, 'out');
    const found = await scim(
      'GET',
      `/Groups?filter=${encodeURIComponent('displayName eq "sales team"')}&excludedAttributes=members`,
    );
    expect(found.body.totalResults).toBe(1);
    expect(found.body.Resources[0].members).toBeUndefined();
    expect(
      (await auditOf('cohort.created')).some((e) => e.targetId === group && e.actorKind === 'scimToken'),
    ).toBe(true);
  });

  it('adds and removes members as Entra ID and Okta send it, and renames', async () => {
    const add = await scim('PATCH', `/Groups/${group}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'Add', path: 'members', value: [{ value: b }] }],
    });
    expect(add.status, add.text).toBe(204);
    let now = (await scim('GET', `/Groups/${group}`)).body;
    expect(now.members.map((m: Json) => m.value).sort()).toEqual([a, b].sort());
    // Entra ID's removal: by value in the operation's value
    await scim('PATCH', `/Groups/${group}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'Remove', path: 'members', value: [{ value: a }] }],
    });
    // Okta's removal: a value filter in the path
    now = (await scim('GET', `/Groups/${group}`)).body;
    expect(now.members.map((m: Json) => m.value)).toEqual([b]);
    await scim('PATCH', `/Groups/${group}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [
        { op: 'remove', path: `members[value eq "${b}"]` },
        { op: 'replace', value: { id: group, displayName: 'Sales EMEA' } },
      ],
    });
    now = (await scim('GET', `/Groups/${group}`)).body;
    expect(now.members).toEqual([]);
    expect(now.displayName).toBe('Sales EMEA');
    const memberRows = await server.db.select().from(cohortMembers).where(eq(cohortMembers.cohortId, group));
    expect(memberRows).toHaveLength(0);
    // a member that is not one of this tenant's users
    const bad = await scim('PATCH', `/Groups/${group}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [
        { op: 'add', path: 'members', value: [{ value: '00000000-0000-4000-8000-000000000000' }] },
      ],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.scimType).toBe('invalidValue');
    // a user's groups
    await scim('PATCH', `/Groups/${group}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'add', path: 'members', value: [{ value: a }] }],
    });
    expect((await scim('GET', `/Users/${a}`)).body.groups).toEqual([
      expect.objectContaining({ value: group, display: 'Sales EMEA' }),
    ]);
    const byMember = await scim('GET', `/Groups?filter=${encodeURIComponent(`members[value eq "${a}"]`)}`);
    expect(byMember.body.Resources.map((g: Json) => g.id)).toEqual([group]);
  });

  it('shows the directory’s cohort read-only in the portal, and takes over a cohort it changes', async () => {
    const shown = await server.get(`/api/tenant/cohorts/${group}`, tenant.auth);
    expect(shown.status, shown.text).toBe(200);
    expect(shown.body.data).toMatchObject({ name: 'Sales EMEA', scimManaged: true, memberCount: 1 });
    expect(shown.body.data.members.map((m: Json) => m.isDisabled)).toEqual([false]);
    const refusals = [
      await server.put(`/api/tenant/cohorts/${group}`, { name: 'Renamed by hand' }, tenant.auth),
      await server.post(
        `/api/tenant/cohorts/${group}/members/remove`,
        { learnerIds: [shown.body.data.members[0]._id] },
        tenant.auth,
      ),
      await server.request('DELETE', `/api/tenant/cohorts/${group}`, undefined, tenant.auth),
    ];
    for (const r of refusals) {
      expect(r.status, r.text).toBe(409);
      expect(r.body.errorCode).toBe('COHORT_MANAGED_BY_SCIM');
    }
    // a cohort made in the portal is the mentor's until the directory changes it
    const own = await server.post('/api/tenant/cohorts', { name: 'Made by hand' }, tenant.auth);
    expect(own.body.data.scimManaged).toBe(false);
    await scim('PATCH', `/Groups/${own.body.data._id}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'add', path: 'members', value: [{ value: b }] }],
    });
    const taken = await server.get(`/api/tenant/cohorts/${own.body.data._id}`, tenant.auth);
    expect(taken.body.data.scimManaged).toBe(true);
    expect((await scim('DELETE', `/Groups/${own.body.data._id}`)).status).toBe(204);
  });

  it('deletes the cohort, the members keeping their seats', async () => {
    expect((await scim('DELETE', `/Groups/${group}`)).status).toBe(204);
    expect((await scim('GET', `/Groups/${group}`)).status).toBe(404);
    expect((await scim('GET', `/Users/${a}`)).body.active).toBe(true);
  });
});

describe('lists and errors', () => {
  it('pages with startIndex and count', async () => {
    const all = (await scim('GET', '/Users?count=200')).body;
    const total = all.totalResults;
    expect(total).toBeGreaterThan(5);
    const page = (await scim('GET', '/Users?startIndex=3&count=2')).body;
    expect(page).toMatchObject({ totalResults: total, startIndex: 3, itemsPerPage: 2 });
    expect(page.Resources.map((r: Json) => r.id)).toEqual(all.Resources.slice(2, 4).map((r: Json) => r.id));
    expect((await scim('GET', '/Users?count=0')).body).toMatchObject({
      totalResults: total,
      itemsPerPage: 0,
    });
    expect((await scim('GET', '/Users?startIndex=x')).status).toBe(400);
  });

  it('answers bad requests in SCIM’s error shape, with scimType', async () => {
    const cases: [string, string, unknown, number, string | undefined][] = [
      ['GET', `/Users?filter=${encodeURIComponent('userName eq')}`, undefined, 400, 'invalidFilter'],
      ['GET', `/Users?filter=${encodeURIComponent('password eq "x"')}`, undefined, 400, 'invalidFilter'],
      ['POST', '/Users', { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'] }, 400, 'invalidValue'],
      ['POST', '/Users', '{"userName": ', 400, 'invalidSyntax'],
      [
        'PATCH',
        '/Users/00000000-0000-4000-8000-000000000000',
        {
          schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
          Operations: [{ op: 'replace', value: { active: false } }],
        },
        404,
        undefined,
      ],
      ['GET', '/Users/not-an-id', undefined, 404, undefined],
      ['GET', '/Nothing', undefined, 404, undefined],
    ];
    for (const [method, path, body, status, scimType] of cases) {
      const res = await scim(method, path, body);
      expect(res.status, `${method} ${path} ${res.text}`).toBe(status);
      expect(res.body.schemas, `${method} ${path}`).toEqual(['urn:ietf:params:scim:api:messages:2.0:Error']);
      expect(res.body.status).toBe(String(status));
      expect(res.body.scimType).toBe(scimType);
    }
    const someone = (await scim('GET', '/Users?count=1')).body.Resources[0].id;
    const badOp = await scim('PATCH', `/Users/${someone}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'move', path: 'title', value: 'x' }],
    });
    expect(badOp.body.scimType).toBe('invalidSyntax');
    const readOnly = await scim('PATCH', `/Users/${someone}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'replace', path: 'groups', value: [] }],
    });
    expect(readOnly.body.scimType).toBe('mutability');
  });

  it('never shows or changes another tenant’s users', async () => {
    const stranger = await server.signedIn('TENANT', { profile: true });
    const theirs = await makeToken('Theirs', stranger);
    const mine = (await scim('GET', '/Users?count=1')).body.Resources[0];
    const as = (method: string, path: string, body?: unknown) =>
      fetch(`${base}/scim/v2${path}`, {
        method,
        headers: { authorization: `Bearer ${theirs.token}`, 'content-type': 'application/scim+json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    expect((await as('GET', `/Users/${mine.id}`)).status).toBe(404);
    expect((await as('DELETE', `/Users/${mine.id}`)).status).toBe(404);
    const list = await (
      await as('GET', `/Users?filter=${encodeURIComponent(`userName eq "${mine.userName}"`)}`)
    ).json();
    expect(list.totalResults).toBe(0);
    // the same person provisioned by the other tenant is one learner, seated in both
    const dup = await as('POST', '/Users', oktaUser(mine.userName, 'Shared', 'Person'));
    expect(dup.status).toBe(201);
    expect((await scim('GET', `/Users/${mine.id}`)).body.active).toBe(true);
    // what the directory did, each entry said again in the reader's language (issue 31)
    await expectLogSaid(server.db, tenant.user._id, ['seat.added', 'cohort.created', 'cohort.member_added']);
  });
});
