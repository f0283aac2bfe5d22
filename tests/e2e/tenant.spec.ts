/**
 * The mentor portal end to end, against the real server, its sandbox payments and the Auth emulator:
 *
 * - a learner opening /portal/users is told 'Not permitted';
 * - a new mentor adds an existing learner by e-mail (after the checks: 'Required', an unknown address
 *   offers Invite, which sends the e-mail sign-in link, and a second add says 'Email Already Assigned For
 *   You'), sees them in the table and finds them by search;
 * - the learner's Analytics Report shows the time of real heartbeats sent through the extension's API, the
 *   'View report' modal and the Assessment table, whose 'View Answers' opens the review of a real test;
 * - the mentor assigns a roadmap (a third is refused), sees it among the learner's roadmaps and its progress;
 * - the statistics tables, the learning report and the roadmap list;
 * - adding a user beyond the ten free seats asks for a payment, in the period the plans are sold with (per
 *   user per month, billed annually: the timeline and the sandbox checkout say 'year'): Cancel, then the
 *   sandbox checkout cancelled ('Payment failed') and paid ('Payment was successfully paid!'), after which
 *   the learner is a user; one more seat is then the rest of this year, prorated;
 * - removing a learner of a subscribed mentor asks about the billing cycle and leaves the row disabled.
 *
 * Every page visited passes axe. The server is never faked: data is made through its API as the learners
 * and the extension would.
 */
import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { sendHeartbeats } from '../../shared/contract/activity';
import { createTestLink } from '../../shared/contract/assessments';
import { socketToken } from '../../shared/contract/auth';
import { tenantSubscriptionInfo } from '../../shared/contract/billing';
import { tenantAddUserV2 } from '../../shared/contract/tenant';
import { type Account, apiClient, baseUrl, newAccount, PASSWORD, uniquePhone } from '../support/accounts';
import { type AnswerMode, takeTest } from '../support/answers';
import { assignDemoRoadmap } from '../support/catalogue';
import { uniqueEmail } from '../support/emulator';
import { expect, expectAccessible, login, test } from '../support/fixtures';

const DAY_MS = 86_400_000;

interface Studied {
  assignedId: string;
  roadmapId: string;
  roadmapName: string;
  resourceTitle: string;
  linkId: string;
  passedTitle: string;
}

/**
 * The learner assigns a catalogue roadmap to themself, studies its first resource for ten minutes (21
 * heartbeats 30 s apart, through the extension's own tokens and call) and fails its resource test; then
 * passes the test of the next resource, which earns a feather.
 */
async function learnSomething(learner: Account): Promise<Studied> {
  const detail = await assignDemoRoadmap(learner.api);
  const section = detail.sections[0]!;
  const resource = section.resources[0]!;

  const ext = (
    await learner.api.call(socketToken, {
      query: { device: 'CHROME_EXTENSION', deviceInfo: JSON.stringify({ browserType: 'chrome' }) },
    })
  ).data;
  const extension = apiClient(
    { token: ext.extensionAccessToken, refreshToken: ext.extensionRefreshToken },
    'CHROME_EXTENSION',
  );
  const end = Date.now() - 60_000;
  const heartbeats = Array.from({ length: 21 }, (_, i) => ({
    id: randomUUID(),
    resourceId: resource._id,
    url: resource.url,
    time: end - (20 - i) * 30_000,
    tabActive: true,
    audible: false,
  }));
  const receipt = (await extension.call(sendHeartbeats, { body: { heartbeats } })).data;
  expect(receipt.accepted, JSON.stringify(receipt.ignored)).toBe(21);

  // a resource test failed, and the next resource's test passed (the bank knows every right answer)
  const assess = async (sectionId: string, resourceId: string, mode: AnswerMode) => {
    const linkId = (
      await learner.api.call(createTestLink, {
        body: { type: 'RESOURCE', assignedRoadmapId: detail._id, sectionId, resourceId },
      })
    ).data.testLinkId;
    const { questions, answers, result } = await takeTest(learner.api, linkId, mode);
    expect(answers.length, 'the demo bank knows the answers').toBeGreaterThan(0);
    return { linkId, status: result.status, all: answers.length === questions.length };
  };
  const failed = await assess(section._id, resource._id, 'wrong');
  expect(failed.status).toBe('NO_ENOUGH_MARKS');
  const next = section.resources[1] ?? detail.sections[1]!.resources[0]!;
  const nextSection = section.resources[1] ? section : detail.sections[1]!;
  const passed = await assess(nextSection._id, next._id, 'right');
  expect(passed.all).toBe(true);
  expect(passed.status).toBe('GENERATE_CERTIFICATE');
  return {
    passedTitle: next.userTitle || next.actualTitle,
    assignedId: detail._id,
    roadmapId: detail.roadmapId,
    roadmapName: detail.name,
    resourceTitle: resource.userTitle || resource.actualTitle,
    linkId: failed.linkId,
  };
}

