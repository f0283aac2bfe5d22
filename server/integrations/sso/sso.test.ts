/**
 * Single sign-on through an organisation's OpenID Connect provider (issue 28 item 1; decision 043), against
 * the real server over real HTTP and a stand-in provider built with `oidc-provider` (panva's certified
 * OpenID Provider, an independent implementation): the tenant sets it up (discovery read, secret sealed),
 * proves its domain by a mailed code, and a learner goes through the whole redirect flow — authorization
 * request with PKCE, the provider's login, the callback, the code redeemed, the ID token checked — to a
 * Waymark session, linked as an outside identity and seated just in time. Then: the sign-in taken once,
 * no seat free, SSO required for the domain, another tenant's domain.
 */

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox, tenantUsers, users } from '../../db/schema';
import { expectLogSaid } from '../../test/audit-said';
import { DnsServer } from '../../test/dns-server';
import { type SignedIn, setupServer } from '../../test/helper';
import { auditEvents, externalIdentities } from '../core/tables';
import { ssoConnections } from './tables';

/** A free port, so the server's public address (where the provider sends the browser back) is known first. */
const port = await new Promise<number>((resolve) => {
  const probe = createServer().listen(0, '127.0.0.1', () => {
    const { port } = probe.address() as AddressInfo;
    probe.close(() => resolve(port));
  });
});
// the domain's TXT record is asked of a DNS server of our own (which holds none), not the machine's
const dns = new DnsServer();
await dns.start();
const server = setupServer({ env: { PUBLIC_URL: `http://127.0.0.1:${port}`, DNS_SERVERS: dns.address } });
const CLIENT_SECRET = 'a-client-secret-of-the-stand-in-provider-0123456789';

let base: string;
let issuer: string;
let provider: Server;
let tenant: SignedIn;
/** Who the stand-in provider signs in next. */
let nextPerson: { sub: string; email: string; name: string } = { sub: '', email: '', name: '' };
const people = new Map<string, { sub: string; email: string; name: string }>();

// biome-ignore lint/suspicious/noExplicitAny: oidc-provider ships no types
type Any = any;

