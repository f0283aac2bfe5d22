/**
 * Cohorts end to end (issue 28), in Chromium against the real server: a mentor opens Cohorts from the
 * sidebar, makes a cohort by keyboard, finds one of their learners and adds them, gives the cohort a
 * roadmap; then the Users page shows each learner's cohort, and its cohort filter — chosen by keyboard —
 * keeps to the address across a reload. Every page passes axe.
 */
import type { Page } from '@playwright/test';
import { tenantAddUserV2 } from '../../shared/contract/tenant';
import { type Account, newAccount } from '../support/accounts';
import { expect, expectAccessible, login, test } from '../support/fixtures';

test.describe('Cohorts', () => {
  test.describe.configure({ mode: 'serial' });
  let mentor: Account;
  let ana: Account;
  let ben: Account;
  let page: Page;
  const cohort = `Sales EMEA ${Date.now().toString(36)}`;

  test.beforeAll(async ({ browser }) => {
    mentor = await newAccount({ role: 'TENANT', prefix: 'cohort-mentor', name: 'Carmen Cohorts' });
    ana = await newAccount({ prefix: 'cohort-ana', name: 'Ana Alves' });
    ben = await newAccount({ prefix: 'cohort-ben', name: 'Ben Brown' });
    for (const who of [ana, ben]) {
      const added = (await mentor.api.call(tenantAddUserV2, { body: { email: who.email } })).data;
      expect(added.outcome).toBe('ADDED');
    }
    page = await browser.newPage();
    await login(page, mentor.email, mentor.password);
    await expect(page).toHaveURL(/\/portal\/users$/, { timeout: 20_000 });
  });

  test.afterAll(async () => {
    await page?.close();
  });

  test('makes a cohort, adds a learner and gives it a roadmap', async () => {
    await page.getByRole('link', { name: 'Cohorts', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Cohorts' })).toBeVisible();
    await expectAccessible(page, 'cohorts, none yet');
    await page.getByLabel("New cohort's name").fill(cohort);
    await page.getByLabel("New cohort's name").press('Enter');
    await expect(page.getByText(`Cohort “${cohort}” created.`)).toBeVisible();
    await page.getByRole('link', { name: cohort }).click();
    await expect(page.getByRole('heading', { level: 1, name: cohort })).toBeVisible();

    const find = page.getByRole('searchbox', { name: 'Find one of your learners by name or e-mail' });
    await find.fill('Ana');
    await find.press('Enter');
    await page.getByRole('button', { name: 'Add Ana Alves to the cohort' }).click();
    await expect(page.getByText('Ana Alves joined the cohort.')).toBeVisible();
    const members = page.getByRole('table', { name: 'Members' });
    await expect(members.getByRole('rowheader', { name: 'Ana Alves' })).toBeVisible();
    await expectAccessible(page, 'a cohort with a member');

    const roadmap = page.getByRole('combobox', { name: 'Roadmap' });
    await expect(roadmap.locator('option').nth(1)).toBeAttached();
    const first = await roadmap.locator('option').nth(1).textContent();
    await roadmap.selectOption({ index: 1 });
    await page.getByRole('button', { name: 'Assign to the cohort' }).click();
    await expect(page.getByText(`${first} assigned.`, { exact: false })).toBeVisible();
    await expect(page.getByRole('link', { name: first! })).toBeVisible();
  });

  test('the Users page shows each learner’s cohort and filters by it, kept in the address', async () => {
    await page.getByRole('link', { name: 'Users', exact: true }).first().click();
    await expect(page).toHaveURL(/\/portal\/users$/);
    const rowOf = (email: string) => page.getByRole('row').filter({ hasText: email });
    await expect(rowOf(ana.email).getByRole('link', { name: cohort })).toBeVisible();
    await expect(rowOf(ben.email)).toBeVisible();
    const filter = page.getByRole('combobox', { name: 'Cohort' });
    await filter.focus();
    await filter.selectOption({ label: cohort });
    await expect(page).toHaveURL(/\?cohort=[0-9a-f-]{36}$/);
    await expect(rowOf(ben.email)).toHaveCount(0);
    await expect(rowOf(ana.email)).toBeVisible();
    await page.reload();
    await expect(page.getByRole('combobox', { name: 'Cohort' })).toHaveValue(/[0-9a-f-]{36}/);
    await expect(rowOf(ben.email)).toHaveCount(0);
    await expect(rowOf(ana.email)).toBeVisible();
    await expectAccessible(page, 'users filtered by a cohort');
  });
});
