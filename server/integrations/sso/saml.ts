/**
 * Waymark as a SAML 2.0 service provider (issue 28 item 1; decision 047), through `@node-saml/node-saml`:
 * the organisation's identity provider from its metadata (SAML Metadata §2.4.3: entityID, the
 * SingleSignOnService of the HTTP-Redirect binding, the signing certificates), Waymark's own metadata per
 * organisation, the AuthnRequest sent by HTTP-Redirect (SAML Bindings §3.4) and the Response received by
 * HTTP-POST at the assertion consumer service (§3.5), checked strictly (SAML Profiles §4.1.4.3):
 * - node-saml: the signature of the Response or of its one Assertion against the configured certificates,
 *   working on what the signature covers only (so a wrapped, unsigned copy is never read), Audience,
 *   NotBefore/NotOnOrAfter with one minute's skew, and InResponseTo naming the request we sent;
 * - here: the Assertion's Issuer, the Response's Destination and the bearer SubjectConfirmationData's
 *   Recipient (our ACS URL) and InResponseTo, which node-saml leaves unchecked. The request id is taken once
 *   from the database before (login.ts), an assertion id refused when seen again (`saml_assertions`).
 */
import { X509Certificate } from 'node:crypto';
import {
  type CacheProvider,
  generateServiceProviderMetadata,
  SAML,
  ValidateInResponseTo,
} from '@node-saml/node-saml';
import type { MessageKey } from '@shared/i18n/keys';
import type { MessageValues } from '@shared/i18n/translator';
import { XMLParser } from 'fast-xml-parser';
import { SaidError } from '../../lib/i18n';
import { guardedFetch } from '../../lib/outbound';

export const NAMEID_EMAIL = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
const REDIRECT_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';
/** How far the identity provider's clock may be from ours. */
const SKEW_MS = 60_000;

/** What a SAML connection keeps (sso_connections.settings). */
export interface SamlSettings {
  idpEntityId: string;
  idpSsoUrl: string;
  /** The identity provider's signing certificates, base64 DER (as metadata's X509Certificate). */
  idpCertificates: string[];
  /** Where the metadata was read, when it was given by URL. */
  metadataUrl?: string;
}

/** Waymark's side, per organisation: its entity id is where its metadata is published. */
export function serviceProvider(publicUrl: string, tenantId: string) {
  const base = `${publicUrl.replace(/\/$/, '')}/api/sso/saml/${tenantId}`;
  return {
    entityId: `${base}/metadata`,
    metadataUrl: `${base}/metadata`,
    acsUrl: `${base}/acs`,
    nameIdFormat: NAMEID_EMAIL,
  };
}
export type ServiceProvider = ReturnType<typeof serviceProvider>;

/** The SP metadata document (SAML Metadata §2.4.4) an administrator may upload to the identity provider. */
export const spMetadataXml = (sp: ServiceProvider) =>
  generateServiceProviderMetadata({
    issuer: sp.entityId,
    callbackUrl: sp.acsUrl,
    identifierFormat: sp.nameIdFormat,
    wantAssertionsSigned: true,
  });

type Node = Record<string, unknown>;
const asArray = (v: unknown): Node[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]) as Node[];

/** An XML document as objects, namespaces dropped; a DOCTYPE (entities) is refused before parsing. */
function parseXml(xml: string): Node {
  if (/<!DOCTYPE/i.test(xml)) throw new Error('the document has a DOCTYPE, which SAML never needs');
  return new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@',
    removeNSPrefix: true,
    processEntities: false,
    parseAttributeValue: false,
    parseTagValue: false,
    trimValues: true,
  }).parse(xml) as Node;
}

export const certificateOf = (der: string) => {
  const cert = new X509Certificate(Buffer.from(der, 'base64'));
  return {
    sha256: cert.fingerprint256,
    subject: cert.subject,
    notAfter: new Date(cert.validTo).toISOString(),
  };
};

/**
 * The identity provider's entity id, sign-in URL and signing certificates from its metadata. Throws an
 * Error saying what is missing (the caller turns it into a 400 on the field it came from).
 */