/** A browser's cookie jar, enough for the provider's interaction cookies. */
class Browser {
  private cookies = new Map<string, string>();
  async get(url: string) {
    const res = await fetch(url, {
      redirect: 'manual',
      headers: { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const at = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    return res;
  }
  /** Follows redirects until one leads back to Waymark's sign-in page; that location. */
  async follow(url: string): Promise<string> {
    let next = url;
    for (let i = 0; i < 10; i++) {
      if (next.startsWith(`${base}/login/sso`)) return next;
      const res = await this.get(next);
      const location = res.headers.get('location');
      if (!location)
        throw new Error(`${next} answered ${res.status} without a redirect: ${await res.text()}`);
      next = new URL(location, next).toString();
    }
    throw new Error('too many redirects');
  }
}

async function startProvider() {
  const { default: Provider } = (await import('oidc-provider' as string)) as Any;
  provider = createServer();
  await new Promise<void>((r) => provider.listen(0, '127.0.0.1', r));
  issuer = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;
  const oidc = new Provider(issuer, {
    clients: [
      {
        client_id: 'waymark',
        client_secret: CLIENT_SECRET,
        redirect_uris: [`${base}/api/login/sso/callback`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    pkce: { required: () => true },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx: Any, interaction: Any) => `/interaction/${interaction.uid}` },
    cookies: { keys: ['stand-in-provider-cookie-key'] },
    findAccount: async (_ctx: Any, sub: string) => {
      const person = people.get(sub);
      if (!person) return undefined;
      return {
        accountId: sub,
        claims: async () => ({ sub, email: person.email, email_verified: true, name: person.name }),
      };
    },
  });
  const callback = oidc.callback();
  provider.on('request', async (req, res) => {
    if (!req.url?.startsWith('/interaction/')) return callback(req, res);
    // the provider's login page: the person signs in and consents at once
    try {
      const details = await oidc.interactionDetails(req, res);
      people.set(nextPerson.sub, nextPerson);
      const grant = new oidc.Grant({ accountId: nextPerson.sub, clientId: details.params.client_id });
      grant.addOIDCScope('openid email profile');
      const grantId = await grant.save();
      await oidc.interactionFinished(
        req,
        res,
        { login: { accountId: nextPerson.sub }, consent: { grantId } },
        { mergeWithLastSubmission: false },
      );
    } catch (err) {
      res.statusCode = 500;
      res.end(String(err));
    }
  });
}

/** The whole flow for `person` typing `email`: where the browser lands on Waymark's sign-in page. */
async function signInThroughOrganisation(person: typeof nextPerson) {
  nextPerson = person;
  const start = await server.post('/api/login/sso/start', { email: person.email });
  expect(start.status, start.text).toBe(200);
  expect(start.body.data.organisation).toBe('Acme Corp');
  const url = new URL(start.body.data.redirectUrl);
  expect(url.origin).toBe(issuer);
  expect(url.searchParams.get('code_challenge_method')).toBe('S256');
  expect(url.searchParams.get('login_hint')).toBe(person.email);
  return new Browser().follow(start.body.data.redirectUrl);
}

const handoffOf = (landing: string) => new URL(landing).hash.replace(/^#handoff=/, '');

beforeAll(async () => {
  await server.app.listen({ port, host: '127.0.0.1' });
  base = `http://127.0.0.1:${port}`;
  await startProvider();
  tenant = await server.signedIn('TENANT', { profile: true, name: 'Acme Mentor' });
}, 60_000);

afterAll(async () => {
  await new Promise((r) => provider?.close(r));
  await dns.stop();
});

describe('setting up single sign-on', () => {
  it('reads the provider’s discovery document, refuses a wrong issuer, and seals the secret', async () => {
    const wrong = await server.request(
      'PUT',
      '/api/tenant/sso',
      {
        displayName: 'Acme Corp',
        issuer: `${issuer}/nothing-here`,
        clientId: 'waymark',
        clientSecret: CLIENT_SECRET,
      },
      tenant.auth,
    );
    expect(wrong.status).toBe(400);
    expect(wrong.body.field).toBe('issuer');
    const saved = await server.request(
      'PUT',
      '/api/tenant/sso',
      {
        displayName: 'Acme Corp',
        issuer,
        clientId: 'waymark',
        clientSecret: CLIENT_SECRET,
      },
      tenant.auth,
    );
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.data).toMatchObject({
      issuer,
      clientId: 'waymark',
      hasClientSecret: true,
      enabled: true,
      requireSso: false,
    });
    expect(saved.text).not.toContain(CLIENT_SECRET);
    const [row] = await server.db
      .select()
      .from(ssoConnections)
      .where(eq(ssoConnections.tenantId, tenant.user._id));
    expect(JSON.stringify(row!.settings)).not.toContain(CLIENT_SECRET);
    const settings = await server.get('/api/tenant/sso', tenant.auth);
    expect(settings.body.data.callbackUrl).toBe(`${base}/api/login/sso/callback`);
  });

  it('verifies a domain by a code mailed to its administrator, and refuses public mail domains', async () => {
    expect((await server.post('/api/tenant/sso/domains', { domain: 'gmail.com' }, tenant.auth)).status).toBe(
      400,
    );
    const added = await server.post('/api/tenant/sso/domains', { domain: 'Acme.Example.' }, tenant.auth);
    expect(added.status, added.text).toBe(201);
    const domain = added.body.data;
    expect(domain).toMatchObject({
      domain: 'acme.example',
      status: 'PENDING',
      txtName: '_waymark-verification.acme.example',
    });
    // before it is verified, the domain's addresses have no organisation sign-in
    expect(
      (await server.post('/api/login/sso/start', { email: 'someone@acme.example' })).body.errorCode,
    ).toBe('NO_SSO');
    // no TXT record in this test's DNS
    const dns = await server.post(`/api/tenant/sso/domains/${domain._id}/verify`, {}, tenant.auth);
    expect(dns.status).toBe(400);
    expect(dns.body.errorCode).toBe('TXT_NOT_FOUND');
    expect(dns.body.message).toBe(
      `The TXT record _waymark-verification.acme.example does not say ${domain.txtValue} yet (DNS changes can take a while)`,
    );
    // in the language the page asks in (issue 31), the record's name and value as they are
    const [es, ar] = await Promise.all(
      ['es', 'ar'].map((lang) =>
        server.post(
          `/api/tenant/sso/domains/${domain._id}/verify`,
          {},
          {
            ...tenant.auth,
            headers: { 'accept-language': lang },
          },
        ),
      ),
    );
    expect(es!.body.message).toMatch(
      /^El registro TXT _waymark-verification\.acme\.example aún no dice waymark-verification=/,
    );
    expect(ar!.body.message).toContain('لا يتضمن سجل TXT _waymark-verification.acme.example');
    const publicMail = await server.post(
      '/api/tenant/sso/domains',
      { domain: 'gmail.com' },
      {
        ...tenant.auth,
        headers: { 'accept-language': 'es' },
      },
    );
    expect(publicMail.body).toMatchObject({
      field: 'domain',
      message:
        'domain: gmail.com es un servicio de correo público; reclama el dominio propio de tu organización',
    });
    const mailed = await server.post(
      `/api/tenant/sso/domains/${domain._id}/mail-code`,
      { mailbox: 'webmaster' },
      tenant.auth,
    );
    expect(mailed.status, mailed.text).toBe(200);
    const [mail] = await server.db.select().from(outbox).where(eq(outbox.to, 'webmaster@acme.example'));
    const code = /code: (\d{6})/.exec(mail!.text)![1]!;
    const bad = await server.post(
      `/api/tenant/sso/domains/${domain._id}/verify`,
      { code: code === '000000' ? '111111' : '000000' },
      tenant.auth,
    );
    expect(bad.status).toBe(400);
    const good = await server.post(`/api/tenant/sso/domains/${domain._id}/verify`, { code }, tenant.auth);
    expect(good.status, good.text).toBe(200);
    expect(good.body.data).toMatchObject({ status: 'VERIFIED', verifiedBy: 'EMAIL' });
    // another organisation cannot claim it now
    const other = await server.signedIn('TENANT', { profile: true });
    expect(
      (await server.post('/api/tenant/sso/domains', { domain: 'acme.example' }, other.auth)).status,
    ).toBe(409);
    const actions = (
      await server.db.select().from(auditEvents).where(eq(auditEvents.tenantId, tenant.user._id))
    ).map((e) => e.action);
    expect(actions).toEqual(
      expect.arrayContaining(['sso.configured', 'sso.domain_added', 'sso.domain_verified']),
    );
  });
});

describe('signing in with your organisation', () => {
  const alice = { sub: 'acme-0001', email: 'alice@acme.example', name: 'Alice Acme' };

  it('goes through the provider to a session: a learner account, its identity linked, a seat given', async () => {
    const landing = await signInThroughOrganisation(alice);
    expect(landing).toMatch(/\/login\/sso#handoff=/);
    const finish = await server.post('/api/login/sso/finish', { handoff: handoffOf(landing) });
    expect(finish.status, finish.text).toBe(200);
    expect(finish.body.data.user).toMatchObject({
      email: alice.email,
      role: 'USER',
      name: 'Alice Acme',
      emailVerified: true,
    });
    // the session works
    const me = await server.get('/api/user/me', { token: finish.body.data.token });
    expect(me.status).toBe(200);
    const [identity] = await server.db
      .select()
      .from(externalIdentities)
      .where(
        and(eq(externalIdentities.tenantId, tenant.user._id), eq(externalIdentities.subject, alice.sub)),
      );
    expect(identity).toMatchObject({ issuer, source: 'sso', userId: finish.body.data.user._id });
    const [seat] = await server.db
      .select()
      .from(tenantUsers)
      .where(
        and(eq(tenantUsers.tenantId, tenant.user._id), eq(tenantUsers.learnerId, finish.body.data.user._id)),
      );
    expect(seat?.isDisabled).toBe(false);
    const [added] = await server.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.tenantId, tenant.user._id), eq(auditEvents.action, 'seat.added')));
    expect(added!.actorLabel).toContain('single sign-on through Acme Corp');
    // the handoff works once
    const again = await server.post('/api/login/sso/finish', { handoff: handoffOf(landing) });
    expect(again.status).toBe(401);
    expect(again.body.errorCode).toBe('SSO_HANDOFF_INVALID');
  });

  it('signs the same person in again as the same learner, the seat kept', async () => {
    const landing = await signInThroughOrganisation(alice);
    const finish = await server.post('/api/login/sso/finish', { handoff: handoffOf(landing) });
    expect(finish.status).toBe(200);
    const accounts = await server.db.select().from(users).where(sql`lower(${users.email}) = ${alice.email}`);
    expect(accounts).toHaveLength(1);
    expect(finish.body.data.user._id).toBe(accounts[0]!.id);
  });

  it('refuses a replayed callback and a state it never made', async () => {
    nextPerson = { sub: 'acme-0002', email: 'bob@acme.example', name: 'Bob' };
    const start = await server.post('/api/login/sso/start', { email: nextPerson.email });
    const browser = new Browser();
    // follow up to the callback, without calling it
    let next = start.body.data.redirectUrl as string;
    while (!next.startsWith(`${base}/api/login/sso/callback`)) {
      const res = await browser.get(next);
      next = new URL(res.headers.get('location')!, next).toString();
    }
    const first = await fetch(next, { redirect: 'manual' });
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toMatch(/#handoff=/);
    const replay = await fetch(next, { redirect: 'manual' });
    expect(replay.headers.get('location')).toBe(`${base}/login/sso?error=EXPIRED`);
    const forged = await fetch(`${base}/api/login/sso/callback?code=abc&state=forged`, {
      redirect: 'manual',
    });
    expect(forged.headers.get('location')).toBe(`${base}/login/sso?error=EXPIRED`);
  });

  it('with SSO required, refuses the password sign-in of an address on the domain, naming the organisation', async () => {
    const saved = await server.request(
      'PUT',
      '/api/tenant/sso',
      {
        displayName: 'Acme Corp',
        issuer,
        clientId: 'waymark',
        enabled: true,
        requireSso: true,
      },
      tenant.auth,
    );
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.data.hasClientSecret).toBe(true);
    const account = await server.emulator.createAccount({
      verified: true,
      email: `carol-${Date.now()}-${process.pid}@acme.example`,
    });
    const res = await server.signIn(account, { role: 'USER' });
    expect(res.status).toBe(403);
    expect(res.body.errorCode).toBe('SSO_REQUIRED');
    expect(res.body.message).toContain('Acme Corp signs you in');
    // registering such an address as a learner is refused before anything is written
    const newcomer = await server.emulator.createAccount({
      verified: true,
      email: `erin-${Date.now()}-${process.pid}@acme.example`,
    });
    const signUp = await server.signIn(newcomer, { role: 'USER' });
    expect(signUp.status).toBe(403);
    expect(signUp.body.errorCode).toBe('SSO_REQUIRED');
    const written = await server.db
      .select()
      .from(users)
      .where(sql`lower(${users.email}) = ${newcomer.email.toLowerCase()}`);
    expect(written).toHaveLength(0);
    // an address elsewhere is not concerned
    expect((await server.signedIn('USER')).token).toBeTruthy();
  });

  it('when no seat is free: no session, a clear reason, and the mentor told', async () => {
    // fill the free seats
    const held = (
      await server.db
        .select()
        .from(tenantUsers)
        .where(and(eq(tenantUsers.tenantId, tenant.user._id), eq(tenantUsers.isDisabled, false)))
    ).length;
    for (let i = held; i < 10; i++) {
      const who = await server.signedIn('USER', { profile: true });
      const added = await server.post(
        '/api/tenant/users/add-user-v2',
        { email: who.account.email },
        tenant.auth,
      );
      expect(added.status, added.text).toBe(200);
    }
    const landing = await signInThroughOrganisation({
      sub: 'acme-0099',
      email: 'dave@acme.example',
      name: 'Dave',
    });
    expect(landing).toBe(`${base}/login/sso?error=NO_SEAT&organisation=Acme+Corp`);
    const notices = await server.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.to, tenant.account.email), eq(outbox.kind, 'no-seat')));
    expect(notices).toHaveLength(1);
    // removed: the organisation's sign-in ends; each entry said again in the reader's language (issue 31)
    expect((await server.request('DELETE', '/api/tenant/sso', undefined, tenant.auth)).status).toBe(200);
    await expectLogSaid(server.db, tenant.user._id, [
      'sso.configured',
      'sso.updated',
      'sso.removed',
      'sso.domain_added',
      'sso.domain_verified',
    ]);
  });
});
