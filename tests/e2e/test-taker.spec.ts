/**
 * The test page (/test/{id}) in Chromium against the real server: a new learner takes resource tests of
 * the demo SQL roadmap covering every question type, reloads mid-test and finds every answer and the
 * current question kept, finishes, sees the gauge and the award step; the payload never carries
 * correctness data; an expired link, a completed link and another learner's link show their pages.
 */
import type { Page, Response } from '@playwright/test';
import { z } from 'zod';
import type { Client } from '../../shared/client/client';
import { createTestLink } from '../../shared/contract/assessments';
import { defineCall } from '../../shared/contract/define';
import { errors, Ok } from '../../shared/schemas/common';
import { type Account, baseUrl, newAccount, signedInContext } from '../support/accounts';
import { answerShown, currentQuestion, type DemoQuestion } from '../support/answers';
import { assignDemoRoadmap } from '../support/catalogue';
import { expect, expectAccessible, test } from '../support/fixtures';

/** The server's test-only shortcut (NODE_ENV=test): an unused link's expiry moved into the past. */
const expireTestLink = defineCall({
  method: 'PUT',
  path: '/test-support/testlink/{linkId}/expire',
  summary: 'Expire an unused test link (end-to-end tests only).',
  tags: ['test-support'],
  access: 'signedIn',
  params: z.object({ linkId: z.string() }),
  responses: { 200: Ok, ...errors },
});

/** Assigns the demo SQL roadmap; returns how to make a resource test link by resource title. */
async function sqlRoadmap(api: Client) {
  const detail = await assignDemoRoadmap(api, 'SQL Essentials');
  return async (title: string) => {
    const section = detail.sections.find((s) => s.resources.some((r) => r.actualTitle === title));
    const resource = section?.resources.find((r) => r.actualTitle === title);
    if (!section || !resource) throw new Error(`no resource ${title}`);
    const link = await api.call(createTestLink, {
      body: {
        type: 'RESOURCE',
        assignedRoadmapId: detail._id,
        sectionId: section._id,
        resourceId: resource._id,
      },
    });
    return link.data.testLinkId;
  };
}

/** Every test payload the page receives, to check that none carries correctness data. */
function collectPayloads(page: Page) {
  const bodies: string[] = [];
  page.on('response', async (res: Response) => {
    if (/\/api\/testlink\/(assessment|verify)\//.test(res.url()) && res.ok()) {
      bodies.push(await res.text());
    }
  });
  return bodies;
}

function expectNoCorrectness(bodies: string[], key: readonly DemoQuestion[]) {
  expect(bodies.length).toBeGreaterThan(0);
  for (const body of bodies) {
    expect(body).not.toMatch(/isCorrect|"correct|explanation|"accept|"why"/i);
    const data = JSON.parse(body).data as {
      questions: { questions: { question: string; questionType: string; options: unknown[] }[] };
    };
    for (const q of data.questions.questions) {
      if (q.questionType === 'FILL_IN_BLANK') expect(q.options).toEqual([]);
      // no option carries more than its id and value
      for (const o of q.options) expect(Object.keys(o as object).sort()).toEqual(['_id', 'value']);
    }
  }
  // the accepted values of fill-in-blank questions appear nowhere in the questions (the answers part
  // carries the learner's own answers after a reload)
  const questions = bodies.map((b) => JSON.stringify(JSON.parse(b).data.questions));
  for (const q of key.filter((k) => k.accept)) {
    for (const value of q.accept!) for (const text of questions) expect(text).not.toContain(`"${value}"`);
  }
}

const saved = (page: Page) => expect(page.getByText('All answers saved')).toBeVisible();

async function openReady(page: Page, linkId: string) {
  await page.goto(`/test/${linkId}`);
  await expect(page.getByRole('heading', { name: 'Ready to Take Test?', level: 1 })).toBeVisible();
}

async function start(page: Page) {
  await page.getByRole('button', { name: 'Start' }).click();
  await expect(page.getByRole('heading', { name: /^Question 1 of/ })).toBeVisible();
}

async function finish(page: Page) {
  await page.getByRole('button', { name: 'Finish' }).click();
  const dialog = page.getByRole('dialog', { name: 'Do you want to finish?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Finish' }).click();
  await expect(page.getByRole('heading', { name: 'Your Score' })).toBeVisible();
}

