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
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type BrowserContext, chromium, type Page } from '@playwright/test';
import { DEMO_QUESTIONS } from '../../server/assessments/demo-questions';
import { type Client, createClient, type StoredTokens } from '../../shared/client/client';
import { createTestLink, evaluateTest, verifyTestLink } from '../../shared/contract/assessments';
import { signInWithFirebase } from '../../shared/contract/auth';
import { assignedRoadmap, assignRoadmap, roadmapList } from '../../shared/contract/catalogue';
import { emulatorApi, uniqueEmail } from '../support/emulator';
import { expect, expectAccessible, login, test } from '../support/fixtures';

const DIST = resolve('dist/extension-chromium');
const PASSWORD = 'Str0ng!Pass';
const NAME = 'Priya Tester';

/** The test's own session of the learner, through the shared client (it refreshes the 6-second tokens). */
async function apiSession(baseUrl: string, idToken: string): Promise<Client> {
  let tokens: StoredTokens | null = null;
  const client = createClient({
    baseUrl: `${baseUrl}/api`,
    device: 'WEB_APP',
    tokens: {
      get: () => tokens,
      update: (t) => {
        tokens = t;
      },
      clear: () => {
        tokens = null;
      },
    },
  });
  const res = await client.call(signInWithFirebase, { body: { token: idToken, device: 'WEB_APP' } });
  tokens = { token: res.data.token, refreshToken: res.data.refreshToken };
  return client;
}

interface Assigned {
  id: string;
  name: string;
  subject: string;
  sections: {
    _id: string;
    name: string;
    resources: { _id: string; actualTitle: string; userTitle: string | null }[];
  }[];
}

/** Assigns the demo 'JavaScript Foundations' roadmap (or the first that can be assigned) to the learner. */
async function assignDemoRoadmap(api: Client): Promise<Assigned> {
  const list = (await api.call(roadmapList, { query: {} })).data;
  expect(list.length, 'the demo catalogue has roadmaps').toBeGreaterThan(0);
  const ordered = [...list].sort(
    (a, b) => Number(b.name === 'JavaScript Foundations') - Number(a.name === 'JavaScript Foundations'),
  );
  for (const roadmap of ordered) {
    const assigned = await api.call(assignRoadmap, { body: { roadmapId: roadmap._id } }).catch(() => null);
    if (!assigned) continue;
    const detail = (await api.call(assignedRoadmap, { params: { id: assigned.data.assignedRoadmapId } }))
      .data;
    return { id: detail._id, name: detail.name, subject: detail.subject.name, sections: detail.sections };
  }
  throw new Error('no demo roadmap could be assigned');
}

/** A wrong answer to a question of the demo bank (found by its text), or null when the bank does not know it. */
function wrongAnswer(q: {
  _id: string;
  question: string;
  questionType: string;
  options: { _id: string; value: string }[];
}) {
  const known = DEMO_QUESTIONS.find((d) => d.q === q.question);
  if (!known) return null;
  if (q.questionType === 'FILL_IN_BLANK') return { questionId: q._id, answer: 'certainly not this' };
  const wrong = q.options.find((o) => known.wrong?.includes(o.value));
  if (!wrong) return null;
  return { questionId: q._id, answerId: q.questionType.startsWith('MSQ') ? [wrong._id] : wrong._id };
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

test.describe("the learner's assessment screens", () => {
  test.describe.configure({ mode: 'serial' });

  let context: BrowserContext;
  let userDataDir: string;
  let page: Page;
  let api: Client;
  let roadmap: Assigned;
  let sectionLinkId: string;
  let answered: number;
  let email: string;

  test.beforeAll(async () => {
    const emulator = emulatorApi(process.env.WAYMARK_E2E_EMULATOR_HOST ?? '127.0.0.1:9099');
    if (!existsSync(join(DIST, 'manifest.json'))) execFileSync(process.execPath, ['extension/build.mjs']);
    userDataDir = mkdtempSync(join(tmpdir(), 'waymark-e2e-assess-'));
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      headless: true,
      baseURL: process.env.WAYMARK_E2E_BASE_URL,
      viewport: { width: 1280, height: 900 },
      bypassCSP: true,
      args: [
        `--disable-extensions-except=${DIST}`,
        `--load-extension=${DIST}`,
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    page = await context.newPage();

    // a new learner: signs up as a learner, verifies the e-mail, signs in and completes the basic profile
    email = uniqueEmail('assessments');
    await page.goto('/learner');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign up', exact: true }).click();
    await expect(page.getByText(/Thank you for signing up/)).toBeVisible();
    await emulator.verifyEmail(email);
    await login(page, email, PASSWORD);
    await expect(page).toHaveURL(/\/basic-profile$/, { timeout: 20_000 });
    await page.getByLabel('Name').fill(NAME);
    await page.getByRole('textbox', { name: 'Mobile number' }).fill(`97${String(Date.now()).slice(-8)}`);
    await page.getByRole('button', { name: 'Continue' }).click();
    // with the extension present but signed out, the portal signs it in on the way (/check)
    await page.waitForURL((url) => url.pathname === '/my-roadmaps', { timeout: 20_000 });
    api = await apiSession(process.env.WAYMARK_E2E_BASE_URL!, await emulator.idToken(email, PASSWORD));
  });

  test.afterAll(async () => {
    await context?.close();
    if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
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
    await expect(dialog.getByRole('option', { name: roadmap.subject })).toBeAttached();
    await dialog.getByRole('button', { name: 'Create Test' }).click();
    await expect(dialog.getByText('Please select a subject')).toBeVisible();
    await expect(dialog.getByText('Please tell us whether you are looking for a job')).toBeVisible();
    await expectAccessible(page, 'subject test creator with errors');
    expect(context.pages(), 'no tab is opened for an invalid form').toHaveLength(tabs);

    await dialog.getByRole('combobox', { name: 'Subject' }).selectOption({ label: roadmap.subject });
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
    const row = page.getByRole('row').filter({ hasText: roadmap.subject });
    await expect(row).toBeVisible();
    await expect(row.getByRole('link', { name: /^Take Test/ })).toHaveAttribute('target', '_blank');
    await expect(row.getByRole('link', { name: /View Answers/ })).toHaveCount(0);
    await expectAccessible(page, 'assessments with a subject link');
  });

  test("a failed section test shows 'No Enough Marks'; its answers show what was right and what was missed", async () => {
    const section = roadmap.sections[0]!;
    const created = await api.call(createTestLink, {
      body: { type: 'SECTION', assignedRoadmapId: roadmap.id, sectionId: section._id },
    });
    sectionLinkId = created.data.testLinkId;
    const started = (await api.call(verifyTestLink, { params: { id: sectionLinkId } })).data;
    const questions = started.questions.questions;
    expect(questions.length).toBeGreaterThan(1);
    // wrong answers to all but the last question, which is left out
    const answers = questions
      .slice(0, -1)
      .map(wrongAnswer)
      .filter((a) => a !== null);
    answered = answers.length;
    expect(answered, 'the demo bank knows the wrong answers').toBeGreaterThan(0);
    const result = (await api.call(evaluateTest, { body: { linkId: sectionLinkId, answers } })).data;
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
    await page.goto(`/my-roadmap/${roadmap.id}`);
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