export function parseIdpMetadata(
  xml: string,
  allowLoopbackHttp: boolean,
  field: 'metadataXml' | 'metadataUrl' = 'metadataXml',
): SamlSettings {
  const refuse = (key: MessageKey, values: MessageValues = {}) => new SaidError(key, { field, ...values });
  let doc: Node;
  try {
    doc = parseXml(xml);
  } catch (err) {
    throw refuse('errors.sso.metadata.notMetadata', { reason: (err as Error).message });
  }
  const roots = [
    ...asArray(doc.EntityDescriptor as Node),
    ...asArray(doc.EntitiesDescriptor as Node).flatMap((all) => asArray(all.EntityDescriptor as Node)),
  ];
  const entity = roots.find((e) => e.IDPSSODescriptor);
  if (!entity) throw refuse('errors.sso.metadata.noIdp');
  const idpEntityId = String(entity['@entityID'] ?? '').trim();
  if (!idpEntityId) throw refuse('errors.sso.metadata.noEntityId');
  const idp = asArray(entity.IDPSSODescriptor as Node)[0]!;
  const sso = asArray(idp.SingleSignOnService as Node).find((s) => s['@Binding'] === REDIRECT_BINDING);
  const idpSsoUrl = String(sso?.['@Location'] ?? '');
  if (!idpSsoUrl) throw refuse('errors.sso.metadata.noRedirect');
  checkUrl(idpSsoUrl, allowLoopbackHttp, refuse);
  const idpCertificates = asArray(idp.KeyDescriptor as Node)
    .filter((k) => k['@use'] === undefined || k['@use'] === 'signing')
    .flatMap((k) => asArray((k.KeyInfo as Node | undefined)?.X509Data as Node))
    .flatMap((d) => asArray(d.X509Certificate) as unknown as (string | Node)[])
    .map((c) => (typeof c === 'string' ? c : String(c['#text'] ?? '')).replace(/\s+/g, ''))
    .filter(Boolean);
  if (idpCertificates.length === 0) throw refuse('errors.sso.metadata.noCertificate');
  for (const der of idpCertificates) {
    try {
      certificateOf(der);
    } catch {
      throw refuse('errors.sso.metadata.badCertificate');
    }
  }
  return { idpEntityId, idpSsoUrl, idpCertificates: [...new Set(idpCertificates)] };
}

function checkUrl(
  url: string,
  allowLoopbackHttp: boolean,
  refuse: (key: MessageKey, values: MessageValues) => SaidError,
) {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw refuse('errors.sso.metadata.urlNotUrl', { url });
  }
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(parsed.hostname);
  if (parsed.protocol !== 'https:' && !(allowLoopbackHttp && parsed.protocol === 'http:' && loopback))
    throw refuse('errors.sso.metadata.urlNotHttps', { url });
}

/** The metadata at a URL the tenant gave, read through the outbound guard. */
export async function fetchIdpMetadata(url: string, allowLoopbackHttp: boolean): Promise<string> {
  const res = await guardedFetch(url, {
    headers: { accept: 'application/samlmetadata+xml, application/xml, text/xml' },
    timeoutMs: 8000,
    maxBytes: 512 * 1024,
    allowLoopbackHttp,
  });
  if (res.status !== 200)
    throw new SaidError('errors.sso.metadata.answered', { field: 'metadataUrl', status: res.status });
  return new TextDecoder().decode(res.body);
}

/** node-saml's request-id store, answering for the one request this sign-in is about. */
const oneRequest = (id: string, createdAt: Date, saved?: (id: string) => void): CacheProvider => ({
  saveAsync: async (key, value) => {
    saved?.(key);
    return { value, createdAt: Date.now() };
  },
  getAsync: async (key) => (key === id ? createdAt.toISOString() : null),
  removeAsync: async (key) => key,
});

function provider(settings: SamlSettings, sp: ServiceProvider, cacheProvider: CacheProvider, ttlMs: number) {
  return new SAML({
    callbackUrl: sp.acsUrl,
    entryPoint: settings.idpSsoUrl,
    issuer: sp.entityId,
    audience: sp.entityId,
    idpCert: settings.idpCertificates.map(
      (der) => `-----BEGIN CERTIFICATE-----\n${der.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----`,
    ),
    identifierFormat: sp.nameIdFormat,
    // the Response or its Assertion must be signed; node-saml refuses one with neither
    wantAuthnResponseSigned: false,
    wantAssertionsSigned: false,
    validateInResponseTo: ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: ttlMs,
    acceptedClockSkewMs: SKEW_MS,
    cacheProvider,
    // identity providers that ask for a second factor answer another context: any is accepted
    disableRequestedAuthnContext: true,
    signatureAlgorithm: 'sha256',
  });
}

/** The AuthnRequest's URL (HTTP-Redirect binding) and its ID, which the Response must name. */
export async function authnRequest(settings: SamlSettings, sp: ServiceProvider) {
  let requestId = '';
  const saml = provider(
    settings,
    sp,
    oneRequest('', new Date(), (id) => {
      requestId = id;
    }),
    0,
  );
  const url = await saml.getAuthorizeUrlAsync('', undefined, {});
  if (!requestId) throw new Error('node-saml made no request id');
  return { url, requestId };
}

