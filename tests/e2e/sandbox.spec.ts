/**
 * A mentor's sandbox and the elements' playground (decision 041), in Chromium against the real server:
 * - the portal's Sandbox page creates the sandbox and lists its links, each with its snippet and the
 *   playground; a sandbox test taken on a partner's page says Sandbox, and Reset attempts (after its
 *   confirmation) makes it untaken again, with the same link id;
 * - a sandbox award says it is no credential, on Waymark's award page and in <wm-award>;
 * - /widgets/playground shows an element live with its attributes, theme and tokens, the events it fires
 *   and its snippet pinned with SRI, which works pasted into a partner's page.
 * Every page visited passes axe.
 */
import type { Page } from '@playwright/test';
import { type Account, apiClient, baseUrl, newAccount, signedInContext } from '../support/accounts';
import { answerShown, takeTest } from '../support/answers';
import { expect, expectAccessible, test } from '../support/fixtures';
import { type PartnerSite, partnerPage, startPartnerSite } from '../support/partner';

let site: PartnerSite;
let mentor: Account;

test.beforeAll(async () => {
  site = await startPartnerSite();
  mentor = await newAccount({ role: 'TENANT', prefix: 'sandbox-mentor', name: 'Sandra Sandbox' });
});

test.afterAll(async () => {
  await site?.close();
});

test.describe.configure({ mode: 'serial' });

let portal: Page;
/** The sandbox's links as the portal's table lists them: learner, type, link id. */
let links: { linkId: string; type: string; learner: string }[] = [];

test('the Sandbox page creates the sandbox and lists its open links', async ({ browser }) => {
  ({ page: portal } = await signedInContext(browser, mentor));
  await portal.goto('/portal/users');
  await portal.getByRole('link', { name: 'Sandbox', exact: true }).click();
  await expect(portal).toHaveURL(/\/portal\/sandbox$/);
  await expect(portal.getByRole('heading', { name: /^Sandbox/, level: 1 })).toBeVisible();
  await expect(portal.getByText('You have no sandbox yet.')).toBeVisible();
  await expectAccessible(portal, 'no sandbox yet');

  await portal.getByRole('button', { name: 'Create sandbox' }).click();
  const table = portal.getByRole('table', { name: "The sandbox's test links" });
  await expect(table.getByRole('row')).toHaveCount(7);
  await expect(portal.locator('.wm-sandbox-page p[role="status"]')).toHaveText('Your sandbox is ready.');
  links = await table.locator('tbody tr').evaluateAll((rows) =>
    rows.map((r) => ({
      learner: r.querySelector('td')!.textContent!,
      type: r.querySelector('td:nth-child(2) .badge')!.textContent!,
      linkId: r.querySelector('code')!.textContent!,
    })),
  );
  // the badge says the level in the reader's words (English here)
  expect(links.map((l) => l.type).sort()).toEqual([
    'Resource',
    'Resource',
    'Resource',
    'Section',
    'Section',
    'Section',
  ]);
  await expect(table.getByRole('row').nth(1)).toContainText('Open');
  await expectAccessible(portal, 'the sandbox');
});

test('a sandbox test on a partner page says Sandbox; Reset attempts makes it untaken again', async ({
  page,
}) => {
  const link = links.find((l) => l.type === 'Resource')!;
  const url = site.page(
    '/sandbox/taker.html',
    partnerPage(
      'Sandbox test',
      `<wm-test-taker link-id="${link.linkId}" heading-level="2"></wm-test-taker>`,
      { script: `await import(${JSON.stringify(`${baseUrl()}/widgets/test-taker.js`)});` },
    ),
  );
  await page.goto(url);
  const taker = page.locator('wm-test-taker');
  await expect(taker.locator('[part="sandbox"]')).toContainText('Sandbox');
  await taker.getByRole('button', { name: 'Start' }).click();
  const heading = taker.getByRole('heading', { name: /^Question 1 of (\d+)/ });
  await expect(heading).toBeVisible();
  const count = Number(/of (\d+)/.exec((await heading.textContent()) ?? '')![1]);
  for (let i = 0; i < count; i++) {
    if (i > 0) await taker.getByRole('button', { name: 'Next' }).click();
    await answerShown(taker, 'wrong');
  }
  await expect(taker.getByText('All answers saved')).toBeVisible();
  await taker.getByRole('button', { name: 'Finish' }).click();
  await taker
    .getByRole('dialog', { name: 'Do you want to finish?' })
    .getByRole('button', { name: 'Finish' })
    .click();
  await expect(taker.getByRole('heading', { name: 'Your Score' })).toBeVisible();
  await expect(taker.locator('[part="sandbox"]')).toBeVisible();

  // the mentor resets every attempt, after saying so
  await portal.reload();
  const table = portal.getByRole('table', { name: "The sandbox's test links" });
  await expect(table.getByRole('row').filter({ hasText: link.linkId })).toContainText('No Enough Marks');
  await portal.getByRole('button', { name: 'Reset attempts' }).click();
  const confirm = portal.getByRole('dialog', { name: 'Reset every attempt?' });
  await expectAccessible(portal, 'the reset confirmation');
  await confirm.getByRole('button', { name: 'Reset attempts' }).click();
  await expect(portal.locator('.wm-sandbox-page p[role="status"]')).toHaveText(
    /Every attempt is back to its start/,
  );
  await expect(table.getByRole('row').filter({ hasText: link.linkId })).toContainText('Open');

  // the same link id, untaken again, at once: no cool-down holds it back
  await page.reload();
  await expect(taker.getByRole('heading', { name: 'Ready to Take Test?' })).toBeVisible();
  await taker.getByRole('button', { name: 'Start' }).click();
  await expect(taker.getByRole('heading', { name: /^Question 1 of/ })).toBeVisible();
  await expectAccessible(page, 'a sandbox test');
});

