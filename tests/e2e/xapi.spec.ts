/**
 * Integrations → Learning record store end to end, against the real server and the stand-in LRS written
 * from xAPI 1.0.3 (server/test/fixtures/lrs.ts, which checks every statement with xapi-validation): a
 * mentor connects the LRS by keyboard, sends a test statement the LRS stores, and sees the connection's
 * state. Every state passes axe.
 */
import type { Page } from '@playwright/test';
import { type StandInLrs, startStandInLrs } from '../../server/test/fixtures/lrs';
import { type Account, newAccount } from '../support/accounts';
import { expect, expectAccessible, login, test } from '../support/fixtures';

test.describe('Integrations: learning record store', () => {
  test.describe.configure({ mode: 'serial' });

  let mentor: Account;
  let page: Page;
  let lrs: StandInLrs;

  test.beforeAll(async ({ browser }) => {
    lrs = await startStandInLrs();
    mentor = await newAccount({ role: 'TENANT', prefix: 'lrs-mentor', name: 'Lina Lrs' });
    page = await browser.newPage();
    await login(page, mentor.email, mentor.password);
    await expect(page).toHaveURL(/\/portal\/users$/, { timeout: 20_000 });
  });

  test.afterAll(async () => {
    await page?.close();
    await lrs?.close();
  });

  test('the LRS is connected by keyboard and stores a test statement', async () => {
    await page.goto('/portal/integrations/learning-record-store');
    const form = page.getByRole('form', { name: 'Connect' });
    await expect(form).toBeVisible();
    await expectAccessible(page, 'Learning record store, not connected');
    await form.getByLabel(/^xAPI endpoint/).fill(lrs.endpoint);
    await form.getByLabel(/^Key/).fill(lrs.username);
    await form.getByLabel(/^Secret/).fill(lrs.password);
    await form.getByLabel(/^Secret/).press('Enter');
    await expect(page.getByText('0 waiting, 0 sent, 0 failed')).toBeVisible({ timeout: 10_000 });
    await page.getByRole('button', { name: 'Send test statement' }).click();
    await expect(page.getByText(/stored the test statement/)).toBeVisible({ timeout: 15_000 });
    expect(lrs.stored.size).toBe(1);
    await expectAccessible(page, 'Learning record store, connected');
  });
});
