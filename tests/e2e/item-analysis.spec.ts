/**
 * Item analysis and certificates that expire, end to end in Chromium against the real server (issue 30):
 *
 * - a mentor sets their assessment's certificates to last 12 months (the builder's side column), shares it
 *   with three learners who take it through the API (one passes, one half, one fails), then opens the
 *   builder's Statistics: the test's figures, the histogram, the question table sorted from the keyboard,
 *   a question opened to its option shares and rules, the CSV file; the Question Bank page; the figures
 *   beside the question editor;
 * - the learner who passed finds their certificate valid until a year on; made a year older (a test-support
 *   shortcut), the award page says until when, offers the renewal test, and the reminder's link lands on it;
 *   a month later it says "Expired on", and so does the verify page.
 *
 * Every page visited passes axe. The questions are Mathematics, a subject without roadmaps (tests/README.md).
 */
import type { Page } from '@playwright/test';
import type { Client } from '../../shared/client/client';
import {
  evaluateTest,
  saveAnswer,
  testLinkList,
  testLinkQuestions,
  verifyTestLink,
} from '../../shared/contract/assessments';
import {
  adminSubjectList,
  assignAssessmentUsers,
  createAssessment,
  createQuestion,
  saveQuestion,
} from '../../shared/contract/authoring';
import { tenantAddUserV2 } from '../../shared/contract/tenant';
import { attemptHeaders, newAttemptToken } from '../../shared/rules/attempt-token';
import { type Account, baseUrl, newAccount, signedInContext, signIn } from '../support/accounts';
import { expect, expectAccessible, test } from '../support/fixtures';

/** A test-support shortcut (NODE_ENV=test only), as the account. */
async function shortcut(account: Account, path: string) {
  const { session } = await signIn(account.email);
  const res = await fetch(`${baseUrl()}/api/test-support/${path}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${session.token}` },
  });
  expect(res.status, `${path}: ${await res.clone().text()}`).toBe(200);
}

/** Takes the learner's open test of the assessment: the first `right` questions right, the rest wrong. */
async function take(api: Client, right: number): Promise<string> {
  const link = (await api.call(testLinkList)).data.find(
    (l) => l.type === 'CUSTOM-TEST' && l.status === 'TAKE_TEST',
  )!;
  // the taker's browser holds the attempt's token, sent with the start and every write (decision 031)
  const headers = attemptHeaders(newAttemptToken()) as { 'x-attempt-token': string };
  await api.call(verifyTestLink, { params: { id: link.linkId }, headers });
  const shown = (await api.call(testLinkQuestions, { params: { id: link.linkId }, query: {}, headers })).data;
  if (!('questions' in shown)) throw new Error(`the test cannot be taken: ${shown.closed.message}`);
  const questions = shown.questions.questions;
  const answers = questions.map((q) => {
    const n = Number(/What is (\d+) \+ 1\?/.exec(q.question)![1]);
    return { questionId: q._id, answer: String(n < right ? n + 1 : n + 7) };
  });
  // the first two saved as given (they are timed), the rest with the submission
  for (const a of answers.slice(0, 2))
    await api.call(saveAnswer, { params: { id: link.linkId }, body: a, headers });
  await new Promise((r) => setTimeout(r, 1_200));
  await api.call(evaluateTest, { body: { linkId: link.linkId, answers }, headers });
  return link.linkId;
}

const details = (page: Page) => page.getByRole('complementary', { name: 'Certificate details' });

