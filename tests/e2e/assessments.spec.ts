/**
 * The learner's assessment screens end to end, in Chromium with the built extension loaded (the
 * my-roadmap page needs it), against the real server and its demo catalogue and question bank:
 *
 * - a new learner sees the empty state of /assesments;
 * - the subject test creator validates, creates a SUBJECT link and opens /test/{id} in a new tab;
 * - a section test taken through the real API with wrong answers (known from the demo bank) and one
 *   question left out shows 'No Enough Marks'; View Answers shows 'Not Attended', the correct options and
 *   the wrong choices; feedback is validated and sent;
 * - 'Take Assessment' on /my-roadmap/{id} asks for confirmation and opens /test/{id} in a new tab;
 * - /generate-testlink/{id} e-mails a link and shows 'Your Test Link is Generated'.
 *
 * Every page visited passes axe. The server is never faked.
 */
import type { BrowserContext, Page } from '@playwright/test';
import type { Client } from '../../shared/client/client';
import { createTestLink } from '../../shared/contract/assessments';
import type { AssignedRoadmap } from '../../shared/schemas/catalogue';
import { type Account, newAccount } from '../support/accounts';
import { takeTest } from '../support/answers';
import { assignDemoRoadmap } from '../support/catalogue';
import { type ExtensionBrowser, launchWithExtension } from '../support/extension';
import { expect, expectAccessible, login, test } from '../support/fixtures';

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