async function signInMentor(page: Page, mentor: Account) {
  await login(page, mentor.email, mentor.password);
  await expect(page).toHaveURL(/\/portal\/users$/, { timeout: 20_000 });
}

const usersTable = (page: Page) => page.getByRole('table', { name: 'Your users' });
const rowOf = (page: Page, email: string) => usersTable(page).getByRole('row').filter({ hasText: email });

async function openAddUser(page: Page) {
  await page.getByRole('button', { name: 'Add User' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add User' });
  await expect(dialog).toBeVisible();
  return dialog;
}

test.describe('the mentor portal', () => {
  test.describe.configure({ mode: 'serial' });

  let mentor: Account;
  let asha: Account;
  let ben: Account;
  let studied: Studied;
  let page: Page;
  /** The invitation sent to a stranger: their address and the e-mail sign-in link. */
  let invitation: { email: string; link: string };

  test.beforeAll(async ({ browser }) => {
    [mentor, asha, ben] = await Promise.all([
      newAccount({ role: 'TENANT', prefix: 'mentor', name: 'Meera Mentor' }),
      newAccount({ prefix: 'asha', name: 'Asha Analytics' }),
      newAccount({ prefix: 'ben', name: 'Ben Second' }),
    ]);
    studied = await learnSomething(asha);
    page = await browser.newPage();
  });

  test.afterAll(async () => {
    await page?.close();
  });

  test("a learner opening /portal/users is told 'Not permitted'", async ({ browser }) => {
    const learnerPage = await browser.newPage();
    await login(learnerPage, asha.email, asha.password);
    await expect(learnerPage.getByRole('button', { name: 'Sign out' })).toBeVisible({ timeout: 20_000 });
    await learnerPage.goto('/portal/users');
    await expect(learnerPage.getByRole('heading', { name: 'Not permitted' })).toBeVisible();
    await expect(learnerPage.getByRole('button', { name: 'Add User' })).toHaveCount(0);
    await expectAccessible(learnerPage, 'not permitted');
    await learnerPage.close();
  });

  test('a new mentor adds an existing learner by e-mail after the checks, and invites an unknown one', async ({
    emulator,
  }) => {
    await signInMentor(page, mentor);
    await expect(page.getByRole('heading', { name: 'Users', level: 1 })).toBeVisible();
    await expect(usersTable(page).getByText('No data found')).toBeVisible();
    await expect(page.getByRole('link', { name: /Total Certificate/ })).toHaveAttribute(
      'href',
      '/portal/total-certificates',
    );
    await expectAccessible(page, 'users, empty');

    const dialog = await openAddUser(page);
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(dialog.getByText('Required', { exact: true })).toBeVisible();
    await dialog.getByLabel(/^Email/).fill('not-an-address');
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(dialog.getByText('Invalid email address')).toBeVisible();
    await expectAccessible(page, 'add user with an error');

    // nobody has this address: Invite replaces Add and sends the e-mail sign-in link
    const stranger = uniqueEmail('invitee');
    await dialog.getByLabel(/^Email/).fill(stranger);
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(dialog.getByText('User does not exist, please invite them')).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Add', exact: true })).toHaveCount(0);
    await dialog.getByRole('button', { name: 'Invite' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: `An invitation was sent to ${stranger}` }),
    ).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect
      .poll(
        async () =>
          (await emulator.oobCodes(stranger)).find((c) => c.requestType === 'EMAIL_SIGNIN')?.oobLink,
      )
      .toBeTruthy();
    const link = (await emulator.oobCodes(stranger)).find((c) => c.requestType === 'EMAIL_SIGNIN')!.oobLink;
    const back = new URL(new URL(link).searchParams.get('continueUrl')!);
    expect(back.searchParams.get('tenantId')).toBe(mentor.id);
    expect(back.searchParams.get('email')).toBe(stranger);
    invitation = { email: stranger, link };

    // an existing learner is added, once
    await openAddUser(page);
    await dialog.getByLabel(/^Email/).fill(asha.email.toUpperCase());
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(
      page.getByRole('status').filter({ hasText: 'Asha Analytics was added to your users.' }),
    ).toBeVisible();
    const row = rowOf(page, asha.email);
    await expect(row.getByRole('rowheader', { name: 'Asha Analytics' })).toBeVisible();
    await expect(row.getByText('Active')).toBeVisible();
    await expect(
      page.getByRole('list', { name: 'Statistics' }).getByText('Total Users').locator('..'),
    ).toContainText('1');

    await openAddUser(page);
    await dialog.getByLabel(/^Email/).fill(asha.email);
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(dialog.getByText('Email Already Assigned For You')).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expectAccessible(page, 'users with a learner');
  });

  test('search finds a learner on Enter and on Search', async () => {
    await mentor.api.call(tenantAddUserV2, { body: { email: ben.email } });
    await page.reload();
    await expect(rowOf(page, ben.email)).toBeVisible();
    await expect(rowOf(page, asha.email)).toBeVisible();
    const box = page.getByRole('searchbox', { name: 'Search users' });
    await box.fill('asha');
    await box.press('Enter');
    await expect(rowOf(page, ben.email)).toHaveCount(0);
    await expect(rowOf(page, asha.email)).toBeVisible();
    await box.fill('nobody-at-all');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(usersTable(page).getByText('No data found')).toBeVisible();
    await box.fill('');
    await box.press('Enter');
    await expect(rowOf(page, ben.email)).toBeVisible();
  });

  test("the learner's Analytics Report shows their heartbeats, their assessments and a test's answers", async () => {
    // the ranges end at the end of yesterday (UTC): look from tomorrow, so today's learning is in them
    await page.clock.setFixedTime(Date.now() + DAY_MS);
    await rowOf(page, asha.email).getByRole('button', { name: 'Action for Asha Analytics' }).click();
    await page.getByRole('menuitem', { name: 'Analytics' }).click();
    await expect(page).toHaveURL(new RegExp(`/portal/users/${asha.id}/analytics$`));
    await expect(page.getByRole('heading', { name: 'Analytics Report', level: 1 })).toBeVisible();
    await expect(page.getByText('Asha Analytics', { exact: true })).toBeVisible();
    await expect(page.getByLabel('Date range')).toHaveValue('Past 7 days');
    await expect(page.getByText(/a day over past 7 days \(10m in all\)/)).toBeVisible();
    const awards = page.getByRole('region', { name: 'Awards earned' });
    await expect(awards).toContainText('1 FEATHER');
    await expect(awards).toContainText('0 BADGE');
    await expect(awards).toContainText('0 CERTIFICATE');
    await expect(page.getByRole('heading', { name: 'Your Daily Time spent on Learning' })).toBeVisible();
    const report = page.getByRole('region', { name: 'Resource-wise Report' });
    const resourceRow = report.getByRole('row').filter({ hasText: studied.resourceTitle });
    await expect(resourceRow).toContainText('10m');
    await expectAccessible(page, 'analytics');

    await resourceRow.getByRole('button', { name: `View report of ${studied.resourceTitle}` }).click();
    const modal = page.getByRole('dialog', { name: 'Assessments' });
    await expect(modal.getByText('No Enough Marks')).toBeVisible();
    await expectAccessible(page, 'assessments of a resource');
    await modal.getByRole('button', { name: 'Close' }).click();

    await page.getByLabel('Date range').selectOption('Last 28 Days');
    await expect(page.getByText(/a day over last 28 days \(10m in all\)/)).toBeVisible();

    const tests = page.getByRole('region', { name: 'Assessment', exact: true });
    const testRow = tests.getByRole('row').filter({ hasText: studied.resourceTitle });
    await expect(testRow.getByText('No Enough Marks')).toBeVisible();
    await testRow.getByRole('link', { name: /View Answers/ }).click();
    await expect(page).toHaveURL(new RegExp(`/portal/users/${asha.id}/testlink/${studied.linkId}$`));
    await expect(page.getByRole('heading', { name: 'Questions & Answers', level: 1 })).toBeVisible();
    await expect(page.getByText('Wrong', { exact: true }).first()).toBeVisible();
    await expect(page.getByRole('button', { name: /^Feedback/ })).toHaveCount(0);
    await expectAccessible(page, 'questions and answers');

    await page.goto(`/portal/users/${asha.id}/testlink/not-a-real-link-0000`);
    await expect(page.getByRole('alert')).toHaveCSS('color', 'rgb(185, 28, 28)');
    await page.clock.setFixedTime(Date.now());
  });

  test("the mentor assigns a roadmap, sees it among the learner's roadmaps, and a third is refused", async () => {
    await page.goto('/portal/users');
    await rowOf(page, asha.email).getByRole('button', { name: 'Action for Asha Analytics' }).click();
    await page.getByRole('menuitem', { name: 'Assigned Roadmap' }).click();
    await expect(page.getByRole('heading', { name: 'Assigned Roadmaps', level: 1 })).toBeVisible();
    await expect(page.getByRole('row').filter({ hasText: studied.roadmapName })).toBeVisible();
    await expectAccessible(page, 'assigned roadmaps');

    await page.getByRole('link', { name: 'Select Roadmaps' }).click();
    await expect(page).toHaveURL(new RegExp(`/portal/users/${asha.id}/all-roadmaps$`));
    await expectAccessible(page, 'all roadmaps for a learner');
    const labels = await page
      .getByRole('link', { name: /^View / })
      .evaluateAll((links) => links.map((l) => l.getAttribute('aria-label') ?? ''));
    const names = labels.map((l) => l.slice('View '.length)).filter((n) => n !== studied.roadmapName);
    expect(names.length).toBeGreaterThan(1);
    // roadmaps without prerequisites
    const second = names.find((n) => n === 'Git and GitHub') ?? names[0]!;
    const third = names.find((n) => n === 'SQL Essentials') ?? names.at(-1)!;
    await page.getByRole('link', { name: `View ${second}`, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/portal/users/${asha.id}/roadmap/`));
    await expect(page.getByRole('heading', { name: second, level: 1 })).toBeVisible();
    await expectAccessible(page, 'roadmap for a learner');
    await page.getByRole('button', { name: 'Assign this roadmap for him...' }).click();
    await expect(page).toHaveURL(new RegExp(`/portal/users/${asha.id}/assigned-roadmaps$`));
    const assignedRow = page.getByRole('row').filter({ hasText: second });
    await expect(assignedRow).toContainText('ONGOING');

    // the roadmap is now marked Assigned; a third one is refused
    await page.goBack();
    await expect(page.getByRole('heading', { name: second, level: 1 })).toBeVisible();
    await expect(page.getByText('Assigned', { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Assign this roadmap for him...' })).toHaveCount(0);
    await page.goBack();
    await page.getByRole('link', { name: `View ${third}`, exact: true }).click();
    await page.getByRole('button', { name: 'Assign this roadmap for him...' }).click();
    await expect(page.getByRole('alert')).toHaveText('Already two Roadmaps are assigned for this user.');
    await expectAccessible(page, 'assignment refused');

    // the learner's progress in their own roadmap
    await page.goto(`/portal/users/${asha.id}/assigned-roadmaps`);
    await page.getByRole('link', { name: `View ${studied.roadmapName}` }).click();
    await expect(page).toHaveURL(new RegExp(`/assigned-roadmaps/${studied.assignedId}$`));
    const counters = page.getByRole('list', { name: 'Awards' });
    await expect(counters).toContainText('0 CERTIFICATE');
    await expect(counters).toContainText('1 FEATHER');
    await expect(page.getByRole('img', { name: 'Passed', exact: true })).toHaveCount(1);
    await expect(page.getByRole('tab', { name: 'Roadmap' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('img', { name: 'Not passed yet' }).first()).toBeVisible();
    await expect(
      page
        .getByRole('region', { name: 'Assessments', exact: true })
        .getByRole('row')
        .filter({ hasText: studied.resourceTitle }),
    ).toContainText('No Enough Marks');
    await expectAccessible(page, 'assigned roadmap progress');
  });

  test('the statistics tables, the learning report and the roadmap list', async () => {
    await page.goto('/portal/users');
    await page.getByRole('link', { name: /Total Feather/ }).click();
    await expect(page.getByRole('heading', { name: 'Total Feather', level: 1 })).toBeVisible();
    const feather = page.getByRole('row').filter({ hasText: studied.passedTitle });
    await expect(feather).toContainText(asha.email);
    await expect(feather).toContainText(studied.roadmapName);
    await expect(feather).toContainText('100%');
    await expectAccessible(page, 'feathers');
    await feather.getByRole('button', { name: 'View Feather of Asha Analytics' }).click();
    const award = page.getByRole('dialog', { name: 'Feather of Asha Analytics' });
    await expect(award.getByRole('link', { name: /Verify this feather/ })).toBeVisible();
    await expect(award).toContainText(studied.passedTitle);
    await expectAccessible(page, 'a feather');
    await award.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('main').getByRole('link', { name: 'Users', exact: true }).click();
    await page.getByRole('link', { name: /Total Certificate/ }).click();
    await expect(page.getByRole('heading', { name: 'Total Certificate', level: 1 })).toBeVisible();
    await expect(page.getByText('No data found')).toBeVisible();
    await expectAccessible(page, 'certificates, none');
    await page.goto('/portal/users');
    await page.getByRole('link', { name: /Average Learning Time/ }).click();
    await expect(page.getByRole('heading', { name: 'Learning Report', level: 1 })).toBeVisible();
    const row = page.getByRole('row').filter({ hasText: asha.email });
    await expect(row).toContainText('10m');
    await expectAccessible(page, 'learning report');

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Roadmaps' }).click();
    await expect(page.getByRole('heading', { name: 'Roadmap List', level: 1 })).toBeVisible();
    await expectAccessible(page, 'roadmap list');
    await page.getByRole('link', { name: `Manage ${studied.roadmapName}` }).click();
    await expect(page).toHaveURL(new RegExp(`/portal/roadmaps/${studied.roadmapId}/roadmap$`));
    await expect(page.getByRole('heading', { name: studied.roadmapName, level: 1 })).toBeVisible();
    await expect(page.getByText(/^Created At: /)).toBeVisible();
    await expectAccessible(page, 'roadmap detail');
  });

  test('beyond the free seats, adding asks for a payment; the sandbox checkout brings the learner in', async () => {
    // fill the free seats (two learners and the invitation hold three)
    const info = (await mentor.api.call(tenantSubscriptionInfo)).data;
    expect(info.isSubscribed).toBe(false);
    expect(info.pendingInvitations).toBe(1);
    const free = info.freeSeats - info.seatCount - info.pendingInvitations;
    const [paid, fillers] = await Promise.all([
      newAccount({ prefix: 'paid', name: 'Priya Paid' }),
      Promise.all(
        Array.from({ length: free }, (_, i) =>
          newAccount({ prefix: `filler${i + 1}`, name: `Filler ${i + 1}` }),
        ),
      ),
    ]);
    for (const filler of fillers) {
      const added = (await mentor.api.call(tenantAddUserV2, { body: { email: filler.email } })).data;
      expect(added.outcome).toBe('ADDED');
    }
    await page.goto('/portal/users');

    const dialog = await openAddUser(page);
    await dialog.getByLabel(/^Email/).fill(paid.email);
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    const payment = page.getByRole('dialog', { name: 'Payment Required' });
    await expect(payment).toBeVisible();
    const timeline = payment.getByRole('list', { name: 'Payments' });
    await expect(timeline).toContainText('Now');
    await expect(timeline).toContainText('Next Due');
    // sold per user per month, billed annually: a year now, then every year
    await expect(payment).toContainText(
      '₹75.00 per user per month, billed annually (₹900.00 per user per year)',
    );
    await expect(timeline).toContainText(/Now\s*₹900\.00 for the first year/);
    const nextYear = new Date().getUTCFullYear() + 1;
    await expect(timeline).toContainText(new RegExp(`₹900\\.00 on .*${nextYear}.*then every year`));
    await expect(timeline).not.toContainText('month');
    await expectAccessible(page, 'payment required');
    await payment.getByLabel('Promo code').fill('NO-SUCH-CODE');
    await payment.getByRole('button', { name: 'Apply' }).click();
    await expect(payment.getByText('Coupon Code Not Valid')).toBeVisible();
    await payment.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Subscription Cancelled...' })).toBeVisible();
    await expect(payment).toBeHidden();

    // the checkout cancelled on the provider's page
    await openAddUser(page);
    await dialog.getByLabel(/^Email/).fill(paid.email);
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await payment.getByRole('button', { name: 'Pay Now' }).click();
    await page.waitForURL(/\/sandbox-checkout\//);
    await expectAccessible(page, 'sandbox checkout');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForURL(/\/portal\/users/);
    await expect(page.getByRole('alert').filter({ hasText: 'Payment failed' })).toBeVisible();
    await expect(page).toHaveURL(/\/portal\/users$/);
    await expect(rowOf(page, paid.email)).toHaveCount(0);

    // and paid
    await openAddUser(page);
    await dialog.getByLabel(/^Email/).fill(paid.email);
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await payment.getByRole('button', { name: 'Pay Now' }).click();
    await page.waitForURL(/\/sandbox-checkout\//);
    await expect(page.getByRole('table')).toContainText(
      'per year, ₹75.00 per seat per month billed annually',
    );
    await expect(page.getByRole('button', { name: /^Pay / })).toHaveText('Pay ₹900.00');
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.waitForURL(/\/portal\/users/);
    await expect(
      page.getByRole('status').filter({ hasText: 'Payment was successfully paid!' }),
    ).toBeVisible();
    await expect(page).toHaveURL(/\/portal\/users$/);
    await page.getByRole('searchbox', { name: 'Search users' }).fill(paid.email);
    await page.getByRole('searchbox', { name: 'Search users' }).press('Enter');
    await expect(rowOf(page, paid.email).getByRole('rowheader', { name: 'Priya Paid' })).toBeVisible();
    await expectAccessible(page, 'users after the payment');

    // subscribed now: one more seat is the rest of this year, prorated, then every year with the others
    const another = await newAccount({ prefix: 'another', name: 'Anil Another' });
    await openAddUser(page);
    await dialog.getByLabel(/^Email/).fill(another.email);
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(payment).toBeVisible();
    await expect(timeline).toContainText(
      /Now\s*₹(899|900)\.\d\d for the rest of this year, until .* \(prorated\)/,
    );
    await expect(timeline).toContainText(/₹1,800\.00 on .*then every year/);
    await payment.getByRole('button', { name: 'Cancel' }).click();
    await expect(payment).toBeHidden();
  });

  test('removing a learner asks about the billing cycle; a subscribed mentor keeps them until it ends', async () => {
    await page.goto('/portal/users');
    const box = page.getByRole('searchbox', { name: 'Search users' });
    await box.fill(ben.email);
    await box.press('Enter');
    const row = rowOf(page, ben.email);
    await row.getByRole('button', { name: 'Action for Ben Second' }).click();
    await page.getByRole('menuitem', { name: 'Remove learner' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Remove learner' });
    await expect(confirm).toContainText('until the end of this billing cycle');
    await expectAccessible(page, 'remove learner');
    await confirm.getByRole('button', { name: 'Remove', exact: true }).click();
    await expect(confirm).toBeHidden();
    await expect(
      page.getByRole('status').filter({ hasText: /Ben Second stays with you until/ }),
    ).toBeVisible();
    // the seat cycle is the plan's year: Ben stays until the subscription's next due date, next year
    await expect(
      page.getByRole('status').filter({ hasText: /Ben Second stays with you until/ }),
    ).toContainText(String(new Date().getUTCFullYear() + 1));
    await expect(row).toHaveClass('disabled');
    const badge = row.getByText('Disabled', { exact: true });
    await badge.focus();
    await expect(row.getByRole('tooltip')).toHaveText(
      'The tenant can access the user only until the end of this billing cycle.',
    );
    await expect(row.getByRole('tooltip')).toBeVisible();
    await row.getByRole('button', { name: 'Action for Ben Second' }).click();
    await expect(page.getByRole('menuitem', { name: 'Remove learner' })).toHaveCount(0);
    await expect(page.getByRole('menuitem', { name: 'Analytics' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expectAccessible(page, 'users with a removed learner');
  });

  test("the invited person follows the e-mail link, chooses a password and becomes the mentor's user", async ({
    browser,
  }) => {
    // the e-mail link goes through the identity service's action page to the sign-up page
    const invitee = await browser.newPage();
    await invitee.goto(invitation.link);
    await expect(invitee).toHaveURL(/\/learner\?/);
    const landing = new URL(invitee.url());

    // a link whose tenant never invited this address goes home with a message
    const forged = new URL(landing);
    forged.searchParams.set('tenantId', randomUUID());
    await invitee.goto(forged.toString());
    await expect(invitee).toHaveURL(`${baseUrl()}/`);
    await expect(
      invitee.getByText('This invitation link is no longer valid', { exact: false }),
    ).toBeVisible();

    await invitee.goto(landing.toString());
    await expect(invitee.getByText('Meera Mentor invited you to Waymark.', { exact: false })).toBeVisible();
    await expect(invitee.getByLabel('Email')).toHaveValue(invitation.email);
    await expect(invitee.getByRole('button', { name: /Google/ })).toHaveCount(0);
    await expectAccessible(invitee, 'invitation sign-up');
    await invitee.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await invitee.getByLabel('Confirm password').fill(PASSWORD);
    await invitee.getByRole('button', { name: 'Sign up', exact: true }).click();
    await expect(invitee).toHaveURL(/\/basic-profile$/, { timeout: 20_000 });
    await invitee.getByLabel('Name').fill('Ivy Invited');
    await invitee.getByRole('textbox', { name: 'Mobile number' }).fill(uniquePhone());
    await invitee.getByRole('button', { name: 'Continue' }).click();
    await expect(invitee).toHaveURL(/\/(my-roadmaps|check)$/, { timeout: 20_000 });
    await invitee.close();

    // the invitation became a seat
    await page.goto('/portal/users');
    const box = page.getByRole('searchbox', { name: 'Search users' });
    await box.fill(invitation.email);
    await box.press('Enter');
    await expect(rowOf(page, invitation.email).getByRole('rowheader', { name: 'Ivy Invited' })).toBeVisible();
    const info = (await mentor.api.call(tenantSubscriptionInfo)).data;
    expect(info.pendingInvitations).toBe(0);
  });
});
