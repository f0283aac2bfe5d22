/**
 * Learning time end to end, in Chromium with the built extension loaded (dist/e2e/extension-chromium): the
 * portal signs the extension in (icon green), a resource of an assigned roadmap is studied and its time is
 * recorded by the real server, the dashboard shows it in the chart, the table and the card, signing out
 * signs the extension out (icon orange); the popup lists exactly the addresses it tracks; the learner sees,
 * downloads and deletes a tracked day on "What was tracked" and the heatmap and the mentor's figures (and
 * the Learning Report's CSV) follow; without the extension the icon is grey and the Install prompts
 * appear.
 *
 * The resource's page is served by the test (Playwright answers its address), so it works offline. Time is
 * sped up inside the extension only: its clock is moved back six minutes, then forward in 30-second pulses
 * (the `__waymarkTest` hooks of the background). The server is never faked. The dashboard's ranges end at
 * the end of yesterday (UTC), so the dashboard page is opened with its clock set one day ahead.
 *
 * Each describe signs in a fresh learner of its own (tests/support/accounts.ts): the time the dashboard
 * shows is exactly the time studied here, whatever the demo seed or other specs did.
 */
import { readFileSync } from 'node:fs';
import type { BrowserContext, Page, Worker } from '@playwright/test';
import { parse as parseCsv } from 'csv-parse/sync';
import { timeSpentOnResourceByUser } from '../../shared/contract/activity';
import { tenantAddUserV2 } from '../../shared/contract/tenant';
import { LEARNING_REPORT } from '../../shared/reports/columns';
import { trackingKey } from '../../shared/rules/heartbeats';
import { type Account, newAccount, signedInContext } from '../support/accounts';
import { assignDemoRoadmap } from '../support/catalogue';
import { type ExtensionBrowser, launchWithExtension } from '../support/extension';
import { expect, expectAccessible, login, test } from '../support/fixtures';

const DAY = 86_400;

interface ExtensionState {
  signedIn: boolean;
  paused: boolean;
  tracked: [string, string][];
  queued: number;
}
type HookName = 'setClockOffset' | 'pulse' | 'flush' | 'sync' | 'state';

/** Runs one of the background's test hooks (globalThis.__waymarkTest) inside the service worker. */
function hook<T = void>(worker: Worker, name: HookName, arg?: unknown): Promise<T> {
  return worker.evaluate(
    ([n, a]) =>
      (globalThis as unknown as { __waymarkTest: Record<string, (x?: unknown) => unknown> }).__waymarkTest[
        n as string
      ]!(a),
    [name, arg] as const,
  ) as Promise<T>;
}
const stateOf = (worker: Worker) => hook<ExtensionState>(worker, 'state');

/** Signs the learner in through the portal's login form and waits for the signed-in layout. */
async function signIn(page: Page, learner: Account) {
  await login(page, learner.email, learner.password);
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible({ timeout: 20_000 });
}

interface Studied {
  assignedId: string;
  resourceId: string;
  title: string;
  url: string;
}

/** Assigns the demo 'JavaScript Foundations' roadmap to the learner: its first resource. */
async function assignedResource(learner: Account): Promise<Studied> {
  const roadmap = await assignDemoRoadmap(learner.api);
  const resource = roadmap.sections.flatMap((s) => s.resources)[0];
  expect(resource, 'the roadmap has a resource').toBeTruthy();
  return {
    assignedId: roadmap._id,
    resourceId: resource!._id,
    title: resource!.userTitle || resource!.actualTitle,
    url: resource!.url,
  };
}