test.describe('item analysis and certificates that expire', () => {
  test.describe.configure({ mode: 'serial' });
  let mentor: Account;
  let learners: Account[];
  let assessmentId: string;
  let certificate: string;
  let firstQuestion = '';
  const name = `Fractions check ${Date.now()}`;

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    [mentor, ...learners] = await Promise.all([
      newAccount({ role: 'TENANT', prefix: 'analyst', name: 'Ines Itemwise' }),
      newAccount({ prefix: 'taker-a', name: 'Asha Able' }),
      newAccount({ prefix: 'taker-b', name: 'Bo Between' }),
      newAccount({ prefix: 'taker-c', name: 'Cy Careless' }),
    ]);
    for (const l of learners) await mentor.api.call(tenantAddUserV2, { body: { email: l.email } });
    assessmentId = (await mentor.api.call(createAssessment, { body: { name } })).data._id;
    const mathematics = (await mentor.api.call(adminSubjectList)).data.find((s) => s.name === 'Mathematics')!;
    for (let i = 0; i < 10; i++) {
      const created = (await mentor.api.call(createQuestion, { body: { assessmentId } })).data;
      firstQuestion ||= created.questionId;
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
  });

  test('a mentor sets how long certificates last, and sees which questions work', async ({ browser }) => {
    test.slow();
    const { page } = await signedInContext(browser, mentor);
    await page.goto(`/portal/create-assessment/${assessmentId}`);
    await expect(page.getByRole('heading', { name: 'Create Assessment' })).toBeVisible();
    await page.getByLabel('Certificate valid for').selectOption({ label: '12 months' });
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByText('Saved: certificates earned from now on get this period.')).toBeVisible();
    await expectAccessible(page, 'builder with the validity period');

    // shared, opened now, and taken: all right, half right, all wrong
    await mentor.api.call(assignAssessmentUsers, {
      params: { id: assessmentId },
      body: {
        userIds: learners.map((l) => l.id),
        createdAt: Date.now(),
        startTime: Math.ceil((Date.now() + 60_000) / 900_000) * 900_000,
        duration: 2,
      },
    });
    await shortcut(mentor, `assessment/${assessmentId}/open`);
    certificate = await take(learners[0]!.api, 10);
    await take(learners[1]!.api, 5);
    await take(learners[2]!.api, 0);

    await page.getByRole('button', { name: 'Statistics' }).click();
    const figures = page.getByRole('region', { name: 'Assessment figures' });
    await expect(figures).toContainText('3 by 3 takers');
    await expect(figures).toContainText('Reliability (KR-20)');
    await expect(figures).toContainText('A small sample: 3 attempts.');
    await expect(page.getByRole('figure', { name: 'Scores (percentage of the maximum)' })).toContainText(
      '1 attempt scored 50 to under 60 %',
    );
    await expect(page.getByText('No question is flagged.')).toBeVisible();
    await expectAccessible(page, 'assessment statistics');

    // sorted from the keyboard: by facility, then the other way
    const table = page.getByRole('table', { name: `Question statistics of ${name}` });
    const facility = table.getByRole('button', { name: 'Facility' });
    await facility.focus();
    await page.keyboard.press('Enter');
    await expect(table.getByRole('columnheader', { name: 'Facility' })).toHaveAttribute(
      'aria-sort',
      'ascending',
    );
    await page.keyboard.press('Enter');
    await expect(table.getByRole('columnheader', { name: 'Facility' })).toHaveAttribute(
      'aria-sort',
      'descending',
    );
    // the first five questions: two takers of three right
    const first = table.getByRole('row').filter({ hasText: 'What is 0 + 1?' }).first();
    await expect(first).toContainText('0.67');
    // opened from the keyboard: a typed answer has no options to compare
    await first.locator('summary').focus();
    await page.keyboard.press('Enter');
    await expect(first.getByText('A typed answer: no options to compare.')).toBeVisible();
    await expectAccessible(page, 'a question opened');

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: /^Download CSV\b.*question statistics/i }).click();
    expect((await download).suggestedFilename()).toMatch(/^waymark-assessment-statistics-[\d-]+\.csv$/);

    await page.getByRole('link', { name: 'Question Bank' }).click();
    await expect(page.getByRole('heading', { name: 'Question Bank', level: 1 })).toBeVisible();
    await expect(page.getByText(/with how it did in your assessments \(3 attempts\)/)).toBeVisible();
    await expect(page.getByRole('table', { name: 'Your question bank' }).getByRole('row')).toHaveCount(11);
    await expectAccessible(page, 'question bank');

    // the figures beside the question editor
    await page.goto(`/portal/create-question/${firstQuestion}`);
    await expect(page.getByRole('heading', { name: 'Question editor' })).toBeVisible();
    const own = page.getByRole('region', { name: 'How this question did' });
    await expect(own).toContainText('Facility');
    await expect(own).toContainText('3');
    await expectAccessible(page, 'question editor with its figures');
  });

  test('the certificate says until when it is valid, reminds its learner to renew, and says when it expired', async ({
    browser,
  }) => {
    test.slow();
    const learner = learners[0]!;
    const { page } = await signedInContext(browser, learner);
    await page.goto(`/certificate/${certificate}`);
    const inAYear = new Date();
    inAYear.setUTCFullYear(inAYear.getUTCFullYear() + 1);
    await expect(details(page)).toContainText(/Valid until \d+\w\w \w{3} \d{4}/);
    await expect(details(page)).toContainText(String(inAYear.getUTCFullYear()));
    await expectAccessible(page, 'a certificate valid for a year');

    // a year less 15 days on: the reminder's link lands on the renewal test
    await shortcut(learner, `certificate/${certificate}/age?days=350`);
    await page.goto(`/certificate/${certificate}?renew=1`);
    const renew = page.getByRole('region', { name: 'Renew it' });
    await expect(renew).toBeFocused();
    await expect(page.getByRole('region', { name: 'Validity' })).toContainText(
      'This certificate is valid until',
    );
    await expectAccessible(page, 'a certificate to renew');
    await renew.getByRole('button', { name: 'Take the renewal test' }).click();
    await expect(page).toHaveURL(/\/test\/[A-Za-z0-9_-]+$/);
    await expect(page.getByRole('heading', { name: 'Ready to Take Test?' })).toBeVisible();

    // a month later still: expired on, on the award page and on the verify page
    await shortcut(learner, `certificate/${certificate}/age?days=30`);
    await page.goto(`/certificate/${certificate}`);
    await expect(details(page)).toContainText(/Expired on \d+\w\w \w{3} \d{4}/);
    await expectAccessible(page, 'an expired certificate');
    await page.goto(`/verify/${certificate}`);
    await expect(page.getByText(/Expired on \d+\w\w \w{3} \d{4}/).first()).toBeVisible({ timeout: 20_000 });
    await expectAccessible(page, 'the verify page of an expired certificate');
  });
});
