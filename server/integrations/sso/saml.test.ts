/**
 * SAML 2.0 single sign-on (issue 28 item 1; decision 047) against the real server over real HTTP and a
 * stand-in identity provider written from the SAML text and signing with xml-crypto (server/test/saml-idp.ts,
 * not node-saml): the tenant gives the IdP's metadata URL, Waymark publishes its own metadata, the
 * AuthnRequest goes by HTTP-Redirect and the Response comes back by HTTP-POST to the ACS — to a session,
 * the learner linked and seated just in time through the same path as OIDC. Then every strict check, each
 * with a Response bent in one way only: unsigned, another key, a wrapped or altered assertion, Issuer,
 * Audience, Destination, Recipient, InResponseTo, the time window, a request or an assertion used twice.
 */

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tenantUsers } from '../../db/schema';
import { expectLogSaid } from '../../test/audit-said';
import { type SignedIn, setupServer } from '../../test/helper';
import { keyPair, type ResponseOptions, readAuthnRequest, SamlIdp } from '../../test/saml-idp';
import { auditEvents, externalIdentities } from '../core/tables';
import { sweepSso } from './login';
import { samlAssertions, ssoDomains } from './tables';

const port = await new Promise<number>((resolve) => {
  const probe = createServer().listen(0, '127.0.0.1', () => {
    const { port } = probe.address() as AddressInfo;
    probe.close(() => resolve(port));
  });
});
const base = `http://127.0.0.1:${port}`;
const server = setupServer({ env: { PUBLIC_URL: base } });
const idp = new SamlIdp();
let tenant: SignedIn;
let sp: { entityId: string; acsUrl: string; metadataUrl: string; nameIdFormat: string };

beforeAll(async () => {
  await server.app.listen({ port, host: '127.0.0.1' });
  await idp.start();
  tenant = await server.signedIn('TENANT', { profile: true, name: 'Initech Mentor' });
  await server.db.insert(ssoDomains).values({
    tenantId: tenant.user._id,
    domain: 'initech.example',
    token: 'test-token',
    verifiedAt: new Date(),
    verifiedBy: 'EMAIL',
  });
}, 60_000);

afterAll(() => idp.stop());

/** "Continue with your organisation": the AuthnRequest the browser is sent with. */
async function begin(email: string) {
  const start = await server.post('/api/login/sso/start', { email });
  expect(start.status, start.text).toBe(200);
  expect(start.body.data.organisation).toBe('Initech');
  return readAuthnRequest(start.body.data.redirectUrl);
}

/** The browser POSTing the IdP's form to the ACS: where Waymark sends it next. */
async function post(samlResponse: string, acsUrl = sp.acsUrl) {
  const res = await fetch(acsUrl, {
    method: 'POST',
    body: new URLSearchParams({ SAMLResponse: samlResponse }),
    redirect: 'manual',
  });
  expect(res.status).toBe(303);
  return res.headers.get('location')!;
}

const FAILED = `${base}/login/sso?error=FAILED&organisation=Initech`;

/** A fresh request answered by a Response bent by `bend`; where the browser lands. */
async function answer(bend: Partial<ResponseOptions> = {}, email = 'peter@initech.example') {
  const request = await begin(email);
  return post(
    idp.response({ requestId: request.id, acsUrl: request.acsUrl, audience: request.issuer, email, ...bend }),
  );
}

