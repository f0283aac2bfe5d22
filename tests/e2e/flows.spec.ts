/**
 * The specification's flows as a newcomer meets them (decision 011), in Chromium against the real server:
 *
 * - a roadmap with prerequisites is never taken without the prerequisite assessment: not from
 *   /roadmap/{id} ('Assign this to me...'), not by a direct POST /roadmap/assign-roadmap, and a mentor
 *   assigning it for a learner chooses explicitly what the assessment would have decided (decision 011);
 * - after the assessment, or 'Yes, I want to assign', the learner lands on the preview
 *   /access-assigned-roadmap/{id} (confetti, sections, the prerequisite's result), or on /my-roadmap/{id}
 *   when the stored tenant-portal flag is set; /my-roadmap/{id} without the extension has its heading;
 * - a course section made only of reading resources shows no '0s';
 * - 'Not permitted' keeps the top bar and the sidebar, with a way home;
 * - the date-range picker sits beside its title, the users search shows its whole placeholder, and the
 *   development mailbox has the site's frame and a time of its own for each identity mail.
 *
 * Every page visited passes axe.
 */
import type { Locator, Page } from '@playwright/test';
import { ApiError } from '../../shared/client/client';
import { assignRoadmap } from '../../shared/contract/catalogue';
import { tenantAddUserV2, tenantAssignedRoadmap, tenantAssignRoadmap } from '../../shared/contract/tenant';
import type { RoadmapSummary } from '../../shared/schemas/catalogue';
import { TENANT_PORTAL_KEY } from '../../widgets/core/pending';
import { type Account, newAccount, PASSWORD, signedInContext } from '../support/accounts';
import { answerFirstChoices } from '../support/answers';
import { byName, catalogue, detail } from '../support/catalogue';
import { runEmulator, uniqueEmail } from '../support/emulator';
import { expect, expectAccessible, test } from '../support/fixtures';

/** The card of a roadmap in the landing page's catalogue. */
const card = (page: Page, name: string) =>
  page.getByRole('listitem').filter({ has: page.getByRole('heading', { name, exact: true }) });

/** Answers every question of the prerequisite assessment with its first choice, then submits. */
async function answerAndSubmit(page: Page) {
  await answerFirstChoices(page);
  await page.getByRole('button', { name: 'Finish' }).click();
  await page
    .getByRole('dialog', { name: 'Finish the assessment' })
    .getByRole('button', { name: 'Submit' })
    .click();
}

/** The error an API call is refused with. */
async function refusal(call: Promise<unknown>): Promise<ApiError> {
  const err = await call.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, 'the call is refused').toBeInstanceOf(ApiError);
  return err as ApiError;
}

/** Whether the text of an input's placeholder fits inside its box. */
async function placeholderFits(input: Locator) {
  return input.evaluate((el) => {
    const field = el as HTMLInputElement;
    const style = getComputedStyle(field);
    const ctx = document.createElement('canvas').getContext('2d')!;
    ctx.font = style.font;
    const room =
      field.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
    return { text: ctx.measureText(field.placeholder).width, room };
  });
}

/**
 * The date-range picker (its label and select) sits on the title's line, centred with it, or wraps below
 * it on a narrow screen; it never floats above the title.
 */
async function expectRangeBesideTitle(page: Page) {
  const title = await page.getByRole('heading', { level: 1 }).first().boundingBox();
  const picker = await page.locator('.wm-range').boundingBox();
  expect(title && picker).toBeTruthy();
  const centre = (b: { y: number; height: number }) => b.y + b.height / 2;
  const beside = Math.abs(centre(picker!) - centre(title!)) <= 4;
  const below = picker!.y >= title!.y + title!.height - 1;
  expect(
    { beside, below },
    `picker ${JSON.stringify(picker)}, title ${JSON.stringify(title)}: on the title's line or below it`,
  ).not.toEqual({ beside: false, below: false });
}

