/**
 * A stand-in SAML 2.0 identity provider for tests (decision 047), written from the standard's own text and
 * not from node-saml: its metadata (SAML Metadata §2.4.3), the AuthnRequest read from the HTTP-Redirect
 * binding (SAML Bindings §3.4.4.1: base64 of the DEFLATE-compressed request), and a Response (SAML Core
 * §3.3.3, §2.3.3) with one bearer Assertion (SAML Profiles §4.1.4.2) signed with `xml-crypto` — enveloped,
 * exclusive canonicalisation, RSA-SHA256 (XML Signature; SAML Core §5.4) — delivered by the HTTP-POST binding
 * (§3.5: an auto-submitted form). Options bend each rule, for the tests that must see each bent one refused.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { SignedXml } from 'xml-crypto';

const SAMLP = 'urn:oasis:names:tc:SAML:2.0:protocol';
const SAML = 'urn:oasis:names:tc:SAML:2.0:assertion';
const EXC_C14N = 'http://www.w3.org/2001/10/xml-exc-c14n#';

/** An RSA key and a self-signed certificate, made by openssl. */
export function keyPair(name: string) {
  const dir = mkdtempSync(join(tmpdir(), 'saml-idp-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '30',
      '-subj',
      `/CN=${name}`,
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ],
    { stdio: 'pipe' },
  );
  const certPem = readFileSync(join(dir, 'cert.pem'), 'utf8');
  return {
    keyPem: readFileSync(join(dir, 'key.pem'), 'utf8'),
    certPem,
    certDer: certPem.replace(/-----[A-Z ]+-----|\s/g, ''),
  };
}
export type KeyPair = ReturnType<typeof keyPair>;