test.describe('learning time with the extension', () => {
  test.describe.configure({ mode: 'serial' });

  let browser: ExtensionBrowser | undefined;
  let context: BrowserContext;
  let worker: Worker;
  let portal: Page;
  let learner: Account;
  let studied: Studied;
  let extensionId: string;

  test.beforeAll(async () => {
    // a learner of its own: nothing studied before this spec
    learner = await newAccount({ prefix: 'extension', name: 'Esha Extension' });
    browser = await launchWithExtension('ext');
    context = browser.context;
    worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
    extensionId = new URL(worker.url()).host;
    portal = await context.newPage();
  });

  test.afterAll(async () => {
    await browser?.close();
  });

  test('signing in on the portal signs the extension in: the icon turns green', async () => {
    expect(extensionId).toBe('ldpfdlpnndfffieajieddhopphppfjfb');
    await signIn(portal, learner);
    // present but signed out: the portal goes through /check, which signs the extension in
    await portal.waitForURL((url) => url.pathname === '/my-roadmaps', { timeout: 20_000 });
    await expect(portal.locator('.ext-icon')).toHaveAttribute('data-state', 'signed-in', { timeout: 15_000 });
    await expect(portal.getByRole('img', { name: 'Waymark extension signed in' })).toBeVisible();
    await expectAccessible(portal, 'signed in with the extension');
    expect((await stateOf(worker)).signedIn).toBe(true);
  });

  test('studying an assigned resource records its time', async () => {
    studied = await assignedResource(learner);
    const key = trackingKey(studied.url);
    expect(key).toBeTruthy();
    // the extension learns the new assignment (it also does on its own within 5 minutes)
    await hook(worker, 'sync');
    const tracked = (await stateOf(worker)).tracked;
    expect(tracked).toContainEqual([key, studied.resourceId]);

    // the resource's page, served by the test at its own address
    await context.route(
      (url) => trackingKey(url.href) === key,
      (route) =>
        route.fulfill({
          contentType: 'text/html',
          body: `<!doctype html><html lang="en"><title>${studied.title}</title><main><h1>${studied.title}</h1><p>Lesson.</p></main></html>`,
        }),
    );
    const SIX_MINUTES = 6 * 60_000;
    await hook(worker, 'setClockOffset', -SIX_MINUTES);
    const lesson = await context.newPage();
    await lesson.goto(studied.url);
    await lesson.bringToFront();
    await hook(worker, 'pulse');
    for (let elapsed = 30_000; elapsed <= SIX_MINUTES; elapsed += 30_000) {
      await hook(worker, 'setClockOffset', elapsed - SIX_MINUTES);
      await hook(worker, 'pulse');
    }
    await lesson.close();
    await hook(worker, 'pulse');
    await hook(worker, 'flush');
    expect((await stateOf(worker)).queued).toBe(0);

    const now = Math.floor(Date.now() / 1000);
    const from = Math.floor(now / DAY) * DAY - DAY;
    const report = (
      await learner.api.call(timeSpentOnResourceByUser, {
        query: { startTime: from, endTime: now, skip: 1, limit: 100 },
      })
    ).data;
    // the learner's only time: the resource just studied
    expect(report.timeSpentOnResource.map((r) => r.resource._id)).toEqual([studied.resourceId]);
    const row = report.timeSpentOnResource[0];
    expect(row?.timespent ?? 0).toBeGreaterThanOrEqual(355);
    expect(row?.timespent ?? 0).toBeLessThan(420);
  });

  test("the popup shows today's time and what is tracked, and can pause", async () => {
    const popup = await context.newPage();
    await popup.goto(`chrome-extension://${extensionId}/popup.html`);
    await expect(popup.getByText(/^Signed in as /)).toBeVisible();
    await expect(popup.locator('#today-list')).toContainText(studied.title);
    await expect(popup.locator('#today-total')).toHaveText(/^6m|^[1-9]\d*m/);
    // exactly which addresses it tracks, and where to see and delete what it recorded
    await popup.getByText('The addresses it tracks').click();
    // one line per resource of the assigned roadmap, as the extension holds them
    await expect(popup.locator('#address-list li')).toHaveCount((await stateOf(worker)).tracked.length);
    await expect(popup.locator('#address-list')).toContainText(studied.url);
    await expect(popup.getByRole('link', { name: 'See and delete what was tracked' })).toHaveAttribute(
      'href',
      `${new URL(portal.url()).origin}/what-was-tracked`,
    );
    await expectAccessible(popup, 'the extension popup');
    await popup.getByLabel('Pause tracking').check();
    await expect(popup.getByText(/Tracking is paused/)).toBeVisible();
    expect((await stateOf(worker)).paused).toBe(true);
    await popup.getByLabel('Pause tracking').uncheck();
    await expect(popup.getByText('Tracking is on.')).toBeVisible();
    await popup.close();
  });

  test('the dashboard shows it in the chart, the table and the card', async () => {
    await hook(worker, 'setClockOffset', 0);
    // the dashboard's ranges end at the end of yesterday: look from tomorrow
    await context.clock.setFixedTime(Date.now() + DAY * 1000);
    await portal.goto('/dashboard');
    await expect(portal.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
    await expect(portal.getByLabel('Date range')).toHaveValue('Past 7 days');

    const table = portal.getByRole('table').filter({ hasText: 'Resource Title' });
    const row = table.getByRole('row').filter({ hasText: studied.title });
    await expect(row).toBeVisible();
    await expect(row.getByRole('cell').nth(2)).toHaveText(/^6m( \d+s)?$/);

    await expect(portal.getByRole('heading', { name: 'Your Daily Time spent on Learning' })).toBeVisible();
    await expect(portal.locator('.wm-chart-canvas svg')).toBeVisible();
    // the bar of the last day carries its value
    await expect(
      portal.locator('.wm-chart-canvas svg .wm-chart-value').filter({ hasText: /^0\.1$/ }),
    ).toHaveCount(1);
    const chartTable = portal.getByRole('table', { name: /Your Daily Time spent on Learning/ });
    await expect(chartTable.getByRole('row').last().getByRole('cell').last()).toHaveText('0.1');

    const card = portal.locator('.wm-card').filter({ hasText: studied.title });
    await expect(card.getByText('6 minutes')).toBeVisible();
    await card.getByRole('button', { name: `Assessment of ${studied.title}` }).click();
    await expect(portal.getByText(`Would you like to attempt an ${studied.title} assessment?`)).toBeVisible();
    await portal.getByRole('button', { name: 'No' }).click();
    await expectAccessible(portal, 'the dashboard');
  });

  test("the embeddable <wm-dashboard> shows the same figures on Waymark's origin", async () => {
    await portal.goto('/widgets/demo.html');
    const widget = portal.locator('#dashboard');
    const row = widget.getByRole('row').filter({ hasText: studied.title });
    // the demo page starts every element at once, and its session refreshes first: slow on a busy machine
    await expect(row).toBeVisible({ timeout: 30_000 });
    await expect(row.getByRole('cell').nth(2)).toHaveText(/^6m( \d+s)?$/);
    await expect(widget.locator('.wm-chart-canvas svg')).toBeVisible();
    const card = widget.locator('.wm-card').filter({ hasText: studied.title });
    await expect(card.getByText('6 minutes')).toBeVisible();
    await widget.getByLabel('Date range').selectOption('Last 28 Days');
    await expect(widget.getByText(/a day over last 28 days/)).toBeVisible();
    await expect(row).toBeVisible();
    await expectAccessible(portal, 'the dashboard widget');
  });

  test('signing out signs the extension out: the icon turns orange', async () => {
    await context.clock.setFixedTime(Date.now());
    await portal.goto('/my-roadmaps');
    await expect(portal.locator('.ext-icon')).toHaveAttribute('data-state', 'signed-in');
    // the layout (and its icon) goes with the session: record every state the icon takes
    const states: string[] = [];
    await portal.exposeFunction('recordIconState', (s: string) => states.push(s));
    await portal.evaluate(() => {
      const record = (window as unknown as { recordIconState: (s: string) => void }).recordIconState;
      new MutationObserver(() => {
        const icon = document.querySelector('.ext-icon');
        if (icon) record(icon.getAttribute('data-state') ?? '');
      }).observe(document.body, {
        subtree: true,
        childList: true,
        attributes: true,
        attributeFilter: ['data-state'],
      });
    });
    await portal.getByRole('button', { name: 'Sign out' }).click();
    await portal.waitForURL((url) => url.pathname === '/');
    expect(states).toContain('signed-out');
    await expect.poll(async () => (await stateOf(worker)).signedIn).toBe(false);

    // signing in again finds the extension present but signed out, and signs it in through /check
    await signIn(portal, learner);
    await expect(portal.locator('.ext-icon')).toHaveAttribute('data-state', 'signed-in', { timeout: 15_000 });
  });

  test("the learner sees, exports and deletes a tracked day; the dashboard and the mentor's figures follow", async ({
    browser: plain,
  }) => {
    // two browsers and two downloads: generous on a loaded machine (CI shares its cores)
    test.setTimeout(300_000);
    const mentor = await newAccount({ role: 'TENANT', prefix: 'extmentor', name: 'Mona Mentor' });
    await mentor.api.call(tenantAddUserV2, { body: { email: learner.email } });
    const learningDays = (page: Page) =>
      page.getByRole('region', { name: 'Learning days' }).locator('dd').nth(2);

    // the heatmap and the streaks count today; the ranges end at the end of yesterday: look from tomorrow
    await context.clock.setFixedTime(Date.now() + DAY * 1000);
    await portal.goto('/dashboard');
    await expect(learningDays(portal)).toHaveText('1');
    await expect(
      portal.getByRole('region', { name: 'Learning days' }).getByRole('img').first(),
    ).toHaveAttribute('aria-label', /1 day with learning/);
    await expect(portal.getByRole('region', { name: 'Time per subject and topic' })).toContainText(/\dm/);

    // the mentor's figures before, and the Learning Report as a CSV read back
    const { context: mentorContext, page: desk } = await signedInContext(plain, mentor);
    await desk.goto('/portal/average-learning-time');
    const row = desk.getByRole('row').filter({ hasText: learner.email });
    await expect(row).toBeVisible();
    const [download] = await Promise.all([
      desk.waitForEvent('download'),
      desk.getByRole('button', { name: /^Download CSV\b.*Learning Report/ }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^waymark-learning-report-\d{4}-\d{2}-\d{2}\.csv$/);
    const file = readFileSync((await download.path())!);
    expect([...file.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const report = parseCsv(file, { bom: true, columns: true }) as Record<string, string>[];
    const mine = report.find((r) => r.Email === learner.email)!;
    expect(mine[LEARNING_REPORT.days.header]).toBe('1');
    expect(Number(mine[LEARNING_REPORT.time.header])).toBeGreaterThanOrEqual(355);
    await expectAccessible(desk, 'the Learning Report with Download CSV');
    await desk.goto(`/portal/users/${learner.id}/analytics`);
    await expect(learningDays(desk)).toHaveText('1');

    // the learner's own record: every span, downloadable, deletable
    await portal.goto('/what-was-tracked');
    await expect(portal.getByRole('heading', { name: 'What was tracked', level: 1 })).toBeVisible();
    const today = new Date().toISOString().slice(0, 10);
    const day = portal.locator('section.tracked-day');
    await expect(day).toHaveCount(1);
    await expect(day).toContainText(studied.title);
    await expectAccessible(portal, 'what was tracked');
    const [exported] = await Promise.all([
      portal.waitForEvent('download'),
      portal.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    const spans = parseCsv(readFileSync((await exported.path())!), { bom: true, columns: true }) as Record<
      string,
      string
    >[];
    expect(spans.length).toBeGreaterThan(0);
    expect(spans.every((r) => r['Day (UTC)'] === today && r.Resource === studied.title)).toBe(true);

    await day.getByRole('button', { name: /^Delete this day\b/ }).click();
    const confirm = portal.getByRole('alertdialog', { name: 'Delete this day?' });
    await expectAccessible(portal, 'deleting a day');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(portal.getByText('Nothing was tracked yet.')).toBeVisible();
    await expectAccessible(portal, 'nothing tracked');

    // at once: the dashboard, the mentor's analytics and Learning Report
    await portal.goto('/dashboard');
    await expect(learningDays(portal)).toHaveText('0');
    await desk.reload();
    await expect(learningDays(desk)).toHaveText('0');
    await desk.goto('/portal/average-learning-time');
    await expect(row.getByRole('cell').nth(3)).toHaveText('0');
    await mentorContext.close();
  });
});

test.describe('learning time without the extension', () => {
  test('the icon is grey and the install prompts appear', async ({ page }) => {
    // a learner of their own with a roadmap: its first resource is the dashboard's card
    const learner = await newAccount({ prefix: 'no-extension' });
    const resource = await assignedResource(learner);
    await signIn(page, learner);
    await expect(page.locator('.ext-icon')).toHaveAttribute('data-state', 'absent', { timeout: 15_000 });
    await expect(page.getByRole('img', { name: 'Waymark extension not installed' })).toBeVisible();
    await page.goto('/dashboard');
    const card = page.locator('.wm-card').filter({ hasText: resource.title });
    await expect(card).toBeVisible();
    await expect(card.getByRole('link', { name: 'Install Extension' })).toBeVisible();
    const install = page.getByRole('link', { name: 'Install Extension' }).first();
    await expect(install).toBeVisible();
    await expect(install).toHaveAttribute('href', /chromewebstore\.google\.com/);
    await expect(page.getByRole('button', { name: /^Assessment of / })).toHaveCount(0);
    await expectAccessible(page, 'the dashboard without the extension');
  });
});

test.describe('after removing the extension', () => {
  test("'Sorry to see you go' asks why, with the form's rules, then thanks", async ({ page }) => {
    const leaver = await newAccount({ prefix: 'uninstalled' });
    await signIn(page, leaver);
    await page.goto('/sorry-to-see-you-go');
    await expect(page.getByRole('heading', { name: 'Sorry to see you go', level: 1 })).toBeVisible();
    await expectAccessible(page, 'the uninstall feedback form');
    await page.getByLabel('Email').fill('');
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByText('At least one Reason should be Selected')).toBeVisible();
    await expect(page.getByText('Please enter email id')).toBeVisible();
    await page.getByLabel('Email').fill('not-an-address');
    await page.getByLabel("It doesn't work").check();
    await page.getByLabel('Other', { exact: true }).check();
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByText('Invalid email address')).toBeVisible();
    await expect(page.getByText('Please enter other')).toBeVisible();
    await page.getByLabel('Email').fill(leaver.email);
    await page.getByRole('textbox', { name: 'Other' }).fill('It slowed my browser down');
    await page.getByLabel('Message').fill('Thanks anyway.');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL((url) => url.pathname === '/thanks');
    await expect(page.getByRole('heading', { name: 'Thank you' })).toBeVisible();
    await expectAccessible(page, 'the thanks page');
  });
});
