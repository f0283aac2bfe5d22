/**
 * Waymark inside an LMS (issue 27, decision 045), in Chromium with third-party cookies blocked
 * (--test-third-party-cookie-phaseout, Chrome's own switch for the state after the phase-out) and CSP
 * enforced: the LMS (tests/support/lti-lms.ts) serves its course page on `localhost`, another site than
 * Waymark's 127.0.0.1, and frames Waymark's launch there. The test first shows that a third-party cookie
 * is indeed refused in this browser; then an instructor adds a Waymark assessment by Deep Linking inside
 * the frame, a learner launches it inside the frame without signing in to Waymark, takes it there by
 * keyboard, sees the score, and the score reaches the LMS's gradebook. Other Waymark pages refuse the
 * LMS's frame. axe runs on the framed pages.
 */
import type { Frame, Page } from '@playwright/test';
import {
  adminSubjectList,
  createAssessment,
  createQuestion,
  saveQuestion,
} from '../../shared/contract/authoring';
import { createLtiRegistration } from '../../shared/contract/lti';
import { type Account, baseUrl, newAccount } from '../support/accounts';
import { AXE_SOURCE, axeViolations } from '../support/axe';
import { expect, test } from '../support/fixtures';
import { MockLms } from '../support/lti-lms';

test.use({
  // the framing rules (frame-ancestors) and the launch pages' own script policy are what is tested
  bypassCSP: false,
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--test-third-party-cookie-phaseout',
    ],
  },
});

/** axe in a frame: evaluated through the debugging protocol, which the page's CSP does not govern. */
async function expectFrameAccessible(frame: Frame, context: string) {
  await frame.evaluate(AXE_SOURCE);
  expect(
    await frame.evaluate(axeViolations),
    `accessibility violations ${context} at ${frame.url()}`,
  ).toEqual([]);
}

const waymarkFrame = (page: Page) => page.frame({ name: 'waymark' })!;
const inFrame = (page: Page) => page.frameLocator('iframe[name="waymark"]');

