/**
 * The Integrations pages end to end, against the real server and the Auth emulator: a mentor opens
 * Integrations from the portal's navigation, makes an API key (a name, two scopes; the key shown once), uses
 * it from outside the browser as a machine would — within its scopes it lists the mentor's learners, outside
 * them it is refused —, sees its last use, revokes it (after being asked) and finds the key refused at once;
 * the Activity log shows each change with who made it — the mentor, and the API key — filtered by kind of
 * change, and downloads as CSV. Keyboard only where a person would type; every page passes axe.
 */
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { tenantAddUserV2 } from '../../shared/contract/tenant';
import { type Account, baseUrl, newAccount } from '../support/accounts';
import { expect, expectAccessible, login, test } from '../support/fixtures';

const asKey = (key: string) => ({ authorization: `Bearer ${key}` });

test.describe('Integrations: API keys and the activity log', () => {
  test.describe.configure({ mode: 'serial' });

  let mentor: Account;
  let asha: Account;
  let ben: Account;
  let page: Page;
  let key = '';

  test.beforeAll(async ({ browser }) => {
    [mentor, asha, ben] = await Promise.all([
      newAccount({ role: 'TENANT', prefix: 'keys-mentor', name: 'Kavya Keys' }),
      newAccount({ prefix: 'keys-asha', name: 'Asha Keyed' }),
      newAccount({ prefix: 'keys-ben', name: 'Ben Keyed' }),
    ]);
    // the mentor in person adds Asha (the log names the mentor)
    await mentor.api.call(tenantAddUserV2, { body: { email: asha.email } });
    page = await browser.newPage();
    await login(page, mentor.email, mentor.password);
    await expect(page).toHaveURL(/\/portal\/users$/, { timeout: 20_000 });
  });

  test.afterAll(async () => {
    await page?.close();
  });

  test('the navigation leads to Integrations, which opens on API keys', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Integrations' }).click();
    await expect(page).toHaveURL(/\/portal\/integrations\/api-keys$/);
    await expect(page.getByRole('heading', { name: 'API keys' })).toBeVisible();
    await expect(page.getByText('No API keys yet')).toBeVisible();
    await expectAccessible(page, 'API keys, none yet');
  });

  test('a key made with two scopes, by keyboard, is shown once', async () => {
    await page.getByRole('button', { name: 'Create API key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create API key' });
    await expect(dialog).toBeVisible();
    await expectAccessible(page, 'the Create API key dialog');
    await dialog.getByLabel(/^Name/).fill('HR sync');
    await dialog.getByRole('checkbox', { name: /seats:read/ }).press('Space');
    await dialog.getByRole('checkbox', { name: /seats:write/ }).press('Space');
    await dialog.getByLabel('Expires after').selectOption({ label: '30 days' });
    await dialog.getByRole('button', { name: 'Create' }).press('Enter');
    const shown = page.getByRole('dialog', { name: /API key “HR sync” created/ });
    await expect(shown).toBeVisible();
    key = await shown.getByLabel('The API key').inputValue();
    expect(key).toMatch(/^wm_[a-z0-9]{12}_[A-Za-z0-9_-]{43}$/);
    await expectAccessible(page, 'the key shown once');
    await shown.getByRole('button', { name: 'Done' }).click();
    const row = page.getByRole('row').filter({ hasText: 'HR sync' });
    await expect(row).toContainText(`${key.slice(0, 15)}_…`);
    await expect(row).toContainText('seats:read');
    await expect(row).toContainText('Active');
    // the page never shows the secret again
    expect(await page.content()).not.toContain(key.slice(16));
  });

  test('a machine uses the key within its scopes, and nowhere else', async ({ request }) => {
    const list = await request.get(`${baseUrl()}/api/tenant/users/list?limit=15`, { headers: asKey(key) });
    expect(list.status()).toBe(200);
    expect(JSON.stringify(await list.json())).toContain(asha.email);
    const added = await request.post(`${baseUrl()}/api/tenant/users/add-user-v2`, {
      headers: asKey(key),
      data: { email: ben.email },
    });
    expect(added.status()).toBe(200);
    const stats = await request.get(`${baseUrl()}/api/tenant/dashboard/stats`, { headers: asKey(key) });
    expect(stats.status()).toBe(403);
    expect((await stats.json()).errorCode).toBe('API_KEY_SCOPE');
    await page.reload();
    await expect(page.getByRole('row').filter({ hasText: 'HR sync' })).not.toContainText('Never', {
      timeout: 10_000,
    });
  });

  test('the activity log names who made each change, filters it, and downloads it', async () => {
    await page
      .getByRole('navigation', { name: 'Integrations' })
      .getByRole('link', { name: 'Activity log' })
      .click();
    await expect(page).toHaveURL(/\/portal\/integrations\/activity-log$/);
    const table = page.getByRole('table', { name: 'Activity log' });
    const byKey = table.getByRole('row').filter({ hasText: `${ben.email} added as a learner` });
    await expect(byKey).toContainText(/HR sync \(wm_[a-z0-9]{12}_…\)/);
    await expect(byKey).toContainText('API key');
    const byMentor = table.getByRole('row').filter({ hasText: `${asha.email} added as a learner` });
    await expect(byMentor).toContainText('Kavya Keys');
    await expect(table.getByRole('row').filter({ hasText: 'apikey.created' })).toBeVisible();
    await expectAccessible(page, 'the activity log');
    await page.getByLabel('Change').selectOption({ label: 'API keys' });
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(table.getByRole('row').filter({ hasText: 'seat.added' })).toHaveCount(0);
    await expect(table.getByRole('row').filter({ hasText: 'apikey.created' })).toBeVisible();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: /Download CSV/ }).click(),
    ]);
    const csv = await readFile((await download.path())!, 'utf8');
    expect(csv.replace(/^\uFEFF/, '').split('\r\n')[0]).toBe(
      'Time,Action,Actor kind,Actor,Actor id,Target kind,Target id,Summary,IP address,User agent,Details',
    );
    expect(csv).toContain('apikey.created');
    expect(csv).not.toContain('seat.added');
  });

  test('revoking asks first, and the key is refused at once', async ({ request }) => {
    await page
      .getByRole('navigation', { name: 'Integrations' })
      .getByRole('link', { name: 'API keys' })
      .click();
    await page.getByRole('button', { name: 'Revoke HR sync' }).click();
    const ask = page.getByRole('alertdialog', { name: /Revoke “HR sync”/ });
    await expect(ask).toBeVisible();
    await expectAccessible(page, 'the revoke question');
    await ask.getByRole('button', { name: 'Revoke' }).click();
    await expect(page.getByRole('row').filter({ hasText: 'HR sync' })).toContainText('Revoked');
    const refused = await request.get(`${baseUrl()}/api/tenant/users/list`, { headers: asKey(key) });
    expect(refused.status()).toBe(401);
    expect((await refused.json()).errorCode).toBe('API_KEY_REVOKED');
  });
});