describe('setting up SAML', () => {
  it('refuses metadata that is not an IdP’s, reads it from its URL, and shows both sides', async () => {
    const bad = await server.request(
      'PUT',
      '/api/tenant/sso/saml',
      { displayName: 'Initech', metadataXml: '<EntityDescriptor entityID="x"/>' },
      tenant.auth,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('metadataXml');
    expect(bad.body.message).toBe('metadataXml: has no EntityDescriptor with an IDPSSODescriptor');
    // the check's result in the language the page asks in (issue 31)
    const spanish = await server.request(
      'PUT',
      '/api/tenant/sso/saml',
      { displayName: 'Initech', metadataXml: '<EntityDescriptor entityID="x"/>' },
      { ...tenant.auth, headers: { 'accept-language': 'es' } },
    );
    expect(spanish.body).toMatchObject({
      field: 'metadataXml',
      message: 'metadataXml: no tiene ningún EntityDescriptor con un IDPSSODescriptor',
      fields: { metadataXml: 'metadataXml: no tiene ningún EntityDescriptor con un IDPSSODescriptor' },
    });
    const nothing = await server.request(
      'PUT',
      '/api/tenant/sso/saml',
      { displayName: 'Initech' },
      tenant.auth,
    );
    expect(nothing.status).toBe(400);
    const saved = await server.request(
      'PUT',
      '/api/tenant/sso/saml',
      { displayName: 'Initech', metadataUrl: `${idp.url}/saml/metadata` },
      tenant.auth,
    );
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.data).toMatchObject({
      protocol: 'saml',
      idpEntityId: idp.entityId,
      idpSsoUrl: `${idp.url}/saml/sso`,
      idpMetadataUrl: `${idp.url}/saml/metadata`,
    });
    expect(saved.body.data.idpCertificates[0].subject).toContain('Stand-in SAML IdP');
    const settings = await server.get('/api/tenant/sso', tenant.auth);
    sp = settings.body.data.saml;
    expect(sp).toEqual({
      entityId: `${base}/api/sso/saml/${tenant.user._id}/metadata`,
      metadataUrl: `${base}/api/sso/saml/${tenant.user._id}/metadata`,
      acsUrl: `${base}/api/sso/saml/${tenant.user._id}/acs`,
      nameIdFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
    });
    // Waymark's metadata at its entity id (SAML Metadata §2.4.4)
    const metadata = await fetch(sp.metadataUrl);
    expect(metadata.headers.get('content-type')).toContain('application/samlmetadata+xml');
    const xml = await metadata.text();
    expect(xml).toContain(`entityID="${sp.entityId}"`);
    expect(xml).toMatch(
      new RegExp(
        `AssertionConsumerService[^>]*Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST"[^>]*Location="${sp.acsUrl}"`,
      ),
    );
    expect(xml).toContain(
      '<NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</NameIDFormat>',
    );
    expect(
      (await fetch(`${base}/api/sso/saml/${(await server.signedIn('USER')).user._id}/metadata`)).status,
    ).toBe(404);
    const [logged] = await server.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.tenantId, tenant.user._id), eq(auditEvents.action, 'sso.configured')));
    expect(logged!.summary).toContain('SAML');
    // said again in the reader's language from its details (issue 31)
    await expectLogSaid(server.db, tenant.user._id, ['sso.configured']);
  });
});