test.describe('Waymark framed by an LMS on another site, third-party cookies blocked', () => {
  test.describe.configure({ mode: 'serial' });
  let lms: MockLms;
  let mentor: Account;
  const assessment = `Arithmetic check ${Date.now()}`;

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    lms = await new MockLms(baseUrl()).start();
    mentor = await newAccount({ role: 'TENANT', prefix: 'lti-mentor', name: 'Lea Lms' });
    const assessmentId = (await mentor.api.call(createAssessment, { body: { name: assessment } })).data._id;
    const mathematics = (await mentor.api.call(adminSubjectList)).data.find((s) => s.name === 'Mathematics')!;
    for (let i = 0; i < 10; i++) {
      const created = (await mentor.api.call(createQuestion, { body: { assessmentId } })).data;
      await mentor.api.call(saveQuestion, {
        params: { id: created.questionId },
        body: {
          question: `What is ${i} + 1?`,
          questionType: 'FILL_IN_BLANK',
          subject: mathematics._id,
          topic: mathematics.topics[0]!._id,
          points: 10,
          options: [{ value: String(i + 1), isCorrect: true }],
          explanation: [{ type: 'TEXT', value: `${i} + 1 = ${i + 1}` }],
          tags: ['arithmetic'],
        },
      });
    }
    await mentor.api.call(createLtiRegistration, { body: lms.platform.manual('Course LMS') });
  });

  test.afterAll(async () => {
    await lms?.close();
  });

  test('this browser refuses a third-party cookie, and takes the same cookie first-party', async ({
    page,
  }) => {
    await page.goto(`${lms.base}/frame?src=${encodeURIComponent(`${lms.probe}/probe/set`)}`);
    await expect(page.frameLocator('iframe').getByText('probe')).toBeVisible();
    expect(await page.context().cookies(lms.probe)).toEqual([]);
    await page.goto(`${lms.probe}/probe/set`);
    expect((await page.context().cookies(lms.probe)).map((c) => c.name)).toEqual(['wm_probe']);
  });

  test("Waymark's other pages refuse the LMS's frame", async ({ page }) => {
    await page.goto(`${lms.base}/frame?src=${encodeURIComponent(`${baseUrl()}/`)}`);
    const frame = page.frames().find((f) => f !== page.mainFrame())!;
    await expect.poll(() => frame.url()).toMatch(/^chrome-error:/);
  });

  test('an instructor adds a Waymark assessment by Deep Linking, inside the frame, by keyboard', async ({
    page,
  }) => {
    await page.goto(lms.coursePage('teacher-1', 'instructor', 'add'), { waitUntil: 'domcontentloaded' });
    const frame = inFrame(page);
    await expect(frame.getByRole('heading', { name: 'Add a Waymark assessment' })).toBeVisible();
    // the state went through platform storage: put before the sign-in, read back by the launch page
    await expect.poll(() => lms.storage.map((s) => s.subject)).toEqual(['lti.put_data', 'lti.get_data']);
    await expectFrameAccessible(waymarkFrame(page), 'the picker');
    const choice = frame.getByRole('radio', { name: assessment });
    await choice.focus();
    await page.keyboard.press('Space');
    await expect(choice).toBeChecked();
    await frame.getByRole('button', { name: 'Add to the course' }).focus();
    await page.keyboard.press('Enter');
    await expect(frame.getByRole('heading', { name: 'Activity added' })).toBeVisible();
    expect(lms.links).toHaveLength(1);
    expect(lms.links[0]!.custom.waymark_target).toMatch(/^assessment:/);
  });

  test('a learner takes it inside the frame without signing in, and the score reaches the gradebook', async ({
    page,
  }) => {
    test.setTimeout(180_000);
    await page.goto(lms.coursePage('learner-7', 'learner', lms.links[0]!.id), {
      waitUntil: 'domcontentloaded',
    });
    const frame = inFrame(page);
    await expect(frame.getByRole('heading', { name: 'Ready to Take Test?', level: 1 })).toBeVisible({
      timeout: 20_000,
    });
    expect(waymarkFrame(page).url()).toMatch(/\/lti\/app\/[0-9a-f-]{36}$/);
    // no cookie of Waymark's was needed, nor kept
    expect(await page.context().cookies(baseUrl())).toEqual([]);
    await expectFrameAccessible(waymarkFrame(page), 'the launched test, ready');
    await frame.getByRole('button', { name: 'Start' }).focus();
    await page.keyboard.press('Enter');
    await expect(frame.getByRole('heading', { name: /^Question 1 of/ })).toBeVisible();
    for (let i = 0; i < 10; i++) {
      const text = (await frame.locator('.wm-question-text').textContent()) ?? '';
      const n = Number(/What is (\d+) \+ 1\?/.exec(text)![1]);
      const answer = frame.getByRole('textbox', { name: 'Your answer' });
      await answer.focus();
      await page.keyboard.type(String(n + 1));
      const next = frame.getByRole('button', { name: 'Next', exact: true });
      if (i < 9) {
        await next.focus();
        await page.keyboard.press('Enter');
        await expect(frame.getByRole('heading', { name: `Question ${i + 2} of 10` })).toBeVisible();
      }
    }
    await expectFrameAccessible(waymarkFrame(page), 'a question of the launched test');
    await frame.getByRole('button', { name: 'Finish' }).focus();
    await page.keyboard.press('Enter');
    const dialog = frame.getByRole('dialog', { name: 'Do you want to finish?' });
    await dialog.getByRole('button', { name: 'Finish' }).focus();
    await page.keyboard.press('Enter');
    // a mentor's custom assessment ends with Test Submitted, not a score (ScoreScreen: CUSTOM-TEST)
    await expect(frame.getByRole('heading', { name: 'Test Submitted' })).toBeVisible({ timeout: 30_000 });
    await expectFrameAccessible(waymarkFrame(page), 'the end of the test');
    // Home stays inside the frame (the launch's greeting), never Waymark's own site
    await frame.getByRole('link', { name: 'Home' }).focus();
    await page.keyboard.press('Enter');
    await expect(frame.getByRole('heading', { name: 'Welcome, Lina Learner' })).toBeVisible();
    expect(waymarkFrame(page).url()).toMatch(/\/lti\/app\/[0-9a-f-]{36}$/);

    // the score post runs within a minute of the evaluation (decision 044)
    const gradebook = await page.context().newPage();
    await expect(async () => {
      await gradebook.goto(`${lms.base}/gradebook`);
      await expect(gradebook.getByRole('row').filter({ hasText: assessment })).toContainText('100 / 100', {
        timeout: 1_000,
      });
    }).toPass({ timeout: 120_000, intervals: [5_000] });
    await expect(gradebook.getByRole('row').filter({ hasText: assessment })).toContainText('FullyGraded');
  });

  test("an instructor's launch opens the course's learners inside the frame", async ({ page }) => {
    test.setTimeout(120_000);
    await page.goto(lms.coursePage('teacher-1', 'instructor', lms.links[0]!.id), {
      waitUntil: 'domcontentloaded',
    });
    const frame = inFrame(page);
    await expect(frame.getByRole('heading', { name: 'Learners of Course One' })).toBeVisible({
      timeout: 20_000,
    });
    const row = frame.getByRole('row').filter({ hasText: 'Lina Learner' });
    await expect(row).toContainText(assessment);
    await expect(row).toContainText('100%');
    await expectFrameAccessible(waymarkFrame(page), "the instructor's course view");
  });
});