test('a sandbox award says it is no credential, on its page and in <wm-award>', async ({ page }) => {
  const link = links.find((l) => l.type === 'Section')!;
  expect((await takeTest(apiClient(null), link.linkId, 'right')).result.certificateEligible).toBe(true);
  await page.goto(`${baseUrl()}/badge/${link.linkId}`);
  await expect(page.locator('.award-hero').getByText('Sandbox award: not a credential')).toBeVisible();
  // on the design too, so the image made of it carries the mark
  await expect(page.locator('[part="art"] .wm-art-sandbox')).toHaveText('Sandbox award: not a credential');
  await expect(page.getByText(/^Verified by/)).toHaveCount(0);
  await expect(page.getByText(/Waymark issues no credential for it/)).toBeVisible();
  await expectAccessible(page, 'a sandbox award page');

  await page.goto(
    site.page(
      '/sandbox/award.html',
      partnerPage('Sandbox award', `<wm-award link-id="${link.linkId}"></wm-award>`, {
        script: `await import(${JSON.stringify(`${baseUrl()}/widgets/award.js`)});`,
      }),
    ),
  );
  const award = page.locator('wm-award');
  await expect(award.locator('[part="sandbox"]')).toHaveText('Sandbox award: not a credential');
  await expect(award.locator('[part="verified"]')).toHaveCount(0);
  await expectAccessible(page, 'a sandbox award on a partner page');
});

test('the playground: an element live with its attributes, theme and tokens, its events, its pinned snippet', async ({
  page,
}) => {
  // another learner's link (the first is started on the partner's page now)
  const link = links.filter((l) => l.type === 'Resource')[1]!;
  // the sandbox page opens the playground with the link's element ready
  await portal.reload();
  const row = portal
    .getByRole('table', { name: "The sandbox's test links" })
    .getByRole('row')
    .filter({ hasText: link.linkId });
  const href = await row.getByRole('link', { name: /^Playground/ }).getAttribute('href');
  expect(href).toBe(`/widgets/playground?element=wm-test-taker&link-id=${link.linkId}`);

  await page.goto(`${baseUrl()}${href}`);
  const preview = page.locator('#preview wm-test-taker');
  await expect(preview.getByRole('heading', { name: 'Ready to Take Test?' })).toBeVisible();
  await expect(page.getByRole('log')).toContainText(`wm-ready {"linkId":"${link.linkId}","state":"ready"}`);
  await expectAccessible(page, 'the playground');

  await page.getByLabel('theme', { exact: true }).selectOption('dark');
  await page.getByLabel('The page around it').selectOption('dark');
  await page.getByLabel('--wm-primary', { exact: true }).fill('#f59e0b');
  await page.getByLabel('--wm-primary', { exact: true }).press('Tab');
  await expect(preview).toHaveAttribute('theme', 'dark');
  await expect(preview.locator('[part="start-button"]')).toHaveCSS('background-color', 'rgb(245, 158, 11)');
  await expect(preview.locator('[part="test"]')).toHaveCSS('background-color', 'rgb(31, 41, 55)');
  await expectAccessible(page, 'the playground, dark');

  const snippet = await page.getByLabel('HTML').inputValue();
  expect(snippet).toMatch(
    /<script type="module" src="[^"]+\/widgets\/\d+\.\d+\.\d+\/test-taker\.js" integrity="sha384-/,
  );
  expect(snippet).toContain(`<wm-test-taker link-id="${link.linkId}" theme="dark"></wm-test-taker>`);
  expect(await page.getByLabel('CSS').inputValue()).toBe('wm-test-taker {\n  --wm-primary: #f59e0b;\n}');

  // the snippet as it is, on a partner's page: the pinned files load (their hashes hold) and the test shows
  await page.goto(site.page('/sandbox/pasted.html', partnerPage('Pasted', snippet)));
  await expect(
    page.locator('wm-test-taker').getByRole('heading', { name: 'Ready to Take Test?' }),
  ).toBeVisible();
});