describe('signing in through SAML', () => {
  it('sends an AuthnRequest by HTTP-Redirect to the IdP, naming our entity id and ACS', async () => {
    const start = await server.post('/api/login/sso/start', { email: 'peter@initech.example' });
    const url = new URL(start.body.data.redirectUrl);
    expect(`${url.origin}${url.pathname}`).toBe(`${idp.url}/saml/sso`);
    const request = readAuthnRequest(url.toString());
    expect(request.xml).toContain('AuthnRequest');
    expect(request.id).toMatch(/^_/);
    expect(request.acsUrl).toBe(sp.acsUrl);
    expect(request.issuer).toBe(sp.entityId);
    expect(request.xml).toContain(`Destination="${idp.url}/saml/sso"`);
  });

  it('signs the person in: a learner linked to the IdP’s NameID and seated just in time', async () => {
    const landing = await answer({ name: 'Peter Gibbons' });
    expect(landing).toMatch(new RegExp(`^${base}/login/sso#handoff=`));
    const finish = await server.post('/api/login/sso/finish', {
      handoff: new URL(landing).hash.replace(/^#handoff=/, ''),
    });
    expect(finish.status, finish.text).toBe(200);
    expect(finish.body.data.user).toMatchObject({
      email: 'peter@initech.example',
      role: 'USER',
      name: 'Peter Gibbons',
    });
    const [identity] = await server.db
      .select()
      .from(externalIdentities)
      .where(eq(externalIdentities.userId, finish.body.data.user._id));
    expect(identity).toMatchObject({ issuer: idp.entityId, subject: 'peter@initech.example', source: 'sso' });
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
    expect(added!.actorLabel).toContain('single sign-on through Initech');
  });

  it('accepts a Response signed as a whole instead of its Assertion', async () => {
    expect(await answer({ sign: 'response' })).toMatch(/#handoff=/);
  });

  it('refuses an unsigned Response, and one signed with a key not in the metadata', async () => {
    expect(await answer({ sign: 'none' })).toBe(FAILED);
    expect(await answer({ key: keyPair('Someone else') })).toBe(FAILED);
    expect(await answer({ sign: 'response', key: keyPair('Someone else') })).toBe(FAILED);
  });

  it('refuses a signed assertion altered after signing, and wrapped ones (XML signature wrapping)', async () => {
    const altered = async () => {
      const request = await begin('peter@initech.example');
      const good = idp.response({
        requestId: request.id,
        acsUrl: request.acsUrl,
        audience: request.issuer,
        email: 'peter@initech.example',
      });
      return { request, xml: Buffer.from(good, 'base64').toString('utf8') };
    };
    const b64 = (xml: string) => Buffer.from(xml, 'utf8').toString('base64');
    // the NameID changed under the signature
    {
      const { xml } = await altered();
      expect(await post(b64(xml.replace('>peter@initech.example<', '>bill@initech.example<')))).toBe(FAILED);
    }
    // an unsigned evil assertion beside the signed one
    {
      const { xml } = await altered();
      const signed = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(xml)![0];
      const evil = signed
        .replace(/<ds:Signature[\s\S]*<\/ds:Signature>/, '')
        .replace(/ID="[^"]+"/, 'ID="_evil"')
        .replace('>peter@initech.example<', '>bill@initech.example<');
      expect(await post(b64(xml.replace(signed, `${evil}${signed}`)))).toBe(FAILED);
    }
    // the evil assertion in its place, the signed one hidden inside it (Advice)
    {
      const { xml } = await altered();
      const signed = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(xml)![0];
      const evil = signed
        .replace(/<ds:Signature[\s\S]*<\/ds:Signature>/, '')
        .replace(/ID="[^"]+"/, 'ID="_evil"')
        .replace('>peter@initech.example<', '>bill@initech.example<')
        .replace('</saml:Assertion>', `<saml:Advice>${signed}</saml:Advice></saml:Assertion>`);
      expect(await post(b64(xml.replace(signed, evil)))).toBe(FAILED);
    }
    // the signed Response's assertion swapped for an unsigned one
    {
      const request = await begin('peter@initech.example');
      const xml = Buffer.from(
        idp.response({
          requestId: request.id,
          acsUrl: request.acsUrl,
          audience: request.issuer,
          email: 'peter@initech.example',
          sign: 'response',
        }),
        'base64',
      ).toString('utf8');
      expect(await post(b64(xml.replace('>peter@initech.example<', '>bill@initech.example<')))).toBe(FAILED);
    }
    const bill = await server.db
      .select()
      .from(externalIdentities)
      .where(eq(externalIdentities.subject, 'bill@initech.example'));
    expect(bill).toHaveLength(0);
  });

  it.each([
    ['Issuer', { issuer: 'https://evil.example/idp' }],
    ['Audience', { audience: 'https://another-sp.example' }],
    ['Destination', { destination: 'https://another-sp.example/acs' }],
    ['Recipient', { recipient: 'https://another-sp.example/acs' }],
    ['Recipient (a signed Response)', { recipient: 'https://another-sp.example/acs', sign: 'response' }],
    ['Destination missing from a signed Response', { destination: null, sign: 'response' }],
  ] as const)('refuses another %s', async (_what, bend) => {
    expect(await answer(bend)).toBe(FAILED);
  });

  it('allows a Response without Destination when it is not signed as a whole (SAML Bindings §3.5.5.2)', async () => {
    expect(await answer({ destination: null })).toMatch(/#handoff=/);
  });

  it('holds to NotBefore / NotOnOrAfter with a minute’s skew', async () => {
    expect(await answer({ notOnOrAfter: Date.now() - 2 * 60_000 })).toBe(FAILED);
    expect(await answer({ notBefore: Date.now() + 5 * 60_000 })).toBe(FAILED);
    // within the skew
    expect(await answer({ notBefore: Date.now() + 20_000 })).toMatch(/#handoff=/);
  });

  it('takes each request once, refuses a Response to no request of ours and an assertion seen before', async () => {
    const request = await begin('peter@initech.example');
    const response = idp.response({
      requestId: request.id,
      acsUrl: request.acsUrl,
      audience: request.issuer,
      email: 'peter@initech.example',
      assertionId: '_assertion-used-once',
    });
    expect(await post(response)).toMatch(/#handoff=/);
    // the same Response again: its request was taken
    expect(await post(response)).toBe(`${base}/login/sso?error=EXPIRED`);
    // a Response naming a request never made (unsolicited, or forged)
    expect(
      await post(
        idp.response({
          requestId: '_never-asked',
          acsUrl: sp.acsUrl,
          audience: sp.entityId,
          email: 'peter@initech.example',
        }),
      ),
    ).toBe(`${base}/login/sso?error=EXPIRED`);
    // the same assertion id answering a new request
    expect(await answer({ assertionId: '_assertion-used-once' })).toBe(FAILED);
    const seen = await server.db
      .select()
      .from(samlAssertions)
      .where(eq(samlAssertions.assertionId, '_assertion-used-once'));
    expect(seen).toHaveLength(1);
    // another organisation's ACS does not take this organisation's request
    const other = await server.signedIn('TENANT', { profile: true });
    const elsewhere = await begin('peter@initech.example');
    expect(
      await post(
        idp.response({
          requestId: elsewhere.id,
          acsUrl: elsewhere.acsUrl,
          audience: elsewhere.issuer,
          email: 'peter@initech.example',
        }),
        `${base}/api/sso/saml/${other.user._id}/acs`,
      ),
    ).toBe(`${base}/login/sso?error=EXPIRED`);
  });

  it('lets another process finish a sign-in this one started, once', async () => {
    const other = await server.anotherProcess();
    try {
      const request = await begin('peter@initech.example');
      const response = idp.response({
        requestId: request.id,
        acsUrl: request.acsUrl,
        audience: request.issuer,
        email: 'peter@initech.example',
      });
      const acs = (app: typeof other.app) =>
        app.inject({
          method: 'POST',
          url: new URL(sp.acsUrl).pathname,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams({ SAMLResponse: response }).toString(),
        });
      const there = await acs(other.app);
      expect(there.statusCode).toBe(303);
      const handoff = new URL(there.headers.location as string).hash.replace(/^#handoff=/, '');
      expect(handoff).not.toBe('');
      // and the first process cannot take it again
      expect((await acs(server.app)).headers.location).toBe(`${base}/login/sso?error=EXPIRED`);
      const finish = await other.app.inject({
        method: 'POST',
        url: '/api/login/sso/finish',
        payload: { handoff },
      });
      expect(finish.statusCode, finish.body).toBe(200);
    } finally {
      await other.close();
    }
  });

  it('refuses an address outside the verified domains', async () => {
    const request = await begin('peter@initech.example');
    expect(
      await post(
        idp.response({
          requestId: request.id,
          acsUrl: request.acsUrl,
          audience: request.issuer,
          email: 'peter@elsewhere.example',
        }),
      ),
    ).toBe(`${base}/login/sso?error=WRONG_DOMAIN&organisation=Initech`);
  });

  describe('the daily sweep', () => {
    it('deletes spent assertion ids and old sign-ins, and keeps those still in their time', async () => {
      const now = new Date();
      await server.db.insert(samlAssertions).values([
        { tenantId: tenant.user._id, assertionId: '_spent', expiresAt: new Date(now.getTime() - 1000) },
        { tenantId: tenant.user._id, assertionId: '_live', expiresAt: new Date(now.getTime() + 60_000) },
      ]);
      await begin('peter@initech.example');
      const swept = await sweepSso(server.db, new Date(now.getTime() + 2 * 86_400_000));
      expect(swept.logins).toBeGreaterThan(0);
      const left = (await server.db.select().from(samlAssertions)).map((a) => a.assertionId);
      expect(left).not.toContain('_spent');
      expect(left).not.toContain('_live');
      await server.db.insert(samlAssertions).values({
        tenantId: tenant.user._id,
        assertionId: '_live',
        expiresAt: new Date(now.getTime() + 60_000),
      });
      await sweepSso(server.db, now);
      expect((await server.db.select().from(samlAssertions)).map((a) => a.assertionId)).toContain('_live');
    });
  });
});