const esc = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The AuthnRequest an HTTP-Redirect URL carries: its ID, where to answer, and who asks. */
export function readAuthnRequest(url: string) {
  const xml = inflateRawSync(Buffer.from(new URL(url).searchParams.get('SAMLRequest')!, 'base64')).toString(
    'utf8',
  );
  const attr = (name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(xml)?.[1] ?? '';
  return {
    xml,
    id: attr('ID'),
    acsUrl: attr('AssertionConsumerServiceURL'),
    issuer: /<(?:\w+:)?Issuer[^>]*>([^<]*)</.exec(xml)?.[1] ?? '',
  };
}

export interface ResponseOptions {
  requestId: string;
  acsUrl: string;
  audience: string;
  email: string;
  name?: string;
  /** Defaults to the IdP's own. */
  issuer?: string;
  assertionId?: string;
  destination?: string | null;
  recipient?: string;
  notBefore?: number;
  notOnOrAfter?: number;
  /** What is signed: the assertion (the usual), the whole response, or nothing. */
  sign?: 'assertion' | 'response' | 'none';
  /** Signed with another key than the one in the metadata. */
  key?: KeyPair;
}

export class SamlIdp {
  readonly keys = keyPair('Stand-in SAML IdP');
  private server?: Server;
  url = '';
  /** Who signs in next on the IdP's page (the e2e's form). */
  nextPerson: { email: string; name: string } | null = null;

  get entityId() {
    return `${this.url}/saml/metadata`;
  }

  metadata(): string {
    return `<?xml version="1.0"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${esc(this.entityId)}">
  <md:IDPSSODescriptor WantAuthnRequestsSigned="false" protocolSupportEnumeration="${SAMLP}">
    <md:KeyDescriptor use="signing">
      <ds:KeyInfo><ds:X509Data><ds:X509Certificate>${this.keys.certDer}</ds:X509Certificate></ds:X509Data></ds:KeyInfo>
    </md:KeyDescriptor>
    <md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</md:NameIDFormat>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${esc(this.url)}/saml/sso"/>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${esc(this.url)}/saml/sso"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>`;
  }

  /** A Response (base64, as the HTTP-POST binding's SAMLResponse field carries it). */
  response(o: ResponseOptions): string {
    const now = Date.now();
    const issuer = esc(o.issuer ?? this.entityId);
    const assertionId = o.assertionId ?? `_a${randomUUID()}`;
    const notOnOrAfter = iso(o.notOnOrAfter ?? now + 5 * 60_000);
    const destination = o.destination === null ? '' : ` Destination="${esc(o.destination ?? o.acsUrl)}"`;
    const attributes = o.name
      ? `<saml:AttributeStatement><saml:Attribute Name="displayName" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:basic"><saml:AttributeValue>${esc(o.name)}</saml:AttributeValue></saml:Attribute></saml:AttributeStatement>`
      : '';
    const assertion = `<saml:Assertion xmlns:saml="${SAML}" ID="${assertionId}" Version="2.0" IssueInstant="${iso(now)}"><saml:Issuer>${issuer}</saml:Issuer><saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${esc(o.email)}</saml:NameID><saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData InResponseTo="${esc(o.requestId)}" Recipient="${esc(o.recipient ?? o.acsUrl)}" NotOnOrAfter="${notOnOrAfter}"/></saml:SubjectConfirmation></saml:Subject><saml:Conditions NotBefore="${iso(o.notBefore ?? now - 60_000)}" NotOnOrAfter="${notOnOrAfter}"><saml:AudienceRestriction><saml:Audience>${esc(o.audience)}</saml:Audience></saml:AudienceRestriction></saml:Conditions><saml:AuthnStatement AuthnInstant="${iso(now)}" SessionIndex="_s${randomUUID()}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>${attributes}</saml:Assertion>`;
    const xml = `<samlp:Response xmlns:samlp="${SAMLP}" xmlns:saml="${SAML}" ID="_r${randomUUID()}" Version="2.0" IssueInstant="${iso(now)}"${destination} InResponseTo="${esc(o.requestId)}"><saml:Issuer>${issuer}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>${assertion}</samlp:Response>`;
    const sign = o.sign ?? 'assertion';
    const signed =
      sign === 'none' ? xml : this.sign(xml, sign === 'assertion' ? 'Assertion' : 'Response', o.key);
    return Buffer.from(signed, 'utf8').toString('base64');
  }

  /** An enveloped signature over the element, placed after its Issuer (SAML Core §5.4.1, §5.4.2). */
  sign(xml: string, element: 'Assertion' | 'Response', key: KeyPair = this.keys): string {
    const sig = new SignedXml({
      privateKey: key.keyPem,
      publicCert: key.certPem,
      signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
      canonicalizationAlgorithm: EXC_C14N,
    });
    const target = `//*[local-name(.)='${element}']`;
    sig.addReference({
      xpath: target,
      transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', EXC_C14N],
      digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
    });
    sig.computeSignature(xml, {
      prefix: 'ds',
      location: { reference: `${target}/*[local-name(.)='Issuer']`, action: 'after' },
    });
    return sig.getSignedXml();
  }

  /** Serves the metadata and a sign-in page that answers the AuthnRequest for `nextPerson` (HTTP-POST). */
  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', this.url);
      if (url.pathname === '/saml/metadata') {
        res.setHeader('content-type', 'application/samlmetadata+xml');
        return res.end(this.metadata());
      }
      if (url.pathname === '/saml/sso' && this.nextPerson) {
        const request = readAuthnRequest(url.toString());
        const samlResponse = this.response({
          requestId: request.id,
          acsUrl: request.acsUrl,
          audience: request.issuer,
          ...this.nextPerson,
        });
        res.setHeader('content-type', 'text/html; charset=utf-8');
        return res.end(`<!doctype html><html lang="en"><head><title>Stand-in identity provider</title></head><body><main>
<h1>Stand-in identity provider</h1><p>Signing in ${esc(this.nextPerson.email)}</p>
<form method="post" action="${esc(request.acsUrl)}"><input type="hidden" name="SAMLResponse" value="${samlResponse}"/>
<button type="submit">Continue to Waymark</button></form></main></body></html>`);
      }
      res.statusCode = 404;
      res.end();
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop() {
    await new Promise((r) => (this.server ? this.server.close(r) : r(null)));
  }
}