test.describe('the test page', () => {
  let learner: Account;
  let linkFor: (title: string) => Promise<string>;

  test.beforeAll(async () => {
    learner = await newAccount({ prefix: 'taker', name: 'Tara Taker' });
    linkFor = await sqlRoadmap(learner.api);
  });

  test('a learner takes a resource test, reloads mid-test and resumes with every answer, finishes and earns the feather', async ({
    browser,
  }) => {
    const linkId = await linkFor('Querying a Table');
    const { context, page } = await signedInContext(browser, learner);
    const payloads = collectPayloads(page);

    await openReady(page, linkId);
    await expect(page.getByText('Keep a stable internet connection.')).toBeVisible();
    await expect(page.getByText('Do not refresh, reload or press back.')).toBeVisible();
    await expect(page.getByText('Do not switch tab.')).toBeVisible();
    await expectAccessible(page, 'ready');
    await start(page);
    await expect(page.getByRole('timer')).toHaveText(/^[45]:\d\d$/);
    await expectAccessible(page, 'started');

    // the first question by keyboard: Space on an option, Enter on Next
    const first = await currentQuestion(page);
    const firstType = first.type ?? 'MCQ';
    if (firstType === 'FILL_IN_BLANK') await answerShown(page);
    else {
      await page.getByRole('radio', { name: first.right![0]!, exact: true }).focus();
      await page.keyboard.press('Space');
      await expect(page.getByRole('radio', { name: first.right![0]!, exact: true })).toBeChecked();
    }
    await saved(page);
    await page.getByRole('button', { name: 'Next' }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: /^Question 2 of 2/ })).toBeFocused();
    const second = await answerShown(page);
    await saved(page);
    const nav = page.getByRole('navigation', { name: 'Questions' });
    await expect(nav.getByRole('button', { name: 'Question 1, answered' })).toBeVisible();

    // reload mid-test: the page asks first, then resumes on question 2 with both answers
    let warned = '';
    page.once('dialog', (d) => {
      warned = d.type();
      void d.accept();
    });
    await page.reload();
    expect(warned).toBe('beforeunload');
    await expect(page.getByRole('heading', { name: /^Question 2 of 2/ })).toBeVisible();
    await expect(page.getByText(/Welcome back: your answers are kept/)).toBeVisible();
    if ((second.type ?? 'MCQ') === 'FILL_IN_BLANK') {
      await expect(page.getByRole('textbox', { name: 'Your answer' })).toHaveValue(second.accept![0]!);
    } else {
      await expect(page.getByRole('radio', { name: second.right![0]!, exact: true })).toBeChecked();
    }
    await expect(nav.getByRole('button', { name: 'Question 1, answered' })).toBeVisible();
    await expect(nav.getByRole('button', { name: 'Question 2, answered' })).toBeVisible();
    await nav.getByRole('button', { name: 'Question 1, answered' }).click();
    if (firstType === 'FILL_IN_BLANK') {
      await expect(page.getByRole('textbox', { name: 'Your answer' })).toHaveValue(first.accept![0]!);
    } else {
      await expect(page.getByRole('radio', { name: first.right![0]!, exact: true })).toBeChecked();
    }
    await expectAccessible(page, 'resumed');

    // another browser with the link id alone (not signed in): the test is open elsewhere, it saves nothing
    // and offers no way to take the attempt over (decision 031)
    const elsewhere = await browser.newContext({ baseURL: baseUrl() });
    const stranger = await elsewhere.newPage();
    await stranger.goto(`/test/${linkId}`);
    await expect(
      stranger.getByRole('heading', { name: 'This test is open in another browser', level: 1 }),
    ).toBeVisible();
    await expect(stranger.getByText(/sign in to Waymark in this browser/)).toBeVisible();
    await expect(stranger.getByRole('button', { name: 'Continue in this browser' })).toHaveCount(0);
    await expectAccessible(stranger, 'open in another browser');
    await elsewhere.close();

    await page.getByRole('button', { name: 'Finish' }).click();
    const dialog = page.getByRole('dialog', { name: 'Do you want to finish?' });
    await expect(dialog.getByText('You have answered all 2 questions.')).toBeVisible();
    await expectAccessible(page, 'finish dialog');
    await dialog.getByRole('button', { name: 'Finish' }).click();
    await expect(page.getByRole('heading', { name: 'Your Score' })).toBeVisible();
    await expect(page.getByRole('img', { name: 'Score: 100%' })).toBeVisible();
    await expect(page.getByText('20 of 20 points')).toBeVisible();
    await expect(page.getByText('Congratulations! You earned a feather.')).toBeVisible();
    await expect(page.getByRole('link', { name: 'View Feather' })).toHaveAttribute(
      'href',
      `/feather/${linkId}`,
    );
    await expectAccessible(page, 'score');
    expectNoCorrectness(payloads, [first, second]);

    // a reload of the score page shows the score again; the page no longer asks before leaving
    await page.reload();
    await expect(page.getByRole('img', { name: 'Score: 100%' })).toBeVisible();

    // anyone else opening the link (a fresh tab without the session) finds the test completed
    const visitor = await browser.newContext({ baseURL: baseUrl() });
    const other = await visitor.newPage();
    await other.goto(`/test/${linkId}`);
    await expect(other.getByRole('heading', { name: 'Test Completed', level: 1 })).toBeVisible();
    await expect(other.getByText(/This test is already completed/)).toBeVisible();
    await expect(other.getByRole('link', { name: 'generate a new link' })).toBeVisible();
    await expectAccessible(other, 'test completed');
    await other.getByRole('link', { name: 'Home', exact: true }).click();
    await expect(other).toHaveURL(`${baseUrl()}/`);
    await visitor.close();
    await context.close();
  });

  test('answers of every question type are taken by their rules; a low score says so', async ({
    browser,
  }) => {
    const { context, page } = await signedInContext(browser, learner);
    const payloads = collectPayloads(page);
    const seen = new Set<string>();
    const key: DemoQuestion[] = [];
    for (const title of ['Table Expressions', 'Joins Between Tables', 'SQL Explained in 100 Seconds']) {
      const linkId = await linkFor(title);
      await openReady(page, linkId);
      await start(page);
      const wrong = title === 'SQL Explained in 100 Seconds';
      const count = await page.getByRole('navigation', { name: 'Questions' }).getByRole('button').count();
      for (let i = 0; i < count; i++) {
        if (i > 0) await page.getByRole('button', { name: 'Next' }).click();
        // the question is read from the page: wait until it shows this one
        await expect(
          page.getByRole('heading', { name: new RegExp(`^Question ${i + 1} of ${count}`) }),
        ).toBeVisible();
        const q = await answerShown(page, wrong ? 'wrong' : 'right');
        seen.add(q.type ?? 'MCQ');
        key.push(q);
        if (q.image) {
          await expect(page.getByRole('img', { name: `Illustration for question ${i + 1}` })).toHaveAttribute(
            'src',
            q.image,
          );
        }
        if (q.code) await expect(page.locator('pre.wm-code')).toHaveText(q.code);
        if ((q.type ?? '').endsWith('_IMAGE')) await expectAccessible(page, `${q.type} question`);
      }
      await saved(page);
      await finish(page);
      if (wrong) {
        await expect(page.getByRole('img', { name: 'Score: 0%' })).toBeVisible();
        await expect(page.getByText('Not enough score to generate certificate')).toBeVisible();
        await expect(page.getByRole('link', { name: 'View Feather' })).toHaveCount(0);
        await expectAccessible(page, 'not enough score');
      } else {
        await expect(page.getByRole('img', { name: 'Score: 100%' })).toBeVisible();
        await expect(page.getByRole('link', { name: 'View Feather' })).toBeVisible();
      }
    }
    // with the first test's CODE_MCQ and FILL_IN_BLANK: all six types
    expect([...seen].sort()).toEqual(['CODE_MCQ', 'MCQ', 'MCQ_IMAGE', 'MSQ', 'MSQ_IMAGE']);
    expectNoCorrectness(payloads, key);
    await context.close();
  });

  test('an expired link shows its page; another signed-in learner is refused', async ({ browser }) => {
    const linkId = await linkFor('Constraints');
    // the test-only shortcut moves the link's expiry into the past; the server expires it by its rules
    await learner.api.call(expireTestLink, { params: { linkId } });
    const visitor = await browser.newContext({ baseURL: baseUrl() });
    const page = await visitor.newPage();
    await page.goto(`/test/${linkId}`);
    await expect(page.getByRole('heading', { name: 'Link Expired', level: 1 })).toBeVisible();
    await expect(page.getByText(/This test link has expired/)).toBeVisible();
    await expect(page.getByText(/If you like to take a test,/)).toBeVisible();
    await expect(page.getByRole('link', { name: 'generate a new link' })).toHaveAttribute(
      'href',
      '/assesments',
    );
    await expect(page.getByRole('link', { name: 'Home', exact: true })).toHaveAttribute('href', '/');
    await expectAccessible(page, 'link expired');
    await visitor.close();

    const fresh = await linkFor('Transactions');
    const stranger = await newAccount({ prefix: 'stranger' });
    const other = await signedInContext(browser, stranger);
    await other.page.goto(`/test/${fresh}`);
    await expect(other.page.getByRole('heading', { name: 'Something Went Wrong', level: 1 })).toBeVisible();
    await expect(other.page.getByText('This test belongs to another person.')).toBeVisible();
    await expectAccessible(other.page, 'another learner');
    await other.context.close();
  });
});