test.describe("the learner's assessment screens", () => {
  test.describe.configure({ mode: 'serial' });

  let browser: ExtensionBrowser | undefined;
  let context: BrowserContext;
  let page: Page;
  let learner: Account;
  let api: Client;
  let roadmap: AssignedRoadmap;
  let sectionLinkId: string;
  let answered: number;
  let email: string;

  test.beforeAll(async () => {
    // a new learner of its own (verified, basic profile saved) signs in through the portal
    learner = await newAccount({ prefix: 'assessments', name: 'Priya Tester' });
    ({ email, api } = learner);
    browser = await launchWithExtension('assess');
    context = browser.context;
    page = await context.newPage();
    await login(page, learner.email, learner.password);
    // with the extension present but signed out, the portal signs it in on the way (/check)
    await page.waitForURL((url) => url.pathname === '/my-roadmaps', { timeout: 20_000 });
  });

  test.afterAll(async () => {
    await browser?.close();
  });

  test('a learner without assessments sees the empty state with a way to a roadmap', async () => {
    await page.goto('/assesments');
    await expect(page.getByRole('heading', { name: 'Your Assessment Links', level: 1 })).toBeVisible();
    await expect(page.getByText('You can take assessment once you assign yourself a roadmap.')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Select a Roadmap' })).toHaveAttribute(
      'href',
      '/all-roadmaps',
    );
    await expectAccessible(page, 'assessments, empty');
  });

  test('the subject test creator validates, creates a SUBJECT link and opens its test in a new tab', async () => {
    roadmap = await assignDemoRoadmap(api);
    await page.goto('/assesments');
    const tabs = context.pages().length;
    await page.getByRole('button', { name: 'Take a Subject Test' }).click();
    const dialog = page.getByRole('dialog', { name: 'Take a Subject Test' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('option', { name: roadmap.subject.name })).toBeAttached();
    await dialog.getByRole('button', { name: 'Create Test' }).click();
    await expect(dialog.getByText('Please select a subject')).toBeVisible();
    await expect(dialog.getByText('Please tell us whether you are looking for a job')).toBeVisible();
    await expectAccessible(page, 'subject test creator with errors');
    expect(context.pages(), 'no tab is opened for an invalid form').toHaveLength(tabs);

    await dialog.getByRole('combobox', { name: 'Subject' }).selectOption({ label: roadmap.subject.name });
    await expect(dialog.getByText('Please select a subject')).toBeHidden();
    await dialog
      .getByRole('group', { name: /Are you currently looking for job\?/ })
      .getByLabel('In Future')
      .check();
    const [tab] = await Promise.all([
      context.waitForEvent('page'),
      dialog.getByRole('button', { name: 'Create Test' }).click(),
    ]);
    await tab.waitForURL(/\/test\/[A-Za-z0-9_-]{10,}$/);
    await expect(tab.getByRole('heading', { name: 'Ready to Take Test?' })).toBeVisible({ timeout: 20_000 });
    await expectAccessible(tab, 'the subject test, ready');
    await tab.close();

    await expect(dialog).toBeHidden();
    const row = page.getByRole('row').filter({ hasText: roadmap.subject.name });
    await expect(row).toBeVisible();
    await expect(row.getByRole('link', { name: /^Take Test/ })).toHaveAttribute('target', '_blank');
    await expect(row.getByRole('link', { name: /View Answers/ })).toHaveCount(0);
    await expectAccessible(page, 'assessments with a subject link');
  });

  test("a failed section test shows 'No Enough Marks'; its answers show what was right and what was missed", async () => {
    const section = roadmap.sections[0]!;
    const created = await api.call(createTestLink, {
      body: { type: 'SECTION', assignedRoadmapId: roadmap._id, sectionId: section._id },
    });
    sectionLinkId = created.data.testLinkId;
    // wrong answers to all but the last question, which is left out
    const { questions, answers, result } = await takeTest(api, sectionLinkId, 'wrong', { leaveOut: 1 });
    expect(questions.length).toBeGreaterThan(1);
    answered = answers.length;
    expect(answered, 'the demo bank knows the wrong answers').toBe(questions.length - 1);
    expect(result.status).toBe('NO_ENOUGH_MARKS');
    expect(result.score).toBe(0);

    await page.goto('/assesments');
    const row = page.getByRole('row').filter({ hasText: section.name });
    await expect(row).toBeVisible();
    await expect(row.getByText('No Enough Marks')).toBeVisible();
    await expect(row.getByRole('cell', { name: '0%', exact: true })).toBeVisible();
    await expectAccessible(page, 'assessments with a failed section test');

    await row.getByRole('link', { name: /View Answers/ }).click();
    await expect(page).toHaveURL(new RegExp(`/assesments/${sectionLinkId}/view$`));
    await expect(page.getByRole('heading', { name: 'Questions & Answers', level: 1 })).toBeVisible();
    await expect(page.getByText(`${answered} of ${questions.length}`)).toBeVisible();

    const last = page
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: `Question ${questions.length}`, exact: true }) });
    await expect(last.getByText('Not Attended').first()).toBeVisible();
    await expect(last.getByText('0 / 10 points')).toBeVisible();

    const first = page
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: 'Question 1', exact: true }) });
    await expect(first.getByText('Wrong', { exact: true }).first()).toBeVisible();
    if (questions[0]!.questionType === 'FILL_IN_BLANK') {
      await expect(first.getByText('Expected answer')).toBeVisible();
    } else {
      await expect(first.getByText('Correct answer').first()).toBeVisible();
      await expect(first.getByText('Your answer, wrong')).toBeVisible();
    }
    await expectAccessible(page, 'questions and answers');

    // feedback on the first question: checked, then sent
    await first.getByRole('button', { name: /^Feedback/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Feedback on question 1' });
    await dialog.getByRole('button', { name: 'Send feedback' }).click();
    await expect(dialog.getByText('Please enter your feedback')).toBeVisible();
    await dialog.getByLabel(/Your feedback/).fill('Too short');
    await dialog.getByRole('button', { name: 'Send feedback' }).click();
    await expect(dialog.getByText('Feedback at least 10 characters')).toBeVisible();
    await expectAccessible(page, 'feedback form with an error');
    await dialog.getByLabel(/Your feedback/).fill('The wording of this question could be clearer.');
    await dialog.getByRole('button', { name: 'Send feedback' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('status').filter({ hasText: 'Thank you for your feedback.' })).toBeVisible();
  });

  test("'Take Assessment' on the roadmap asks first, then opens the resource test in a new tab", async () => {
    await page.goto(`/my-roadmap/${roadmap._id}`);
    await expect(page.getByRole('heading', { name: roadmap.name, level: 1 })).toBeVisible({
      timeout: 20_000,
    });
    const progress = page.getByRole('list', { name: 'Progress' });
    await expect(progress).toContainText('0 CERTIFICATE');
    await expect(progress).toContainText('0 BADGE');
    await expect(progress).toContainText('0 FEATHER');
    await expectAccessible(page, 'my roadmap');

    const resource = roadmap.sections[0]!.resources[0]!;
    const title = resource.userTitle || resource.actualTitle;
    // the resource's name is read after the visible label (a visually hidden ': {title}')
    await page
      .getByRole('button', { name: new RegExp(`^Take Assessment\\W+${escapeRegExp(title)}$`) })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Take Assessment' });
    await expect(dialog.getByText(`Would you like to attempt an ${title} assessment?`)).toBeVisible();
    await expectAccessible(page, 'take assessment confirmation');
    const [tab] = await Promise.all([
      context.waitForEvent('page'),
      dialog.getByRole('button', { name: 'Yes' }).click(),
    ]);
    await tab.waitForURL(/\/test\/[A-Za-z0-9_-]{10,}$/);
    await expect(tab.getByRole('heading', { name: 'Ready to Take Test?' })).toBeVisible({ timeout: 20_000 });
    await expectAccessible(tab, 'the resource test, ready');
    const linkId = new URL(tab.url()).pathname.split('/').pop()!;
    await tab.close();
    await expect(dialog).toBeHidden();

    // the assessments of this roadmap: the failed section test and the new resource link
    await page.getByRole('button', { name: 'Assessments', exact: true }).click();
    const links = page.getByRole('dialog', { name: `Assessments of ${roadmap.name}` });
    await expect(
      links
        .getByRole('row')
        .filter({ hasText: title })
        .getByRole('link', { name: /^Take Test/ }),
    ).toHaveAttribute('href', `/test/${linkId}`);
    await expect(
      links.getByRole('row').filter({ hasText: roadmap.sections[0]!.name }).getByText('No Enough Marks'),
    ).toBeVisible();
    await expectAccessible(page, 'assessments of the roadmap');
  });

  test("/generate-testlink/{id} e-mails a resource's test link: 'Your Test Link is Generated'", async () => {
    const resource = roadmap.sections[0]!.resources[0]!;
    await page.goto(`/generate-testlink/${resource._id}`);
    await expect(page).toHaveURL(/\/get-link$/);
    await expect(page.getByRole('heading', { name: 'Your Test Link is Generated' })).toBeVisible();
    await expectAccessible(page, 'get-link');
    await page.getByRole('link', { name: 'Open the local mailbox' }).click();
    const mail = page.getByRole('article').filter({ hasText: `To ${email}` });
    await expect(
      mail.getByRole('heading', { name: `Your test link for ${resource.actualTitle}` }),
    ).toBeVisible();
    await expect(mail).toContainText(/\/test\/[A-Za-z0-9_-]{10,}/);
    await expectAccessible(page, 'mailbox');
  });
});