/** The InResponseTo of a Response, read before anything is checked: only to find the sign-in it names. */
export function inResponseToOf(samlResponse: string): string | null {
  try {
    const doc = parseXml(Buffer.from(samlResponse, 'base64').toString('utf8'));
    const id = (doc.Response as Node | undefined)?.['@InResponseTo'];
    return typeof id === 'string' && id ? id : null;
  } catch {
    return null;
  }
}

export interface SamlIdentity {
  subject: string;
  email: string;
  name: string | null;
  assertionId: string;
  /** Until when the assertion could be presented: its ID is kept that long. */
  expiresAt: Date;
}

type X2J = { $?: Record<string, string>; _?: string } & Record<string, unknown>;
const first = (v: unknown) => (Array.isArray(v) ? (v[0] as X2J | undefined) : undefined);

/** The Response checked in full (see the module's comment); the person it is about. */
export async function checkResponse(
  settings: SamlSettings,
  sp: ServiceProvider,
  samlResponse: string,
  request: { id: string; createdAt: Date; ttlMs: number },
): Promise<SamlIdentity> {
  const saml = provider(settings, sp, oneRequest(request.id, request.createdAt), request.ttlMs);
  const { profile } = await saml.validatePostResponseAsync({ SAMLResponse: samlResponse });
  if (!profile) throw new Error('the Response carries no assertion');
  if (profile.issuer !== settings.idpEntityId)
    throw new Error(`the assertion's Issuer is ${profile.issuer}, not ${settings.idpEntityId}`);
  const response = parseXml(Buffer.from(samlResponse, 'base64').toString('utf8')).Response as Node;
  const destination = response['@Destination'];
  if (destination !== undefined && destination !== sp.acsUrl)
    throw new Error(`the Response's Destination is ${String(destination)}, not ${sp.acsUrl}`);
  // a Response signed as a whole must say where it was sent (SAML Bindings §3.5.5.2)
  if (destination === undefined && response.Signature !== undefined)
    throw new Error('the signed Response has no Destination');
  const responseIssuer = response.Issuer;
  const responseIssuerText =
    typeof responseIssuer === 'object' && responseIssuer ? (responseIssuer as Node)['#text'] : responseIssuer;
  if (responseIssuer !== undefined && responseIssuerText !== settings.idpEntityId)
    throw new Error(`the Response's Issuer is ${String(responseIssuerText)}, not ${settings.idpEntityId}`);
  // from here on, only the signed assertion node-saml verified
  const assertion = (profile.getAssertion?.() as { Assertion?: X2J } | undefined)?.Assertion;
  const assertionId = assertion?.$?.ID;
  if (!assertion || !assertionId) throw new Error('the assertion has no ID');
  const confirmations = (first(assertion.Subject)?.SubjectConfirmation as X2J[] | undefined) ?? [];
  const bearer = confirmations
    .filter((c) => c.$?.Method === BEARER)
    .map((c) => first(c.SubjectConfirmationData)?.$ ?? {});
  const confirmed = bearer.find((d) => d.Recipient === sp.acsUrl && d.InResponseTo === request.id);
  if (!confirmed)
    throw new Error(
      `no bearer SubjectConfirmationData names our ACS URL as Recipient and this request as InResponseTo (${bearer
        .map((d) => `${d.Recipient} / ${d.InResponseTo}`)
        .join('; ')})`,
    );
  const subject = profile.nameID;
  if (!subject) throw new Error('the assertion has no NameID');
  const attr = (...names: string[]) => {
    for (const n of names) {
      const v = profile[n];
      const text = Array.isArray(v) ? v[0] : v;
      if (typeof text === 'string' && text.trim()) return text.trim();
    }
    return null;
  };
  const email = (
    (profile.nameIDFormat === NAMEID_EMAIL || /^[^@\s]+@[^@\s]+$/.test(subject) ? subject : null) ??
    attr('email', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress') ??
    ''
  ).toLowerCase();
  const given = attr('firstName', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname');
  const family = attr('lastName', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname');
  const name =
    attr('displayName', 'name', 'http://schemas.microsoft.com/identity/claims/displayname') ??
    ([given, family].filter(Boolean).join(' ') || null);
  const until = [confirmed.NotOnOrAfter, first(assertion.Conditions)?.$?.NotOnOrAfter]
    .map((t) => (t ? Date.parse(t) : Number.NaN))
    .filter((t) => Number.isFinite(t));
  const expiresAt = new Date((until.length ? Math.max(...until) : Date.now() + request.ttlMs) + SKEW_MS);
  return { subject, email, name, assertionId, expiresAt };
}
