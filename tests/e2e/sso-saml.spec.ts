/**
 * SAML 2.0 single sign-on end to end (issue 28 item 1; decision 047), in Chromium against the real server:
 * a mentor chooses SAML 2.0 on Integrations → Single sign-on, sees what to give the identity provider
 * (entity id, ACS URL), gives it the provider's metadata URL — a stand-in IdP written from the SAML text that
 * signs with xml-crypto (server/test/saml-idp.ts), running in this process — and proves a domain with the
 * code the local mailbox shows. A new person then chooses "Continue with your organisation", lands on the
 * IdP's page (its AuthnRequest came by HTTP-Redirect), continues, and the signed Response is POSTed by the
 * browser to Waymark's ACS: signed in as a learner with a seat. Every page passes axe.
 */
import type { Page } from '@playwright/test';
import { SamlIdp } from '../../server/test/saml-idp';
import { type Account, baseUrl, newAccount } from '../support/accounts';
import { expect, expectAccessible, login, test } from '../support/fixtures';

const idp = new SamlIdp();
const domain = `saml-${Date.now().toString(36)}.example`;
const person = { email: `milton@${domain}`, name: 'Milton Waddams' };

test.describe('SAML single sign-on', () => {
  test.describe.configure({ mode: 'serial' });
  let mentor: Account;
  let page: Page;

  test.beforeAll(async ({ browser }) => {
    await idp.start();
    mentor = await newAccount({ role: 'TENANT', prefix: 'saml-mentor', name: 'Bill SAML' });
    page = await browser.newPage();
    await login(page, mentor.email, mentor.password);
    await expect(page).toHaveURL(/\/portal\/users$/, { timeout: 20_000 });
  });

  test.afterAll(async () => {
    await page?.close();
    await idp.stop();
  });

  test('the mentor gives the IdP’s metadata and proves the domain', async ({ browser }) => {
    await page.goto('/portal/integrations/single-sign-on');
    await page.getByRole('radio', { name: 'SAML 2.0' }).check();
    const sp = `${baseUrl()}/api/sso/saml/${mentor.id}`;
    await expect(page.getByText(`${sp}/acs`)).toBeVisible();
    await expect(page.getByRole('link', { name: `${sp}/metadata` })).toBeVisible();
    await expectAccessible(page, 'Single sign-on, SAML, not set up');
    await page.getByLabel(/^Organisation name/).fill('Initech');
    await page.getByLabel(/metadata URL/).fill(`${idp.url}/saml/metadata`);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Single sign-on was saved.')).toBeVisible();
    await expect(page.getByText(idp.entityId)).toBeVisible();
    await expect(page.getByText(/CN=Stand-in SAML IdP, valid until/)).toBeVisible();

    await page.getByLabel(/^Add a domain/).fill(domain);
    await page.getByLabel(/^Add a domain/).press('Enter');
    await page.getByLabel(/^Mailbox/).selectOption('postmaster');
    await page.getByRole('button', { name: 'Send code' }).click();
    const codeField = page.getByLabel(`Code sent to postmaster@${domain}`);
    await expect(codeField).toBeVisible();
    const mailbox = await browser.newPage();
    await mailbox.goto('/mailbox');
    const mail = mailbox.getByRole('article').filter({ hasText: `postmaster@${domain}` });
    const code = /code: (\d{6})/.exec((await mail.textContent()) ?? '')?.[1];
    await mailbox.close();
    await codeField.fill(code!);
    await codeField.press('Enter');
    await expect(page.getByText(/verified \(e-mail\)/)).toBeVisible();
    await expectAccessible(page, 'Single sign-on, SAML, set up');
  });

  test('a new person continues with the organisation through the IdP and comes back signed in, seated', async ({
    browser,
  }) => {
    idp.nextPerson = person;
    const context = await browser.newContext();
    const visitor = await context.newPage();
    await visitor.goto('/login');
    await visitor.getByRole('button', { name: 'Continue with your organisation' }).click();
    await visitor.getByLabel('Work e-mail').fill(person.email);
    await visitor.getByLabel('Work e-mail').press('Enter');
    // the identity provider's page, reached by the AuthnRequest's redirect
    await expect(visitor).toHaveURL(new RegExp(`^${idp.url}/saml/sso\\?SAMLRequest=`));
    await expect(visitor.getByText(`Signing in ${person.email}`)).toBeVisible();
    await visitor.getByRole('button', { name: 'Continue to Waymark' }).click();
    await expect(visitor).toHaveURL(/\/basic-profile$/, { timeout: 20_000 });
    await context.close();
    await page.goto('/portal/users');
    await expect(page.getByText(person.email)).toBeVisible();
  });
});
