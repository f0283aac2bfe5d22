/**
 * Reading an identity provider's metadata (SAML Metadata §2.3–2.4; decision 047): the entity, the sign-in URL
 * of the HTTP-Redirect binding and the signing certificates, in the shapes the standard allows — wrapped in an
 * EntitiesDescriptor beside an SP, with other role descriptors and a signature of its own (as Entra ID
 * publishes it), a KeyDescriptor without `use`, an encryption key left out — and what is refused.
 */
import { describe, expect, it } from 'vitest';
import { keyPair } from '../../test/saml-idp';
import { parseIdpMetadata } from './saml';

const signing = keyPair('IdP signing');
const encryption = keyPair('IdP encryption');
const MD = 'urn:oasis:names:tc:SAML:2.0:metadata';
const DS = 'http://www.w3.org/2000/09/xmldsig#';
const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
const POST = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';
const key = (der: string, use?: string) =>
  `<KeyDescriptor${use ? ` use="${use}"` : ''}><KeyInfo xmlns="${DS}"><X509Data><X509Certificate>
${der.match(/.{1,64}/g)!.join('\n')}
</X509Certificate></X509Data></KeyInfo></KeyDescriptor>`;

describe('an identity provider’s metadata', () => {
  it('is read where the EntityDescriptor sits among others, with role descriptors and a signature of its own', () => {
    const xml = `<?xml version="1.0" encoding="utf-8"?>
<EntitiesDescriptor xmlns="${MD}">
  <EntityDescriptor entityID="https://sp.example/metadata"><SPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol"/></EntityDescriptor>
  <EntityDescriptor ID="_e1" entityID="https://sts.windows.net/0000/">
    <Signature xmlns="${DS}"><SignedInfo/><SignatureValue>AA==</SignatureValue></Signature>
    <RoleDescriptor xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="fed:SecurityTokenServiceType" protocolSupportEnumeration="http://docs.oasis-open.org/wsfed/federation/200706"/>
    <IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
      ${key(signing.certDer, 'signing')}
      ${key(encryption.certDer, 'encryption')}
      <SingleLogoutService Binding="${REDIRECT}" Location="https://login.example/0000/saml2"/>
      <SingleSignOnService Binding="${POST}" Location="https://login.example/0000/saml2/post"/>
      <SingleSignOnService Binding="${REDIRECT}" Location="https://login.example/0000/saml2"/>
    </IDPSSODescriptor>
  </EntityDescriptor>
</EntitiesDescriptor>`;
    expect(parseIdpMetadata(xml, false)).toEqual({
      idpEntityId: 'https://sts.windows.net/0000/',
      idpSsoUrl: 'https://login.example/0000/saml2',
      idpCertificates: [signing.certDer],
    });
  });

  it('takes a KeyDescriptor without `use` as a signing key (SAML Metadata §2.4.1.1), with prefixes', () => {
    const xml = `<md:EntityDescriptor xmlns:md="${MD}" xmlns:ds="${DS}" entityID="http://www.okta.com/exk1">
<md:IDPSSODescriptor WantAuthnRequestsSigned="false" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
<md:KeyDescriptor><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${signing.certDer}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>
<md:SingleSignOnService Binding="${REDIRECT}" Location="https://acme.okta.com/app/acme_waymark_1/exk1/sso/saml"/>
</md:IDPSSODescriptor></md:EntityDescriptor>`;
    expect(parseIdpMetadata(xml, false).idpCertificates).toEqual([signing.certDer]);
  });

  it.each([
    [
      'a DOCTYPE',
      `<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><EntityDescriptor xmlns="${MD}" entityID="&e;"/>`,
      /DOCTYPE/,
    ],
    [
      'no IdP',
      `<EntityDescriptor xmlns="${MD}" entityID="x"><SPSSODescriptor/></EntityDescriptor>`,
      /IDPSSODescriptor/,
    ],
    [
      'no HTTP-Redirect sign-in',
      `<EntityDescriptor xmlns="${MD}" entityID="x"><IDPSSODescriptor>${key(signing.certDer)}<SingleSignOnService Binding="${POST}" Location="https://idp.example/sso"/></IDPSSODescriptor></EntityDescriptor>`,
      /HTTP-Redirect/,
    ],
    [
      'a plain-http sign-in URL',
      `<EntityDescriptor xmlns="${MD}" entityID="x"><IDPSSODescriptor>${key(signing.certDer)}<SingleSignOnService Binding="${REDIRECT}" Location="http://idp.example/sso"/></IDPSSODescriptor></EntityDescriptor>`,
      /not https/,
    ],
    [
      'only an encryption key',
      `<EntityDescriptor xmlns="${MD}" entityID="x"><IDPSSODescriptor>${key(encryption.certDer, 'encryption')}<SingleSignOnService Binding="${REDIRECT}" Location="https://idp.example/sso"/></IDPSSODescriptor></EntityDescriptor>`,
      /no signing certificate/,
    ],
    [
      'a certificate that is not one',
      `<EntityDescriptor xmlns="${MD}" entityID="x"><IDPSSODescriptor>${key('bm90IGEgY2VydGlmaWNhdGU=')}<SingleSignOnService Binding="${REDIRECT}" Location="https://idp.example/sso"/></IDPSSODescriptor></EntityDescriptor>`,
      /not an X\.509 certificate/,
    ],
  ])('refuses %s', (_what, xml, message) => {
    expect(() => parseIdpMetadata(xml, false)).toThrow(message);
  });
});
