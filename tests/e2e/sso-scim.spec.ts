/**
 * Single sign-on and SCIM provisioning end to end (issue 28 items 1–2), in Chromium against the real server:
 * a mentor opens Integrations → Single sign-on, enters the organisation's OpenID provider (a stand-in built
 * with `oidc-provider`, panva's certified implementation, running in this process), claims a domain and
 * proves it with the code the local mailbox shows, then makes a SCIM token on Provisioning (SCIM). A new
 * person then chooses "Continue with your organisation" on the sign-in page, goes through the provider's
 * sign-in and comes back signed in as a learner with a seat. Every page passes axe; forms by keyboard.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { type Account, baseUrl, newAccount } from '../support/accounts';
import { expect, expectAccessible, login, test } from '../support/fixtures';

// biome-ignore lint/suspicious/noExplicitAny: oidc-provider ships no types
type Any = any;

const SECRET = 'stand-in-provider-client-secret-0123456789';
const domain = `acme-${Date.now().toString(36)}.example`;
const person = { sub: `acme-${Date.now()}`, email: `alice@${domain}`, name: 'Alice Acme' };

let provider: Server;
let issuer = '';

async function startProvider() {
  const { default: Provider } = (await import('oidc-provider' as string)) as Any;
  provider = createServer();
  await new Promise<void>((r) => provider.listen(0, '127.0.0.1', r));
  issuer = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;
  const oidc = new Provider(issuer, {
    clients: [
      {
        client_id: 'waymark-e2e',
        client_secret: SECRET,
        redirect_uris: [`${baseUrl()}/api/login/sso/callback`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    pkce: { required: () => true },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx: Any, interaction: Any) => `/interaction/${interaction.uid}` },
    cookies: { keys: ['stand-in-provider-cookie-key'] },
    findAccount: async (_ctx: Any, sub: string) => ({
      accountId: sub,
      claims: async () => ({ sub, email: person.email, email_verified: true, name: person.name }),
    }),
  });
  const callback = oidc.callback();
  provider.on('request', async (req, res) => {
    if (!req.url?.startsWith('/interaction/')) return callback(req, res);
    // the organisation's sign-in page: the person is signed in and consents at once
    const details = await oidc.interactionDetails(req, res);
    const grant = new oidc.Grant({ accountId: person.sub, clientId: details.params.client_id });
    grant.addOIDCScope('openid email profile');
    const grantId = await grant.save();
    await oidc.interactionFinished(req, res, { login: { accountId: person.sub }, consent: { grantId } });
  });
}

test.describe('Single sign-on and SCIM provisioning', () => {
  test.describe.configure({ mode: 'serial' });
  let mentor: Account;
  let page: Page;

  test.beforeAll(async ({ browser }) => {
    await startProvider();
    mentor = await newAccount({ role: 'TENANT', prefix: 'sso-mentor', name: 'Sana SSO' });
    page = await browser.newPage();
    await login(page, mentor.email, mentor.password);
    await expect(page).toHaveURL(/\/portal\/users$/, { timeout: 20_000 });
  });

  test.afterAll(async () => {
    await page?.close();
    await new Promise((r) => provider?.close(r));
  });

  test('the mentor sets up the provider and proves the domain', async ({ browser }) => {
    await page.goto('/portal/integrations/single-sign-on');
    await expect(page.getByRole('heading', { name: 'Single sign-on', level: 2 })).toBeVisible();
    await expect(page.getByText(`${baseUrl()}/api/login/sso/callback`)).toBeVisible();
    await expectAccessible(page, 'Single sign-on, not set up');
    await page.getByLabel(/^Organisation name/).fill('Acme Corp');
    await page.getByLabel(/^Issuer/).fill(issuer);
    await page.getByLabel(/^Client ID/).fill('waymark-e2e');
    await page.getByLabel(/^Client secret/).fill(SECRET);
    await page.getByLabel(/^Client secret/).press('Enter');
    await expect(page.getByText('Single sign-on was saved.')).toBeVisible();

    await page.getByLabel(/^Add a domain/).fill(domain);
    await page.getByLabel(/^Add a domain/).press('Enter');
    await expect(page.getByText(`_waymark-verification.${domain}`)).toBeVisible();
    await page.getByLabel(/^Mailbox/).selectOption(`webmaster`);
    await page.getByRole('button', { name: 'Send code' }).press('Enter');
    const codeField = page.getByLabel(`Code sent to webmaster@${domain}`);
    await expect(codeField).toBeVisible();
    await expectAccessible(page, 'Single sign-on, a domain waiting for its code');

    const mailbox = await browser.newPage();
    await mailbox.goto('/mailbox');
    const mail = mailbox.getByRole('article').filter({ hasText: `webmaster@${domain}` });
    const code = /code: (\d{6})/.exec((await mail.textContent()) ?? '')?.[1];
    expect(code).toMatch(/^\d{6}$/);
    await mailbox.close();
    await codeField.fill(code!);
    await codeField.press('Enter');
    await expect(page.getByText(/verified \(e-mail\)/)).toBeVisible();
    await expectAccessible(page, 'Single sign-on, set up');
  });

  test('the mentor makes a SCIM token, shown once', async () => {
    await page
      .getByRole('navigation', { name: 'Integrations' })
      .getByRole('link', { name: 'Provisioning (SCIM)' })
      .click();
    await expect(page.getByText(`${baseUrl()}/scim/v2`)).toBeVisible();
    await expectAccessible(page, 'Provisioning, no tokens');
    await page.getByRole('button', { name: 'Create SCIM token' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create SCIM token' });
    await dialog.getByLabel(/^Name/).fill('Okta');
    await dialog.getByLabel(/^Name/).press('Enter');
    const shown = page.getByRole('dialog', { name: /SCIM token “Okta” created/ });
    const token = await shown.getByLabel('The SCIM token').inputValue();
    expect(token).toMatch(/^wmscim_[a-z0-9]{12}_[A-Za-z0-9_-]{43}$/);
    await expectAccessible(page, 'the SCIM token shown once');
    await shown.getByRole('button', { name: 'Done' }).click();
    // the token works at once, from outside the browser
    const res = await fetch(`${baseUrl()}/scim/v2/Users?count=1`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
  });

  test('a new person continues with the organisation and comes back signed in, with a seat', async ({
    browser,
  }) => {
    const context = await browser.newContext();
    const visitor = await context.newPage();
    await visitor.goto('/login');
    await visitor.getByRole('button', { name: 'Continue with your organisation' }).click();
    const field = visitor.getByLabel('Work e-mail');
    await expect(field).toBeFocused();
    await expectAccessible(visitor, 'login, continue with your organisation');
    await field.fill(person.email);
    await field.press('Enter');
    await expect(visitor).toHaveURL(/\/basic-profile$/, { timeout: 20_000 });
    await context.close();
    await page.goto('/portal/users');
    await expect(page.getByText(person.email)).toBeVisible();
  });
});
