/**
 * Playwright fixtures: the server's address, the emulator, axe, and signing in through the portal (for
 * tests about the portal's forms; other tests make their accounts with ./accounts).
 */
import { test as base, expect, type Page } from '@playwright/test';
import { uniquePhone } from './accounts';
import { AXE_SOURCE, axeViolations } from './axe';
import { type Emulator, runEmulator } from './emulator';

/** Runs axe on the page and fails with the violations listed. */
export async function expectAccessible(page: Page, context = '') {
  // pages load lazily: check the page once it has drawn its heading, not the empty shell before it (a
  // page that never draws one is still checked, and axe then says what is missing)
  await page
    .waitForFunction(() => document.querySelector('main h1, [role="dialog"] h1, h1'), null, {
      timeout: 5_000,
    })
    .catch(() => undefined);
  await page.addScriptTag({ content: AXE_SOURCE });
  const violations = await page.evaluate(axeViolations);
  expect(violations, `accessibility violations ${context} at ${page.url()}`).toEqual([]);
}

/**
 * Fails when the page scrolls sideways (a phone's width, say): the document is wider than the window. The
 * message names the widest elements that stick out.
 */
export async function expectNoSidewaysScroll(page: Page, context = '') {
  const found = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const out = [...document.querySelectorAll('body *')]
      .map((el) => ({ el, right: el.getBoundingClientRect().right }))
      .filter((e) => e.right > width + 1)
      .sort((a, b) => b.right - a.right)
      .slice(0, 5)
      .map(
        ({ el, right }) =>
          `${el.tagName.toLowerCase()}.${[...el.classList].join('.')} (${Math.round(right)} px)`,
      );
    return { scrollWidth: document.documentElement.scrollWidth, width, out };
  });
  expect(
    found.scrollWidth,
    `${context} at ${page.url()} scrolls sideways at ${found.width} px: ${found.out.join(', ')}`,
  ).toBeLessThanOrEqual(found.width);
}

export const test = base.extend<{ emulator: Emulator }>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright requires the destructuring
  baseURL: async ({}, use) => {
    await use(process.env.WAYMARK_E2E_BASE_URL);
  },
  // biome-ignore lint/correctness/noEmptyPattern: Playwright requires the destructuring
  emulator: async ({}, use) => {
    await use(runEmulator());
  },
});

export { expect };

/** Logs in through the portal's login form. */
export async function login(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
}

/**
 * On /learner: signs up with e-mail and password, verifies the address through the emulator, logs in and
 * completes the basic profile (name, an Indian mobile number). Where the portal goes next is the caller's.
 */
export async function signUpLearner(
  page: Page,
  emulator: Emulator,
  account: { email: string; password: string; name: string },
) {
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByLabel('Confirm password').fill(account.password);
  await page.getByRole('button', { name: 'Sign up', exact: true }).click();
  await expect(page.getByText(/Thank you for signing up/)).toBeVisible();
  await emulator.verifyEmail(account.email);
  await login(page, account.email, account.password);
  await expect(page).toHaveURL(/\/basic-profile$/);
  await page.getByLabel('Name').fill(account.name);
  await page.getByRole('textbox', { name: 'Mobile number' }).fill(uniquePhone());
  await page.getByRole('button', { name: 'Continue' }).click();
}
