import { english, loaders } from 'virtual:wm-messages';
import type { CallDef } from '@shared/contract/define';
import { createTranslator } from '@shared/i18n/translator';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { I18nProvider } from '@widgets/core/i18n';
import { toasts } from '@widgets/ui/Toast';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderPortal } from '../../testing/render';

const pending = {
  _id: '00000000-0000-4000-8000-000000000001',
  domain: 'acme.example',
  txtName: '_waymark-verification.acme.example',
  txtValue: 'waymark-verification=abc',
  status: 'PENDING',
  verifiedBy: null,
  verifiedAt: null,
  mailedTo: null,
};
let domains: Record<string, unknown>[] = [pending];
let connection: Record<string, unknown> | null = null;
const SP = 'https://waymark.example.com/api/sso/saml/00000000-0000-4000-8000-00000000000a';
const sent: { path: string; method: string; body?: unknown }[] = [];
const call = vi.fn(async (def: CallDef, args?: { body?: Record<string, unknown> }) => {
  sent.push({ path: def.path, method: def.method, body: args?.body });
  if (def.path === '/tenant/sso' && def.method === 'GET')
    return {
      data: {
        callbackUrl: 'https://waymark.example.com/api/login/sso/callback',
        saml: {
          entityId: `${SP}/metadata`,
          acsUrl: `${SP}/acs`,
          nameIdFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
          metadataUrl: `${SP}/metadata`,
        },
        connection,
        domains,
      },
    };
  if (def.path === '/tenant/sso' && def.method === 'PUT')
    return { data: { ...args?.body, hasClientSecret: true } };
  if (def.path === '/tenant/sso/saml' && def.method === 'PUT') {
    connection = {
      protocol: 'saml',
      displayName: args?.body?.displayName,
      issuer: '',
      clientId: '',
      hasClientSecret: false,
      idpEntityId: 'http://www.okta.com/exk1',
      idpSsoUrl: 'https://acme.okta.com/app/acme_waymark_1/exk1/sso/saml',
      idpMetadataUrl: args?.body?.metadataUrl,
      idpCertificates: [{ sha256: 'AB:CD', subject: 'CN=acme', notAfter: '2036-01-01T00:00:00.000Z' }],
      enabled: true,
      requireSso: false,
      updatedAt: '2026-11-29T00:00:00.000Z',
    };
    return { data: connection };
  }
  if (def.path.endsWith('/mail-code')) return { data: { ...pending, mailedTo: 'webmaster@acme.example' } };
  if (def.path.endsWith('/verify')) {
    domains = [{ ...pending, status: 'VERIFIED', verifiedBy: 'EMAIL' }];
    return { data: domains[0] };
  }
  throw new Error(`unexpected call ${def.path}`);
});
vi.mock('@widgets/core/api', () => ({ client: { call: (...a: unknown[]) => call(...(a as [CallDef])) } }));

const { default: SingleSignOnPage } = await import('./SingleSignOnPage');

afterEach(() => {
  sent.length = 0;
  toasts.value = [];
});

describe('/portal/integrations/single-sign-on', () => {
  it('shows the redirect URI and saves the provider without sending an empty secret twice', async () => {
    renderPortal(<SingleSignOnPage />, { url: '/portal/integrations/single-sign-on', toasts: true });
    expect(await screen.findByText('https://waymark.example.com/api/login/sso/callback')).toBeTruthy();
    fireEvent.change(screen.getByLabelText(/^Organisation name/), { target: { value: 'Acme Corp' } });
    fireEvent.change(screen.getByLabelText(/^Issuer/), { target: { value: 'https://acme.okta.com' } });
    fireEvent.change(screen.getByLabelText(/^Client ID/), { target: { value: '0oa1' } });
    fireEvent.change(screen.getByLabelText(/^Client secret/), { target: { value: 's3cret' } });
    fireEvent.click(screen.getByRole('checkbox', { name: /Require single sign-on/ }));
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    });
    await screen.findByText('Single sign-on was saved.');
    expect(sent.find((s) => s.method === 'PUT')!.body).toEqual({
      displayName: 'Acme Corp',
      issuer: 'https://acme.okta.com',
      clientId: '0oa1',
      clientSecret: 's3cret',
      enabled: true,
      requireSso: true,
    });
  });

  it('verifies a domain with a code mailed to its administrator', async () => {
    renderPortal(<SingleSignOnPage />, { url: '/portal/integrations/single-sign-on', toasts: true });
    expect(await screen.findByText(/_waymark-verification\.acme\.example/)).toBeTruthy();
    fireEvent.change(screen.getByLabelText(/^Mailbox/), { target: { value: 'webmaster' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Send code' }));
    });
    const code = await screen.findByLabelText(/Code sent to webmaster@acme.example/);
    fireEvent.change(code, { target: { value: '123456' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    });
    await waitFor(() => expect(sent.some((s) => s.path.endsWith('/verify'))).toBe(true));
    expect(sent.find((s) => s.path.endsWith('/verify'))!.body).toEqual({ code: '123456' });
    await screen.findByText(/verified \(e-mail\)/);
  });

  it('shows Waymark’s SAML side, saves the IdP by its metadata URL, and shows what was read', async () => {
    renderPortal(<SingleSignOnPage />, { url: '/portal/integrations/single-sign-on', toasts: true });
    fireEvent.click(await screen.findByRole('radio', { name: 'SAML 2.0' }));
    expect(screen.getByText(`${SP}/acs`)).toBeTruthy();
    expect(screen.getAllByText(`${SP}/metadata`)).toHaveLength(2);
    expect(screen.getByText('urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress')).toBeTruthy();
    fireEvent.change(screen.getByLabelText(/^Organisation name/), { target: { value: 'Acme Corp' } });
    fireEvent.change(screen.getByLabelText(/metadata URL/), {
      target: { value: 'https://acme.okta.com/app/exk1/sso/saml/metadata' },
    });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    });
    await screen.findByText('Single sign-on was saved.');
    expect(sent.find((s) => s.path === '/tenant/sso/saml')!.body).toEqual({
      displayName: 'Acme Corp',
      metadataUrl: 'https://acme.okta.com/app/exk1/sso/saml/metadata',
      enabled: true,
      requireSso: false,
    });
    expect(await screen.findByText('http://www.okta.com/exk1')).toBeTruthy();
    expect(screen.getByText(/CN=acme, valid until/)).toBeTruthy();
  });

  it('speaks Arabic from the catalogue, SAML included', async () => {
    const arabic = createTranslator('ar', (await loaders.ar()).default, english);
    renderPortal(
      <I18nProvider value={arabic}>
        <SingleSignOnPage />
      </I18nProvider>,
      { url: '/portal/integrations/single-sign-on' },
    );
    expect(await screen.findByRole('heading', { name: 'تسجيل الدخول الموحد', level: 2 })).toBeTruthy();
    fireEvent.click(screen.getByRole('radio', { name: 'SAML 2.0' }));
    expect(screen.getByText('عنوان ACS (عنوان تسجيل الدخول الموحد، عنوان الرد)')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'نطاقات البريد الإلكتروني الخاصة بك' })).toBeTruthy();
  });
});