test.describe('the spec flows of a newcomer', () => {
  test.describe.configure({ mode: 'serial', timeout: 120_000 });

  let learner: Account;
  let seat: Account;
  let mentor: Account;
  let list: RoadmapSummary[];

  test.beforeAll(async ({ request }) => {
    [learner, seat, mentor] = await Promise.all([
      newAccount({ prefix: 'newcomer', name: 'Nia Newcomer' }),
      newAccount({ prefix: 'seat', name: 'Sami Seat' }),
      newAccount({ role: 'TENANT', prefix: 'flows-mentor', name: 'Mina Mentor' }),
    ]);
    const added = (await mentor.api.call(tenantAddUserV2, { body: { email: seat.email } })).data;
    expect(added.outcome).toBe('ADDED');
    list = await catalogue(request);
  });

  test('a roadmap with prerequisites: its assessment comes first from /roadmap/{id} and through the API, then the preview shows its result', async ({
    browser,
  }) => {
    const dom = byName(list, 'Modern JavaScript and the DOM');
    // the server refuses a direct assignment
    const err = await refusal(learner.api.call(assignRoadmap, { body: { roadmapId: dom._id } }));
    expect(err.status).toBe(400);
    expect(err.errorCode).toBe('PREREQUISITE_ASSESSMENT_REQUIRED');
    expect(err.field).toBe('roadmapId');

    const { context, page } = await signedInContext(browser, learner);
    await page.goto(`/roadmap/${dom._id}`);
    await expect(page.getByRole('heading', { level: 1, name: dom.name })).toBeVisible();
    await expect(page.getByRole('note')).toContainText('JavaScript Foundations');
    await page.getByRole('button', { name: 'Assign this to me...' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('list', { name: 'Prerequisites' })).toContainText('JavaScript Foundations');
    await expect(dialog).toContainText('mandatory');
    await expectAccessible(page, 'prerequisite dialog on the roadmap page');
    await dialog.getByRole('button', { name: 'Yes, I like to take assessment' }).click();
    await expect(page).toHaveURL(/\/initial-assessment\/[\w-]+$/);
    await answerAndSubmit(page);

    // the preview with its confetti, and the prerequisite's result
    await expect(page).toHaveURL(/\/access-assigned-roadmap\/[\w-]+$/);
    const assignedId = page.url().split('/').at(-1)!;
    await expect(page.getByRole('heading', { level: 1, name: dom.name })).toBeVisible();
    await expect(page.locator('canvas.confetti'), 'confetti').toHaveCount(1);
    const result = page.getByRole('region', { name: 'Your prerequisite assessment' });
    await expect(result).toContainText('JavaScript Foundations');
    await expect(result).toContainText(/\d+%/);
    const open = page.getByRole('link', { name: 'Open my roadmap' });
    await expect(open).toHaveAttribute('href', `/my-roadmap/${assignedId}`);
    await expectAccessible(page, 'preview after the prerequisite assessment');

    // without the extension the roadmap page still says which roadmap it is
    await open.click();
    await expect(page).toHaveURL(`/my-roadmap/${assignedId}`);
    await expect(page.getByRole('heading', { level: 1, name: dom.name })).toBeVisible();
    await expect(page.getByText('Please Install Extension')).toBeVisible();
    await expectAccessible(page, 'my roadmap without the extension');
    await context.close();
  });

  test("'Yes, I want to assign' opens the preview; with the stored tenant-portal flag, the learner's roadmap", async ({
    browser,
  }) => {
    const { context, page } = await signedInContext(browser, learner);
    await page.goto('/');
    await card(page, 'Git and GitHub').getByRole('button', { name: 'Select' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Yes, I want to assign' }).click();
    await expect(page).toHaveURL(/\/access-assigned-roadmap\/[\w-]+$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Git and GitHub' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Open my roadmap' })).toBeVisible();
    await expectAccessible(page, 'preview after assigning');
    await context.close();

    const flagged = await signedInContext(browser, seat);
    await flagged.page.evaluate((key) => localStorage.setItem(key, 'true'), TENANT_PORTAL_KEY);
    await flagged.page.goto('/');
    await card(flagged.page, 'SQL Essentials').getByRole('button', { name: 'Select' }).click();
    await flagged.page.getByRole('dialog').getByRole('button', { name: 'Yes, I want to assign' }).click();
    await expect(flagged.page).toHaveURL(/\/my-roadmap\/[\w-]+$/);
    await flagged.context.close();
  });

  test('a mentor assigning a roadmap with prerequisites chooses what the assessment would have decided', async ({
    browser,
    request,
  }) => {
    const dom = byName(list, 'Modern JavaScript and the DOM');
    const foundations = await detail(request, byName(list, 'JavaScript Foundations')._id);
    const err = await refusal(
      mentor.api.call(tenantAssignRoadmap, { body: { roadmapId: dom._id, userId: seat.id } }),
    );
    expect(err.status).toBe(400);
    expect(err.field).toBe('prerequisites');

    const { context, page } = await signedInContext(browser, mentor);
    await page.goto(`/portal/users/${seat.id}/roadmap/${dom._id}`);
    await expect(page.getByRole('heading', { level: 1, name: dom.name })).toBeVisible();
    await expect(page.getByRole('note')).toContainText('JavaScript Foundations');
    await page.getByRole('button', { name: 'Assign this roadmap for him...' }).click();
    const dialog = page.getByRole('dialog', { name: 'Prerequisites' });
    await expect(dialog).toContainText('JavaScript Foundations');
    await expectAccessible(page, "the mentor's prerequisite choice");
    await dialog.getByRole('radio', { name: /Start with the prerequisites/ }).check();
    await dialog.getByRole('button', { name: 'Assign', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/portal/users/${seat.id}/assigned-roadmaps$`));
    const row = page.getByRole('row').filter({ hasText: dom.name });
    await expect(row).toContainText('ONGOING');
    const assignedId = (await row.getByRole('link').getAttribute('href'))!.split('/').at(-1)!;
    const copy = (
      await mentor.api.call(tenantAssignedRoadmap, { params: { userId: seat.id, id: assignedId } })
    ).data;
    expect(copy.sections.slice(0, foundations.sections.length).map((s) => s.name)).toEqual(
      foundations.sections.map((s) => s.name),
    );
    await context.close();
  });

  test('a course section of reading resources only shows no duration', async ({ page, request }) => {
    const git = byName(list, 'Git and GitHub');
    const sections = (await detail(request, git._id)).sections;
    const unknown = sections.find((s) => s.duration === 0);
    const long = sections.find((s) => s.duration > 360);
    expect(unknown && long, 'the Git roadmap has a section of reading only and a long one').toBeTruthy();
    await page.goto(`/course-detail/${git._id}`);
    await page.getByRole('tab', { name: 'Curriculum' }).click();
    const summary = (name: string) =>
      page.locator('details.wm-section > summary').filter({ hasText: name }).locator('.wm-section-meta');
    await expect(summary(unknown!.name)).toHaveText(`${unknown!.resources.length} lectures`);
    await expect(summary(long!.name)).toContainText(/·\s*\d+h/);
    await expectAccessible(page, 'curriculum');
  });

  test("'Not permitted' keeps the frame and offers the way home", async ({ browser }) => {
    const asLearner = await signedInContext(browser, learner);
    await asLearner.page.goto('/portal/users');
    await expect(asLearner.page.getByRole('heading', { level: 1, name: 'Not permitted' })).toBeVisible();
    await expect(
      asLearner.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }),
    ).toBeVisible();
    await expectAccessible(asLearner.page, 'not permitted, learner');
    await asLearner.page.getByRole('link', { name: 'Go to My Roadmaps' }).click();
    await expect(asLearner.page).toHaveURL(/\/my-roadmaps$/);
    await asLearner.context.close();

    const asMentor = await signedInContext(browser, mentor);
    await asMentor.page.goto('/dashboard');
    await expect(asMentor.page.getByRole('heading', { level: 1, name: 'Not permitted' })).toBeVisible();
    await expect(
      asMentor.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' }),
    ).toBeVisible();
    await asMentor.page.getByRole('link', { name: 'Go to Users' }).click();
    await expect(asMentor.page).toHaveURL(/\/portal\/users$/);
    await asMentor.context.close();
  });

  test('the date range sits beside its title; the users search shows its whole placeholder', async ({
    browser,
  }) => {
    for (const width of [1280, 375]) {
      const asLearner = await signedInContext(browser, learner, { width });
      await asLearner.page.goto('/dashboard');
      await expect(asLearner.page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
      await expectRangeBesideTitle(asLearner.page);
      await asLearner.context.close();

      const asMentor = await signedInContext(browser, mentor, { width });
      await asMentor.page.goto(`/portal/users/${seat.id}/analytics`);
      await expect(asMentor.page.getByRole('heading', { level: 1, name: 'Analytics Report' })).toBeVisible();
      await expectRangeBesideTitle(asMentor.page);
      await asMentor.page.goto('/portal/users');
      const search = asMentor.page.getByRole('searchbox', { name: 'Search users' });
      await expect(search).toBeVisible();
      const fit = await placeholderFits(search);
      expect(fit.text, `the placeholder fits at ${width} px`).toBeLessThanOrEqual(fit.room);
      await asMentor.context.close();
    }
  });

  test('the local mailbox has the site frame and the time each identity mail arrived', async ({ page }) => {
    const emulator = runEmulator();
    const first = uniqueEmail('mail-first');
    const second = uniqueEmail('mail-second');
    await emulator.createAccount(first, PASSWORD);
    await emulator.createAccount(second, PASSWORD);
    await emulator.sendVerificationEmail(first, PASSWORD);
    await page.goto('/mailbox');
    await expect(page.getByRole('heading', { level: 1, name: 'Local mailbox' })).toBeVisible();
    await expect(page.getByRole('banner').getByRole('link', { name: 'Waymark home' })).toBeVisible();
    const mail = (to: string) => page.getByRole('article').filter({ hasText: to });
    await expect(mail(first)).toBeVisible();
    await page.waitForTimeout(1100);
    await emulator.sendVerificationEmail(second, PASSWORD);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(mail(second)).toBeVisible();
    const time = async (to: string) => (await mail(to).locator('time').getAttribute('datetime')) ?? '';
    const [a, b] = [await time(first), await time(second)];
    expect(a).not.toBe('');
    expect(Date.parse(b) - Date.parse(a), 'the second mail arrived later').toBeGreaterThanOrEqual(1000);
    await expect(mail(first)).toBeVisible();
    await expectAccessible(page, 'mailbox');
  });
});
