/**
 * Assessment management and the question editor end to end, in Chromium against the real server: a new
 * mentor of its own builds an assessment, writes a question by the editor's rules, and shares it with their
 * own learner once it has 10 questions.
 *
 * The questions are about Mathematics, a subject without roadmaps: a mentor's published questions join the
 * bank of their subject, so questions of the catalogue's subjects (Programming, Data Science) would reach the
 * subject tests that other specs answer from the demo bank.
 */

import { ApiError } from '../../shared/client/client';
import {
  adminSubjectList,
  assignAssessmentUsers,
  createAssessment,
  createQuestion,
  getAssessment,
  saveQuestion,
} from '../../shared/contract/authoring';
import { tenantAddUserV2 } from '../../shared/contract/tenant';
import { newAccount } from '../support/accounts';
import { expect, expectAccessible, login, test } from '../support/fixtures';

test.describe('assessment management and the question editor', () => {
  test('a mentor builds an assessment, writes a question with the editor rules, and shares it once it has 10 questions', async ({
    page,
  }) => {
    // the longest walk of the spec (editor rules, sharing): on a loaded machine it outlasts the default minute
    test.slow();
    const [mentor, learner] = await Promise.all([
      newAccount({ role: 'TENANT', prefix: 'author', name: 'Anil Author' }),
      newAccount({ prefix: 'shared-with', name: 'Sana Shared' }),
    ]);
    expect((await mentor.api.call(tenantAddUserV2, { body: { email: learner.email } })).data.outcome).toBe(
      'ADDED',
    );
    await login(page, mentor.email, mentor.password);
    await expect(page).toHaveURL(/\/portal\/users$/);
    await page.getByRole('link', { name: 'Manage Assessment' }).click();
    await expect(page.getByRole('heading', { name: 'Manage Assessment' })).toBeVisible();
    await expectAccessible(page, 'manage assessment');

    await page.getByRole('button', { name: 'Create Assessment' }).click();
    const form = page.getByRole('dialog', { name: 'Assessment Form' });
    await form.getByRole('button', { name: 'Create', exact: true }).click();
    await expect(form.getByText('Assessment name cannot be empty.')).toBeVisible();
    const name = `Week check ${Date.now()}`;
    await form.getByLabel('Assessment name').fill(name);
    await form.getByRole('button', { name: 'Create', exact: true }).click();
    await expect(page).toHaveURL(/\/portal\/create-assessment\//);
    await expect(page.getByRole('heading', { name: 'Create Assessment' })).toBeVisible();
    await expect(page.getByText('No data found')).toBeVisible();
    await expectAccessible(page, 'builder preview');

    // the editor: every rule of mentor §5
    await page.getByRole('button', { name: 'Create New Question' }).click();
    await expect(page.getByRole('heading', { name: 'Question editor' })).toBeVisible();
    await page.getByRole('button', { name: 'Save question' }).click();
    await expect(page.getByText('At least one answer should be correct')).toBeVisible();
    await expectAccessible(page, 'question editor with errors');
    await page.getByLabel('Subject').selectOption({ label: 'Mathematics' });
    await page.getByLabel('Topic').selectOption({ label: 'Algebra' });
    await page.getByLabel('Question', { exact: true }).fill('Which of these numbers is prime?');
    for (const [i, v] of ['7', '9', '15', '21'].entries())
      await page.getByLabel(`Option ${i + 1}`, { exact: true }).fill(v);
    await page.locator('.option-row').first().getByRole('radio').check();
    await expect(page.locator('.option-row').first()).toContainText('10 points');
    await page
      .getByLabel('Explanation')
      .fill('7 has no divisors but 1 and itself; 9, 15 and 21 are multiples of 3.');
    await page.getByLabel('Tags').fill('algebra, primes');
    // switching to fill-in-the-blank loses the options, after a confirmation; cancelling keeps them
    await page.getByRole('radio', { name: 'Fill in the blank' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Change the question type?' });
    await expect(confirm).toBeVisible();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByLabel('Option 1', { exact: true })).toHaveValue('7');
    // single choice ↔ multiple choice keeps the options without asking
    // (a switch is saved first: wait for each before the next, the editor ignores a click meanwhile)
    await page.getByRole('radio', { name: 'Multiple choice', exact: true }).click();
    await expect(page.getByRole('radio', { name: 'Multiple choice', exact: true })).toBeChecked();
    await expect(page.locator('.option-row').first().getByRole('checkbox')).toBeVisible();
    await expect(page.getByLabel('Option 1', { exact: true })).toHaveValue('7');
    await page.getByRole('radio', { name: 'Single choice', exact: true }).click();
    await expect(page.getByRole('radio', { name: 'Single choice', exact: true })).toBeChecked();
    await page.locator('.option-row').first().getByRole('radio').check();
    await page.getByRole('button', { name: 'Save question' }).click();
    await expect(page.getByText('The question is saved.')).toBeVisible();
    await expect(page.getByText('Which of these numbers is prime?')).toBeVisible();

    // sharing needs 10 questions
    await page.getByRole('main').getByRole('link', { name: 'Manage Assessment', exact: true }).click();
    const row = page.getByRole('row', { name: new RegExp(name) });
    await row.getByRole('button', { name: /Share/ }).click();
    await expect(page.getByText(/Please add at least 10 questions/)).toBeVisible();
    await page.getByRole('dialog', { name: 'Assign users' }).getByRole('button', { name: 'Cancel' }).click();

    // nine more questions through the API, then share with the mentor's learner
    const assessmentId = new URL(
      await row.getByRole('link', { name: /Manage/ }).evaluate((a) => (a as HTMLAnchorElement).href),
    ).pathname
      .split('/')
      .pop()!;
    const subjects = (await mentor.api.call(adminSubjectList)).data;
    const mathematics = subjects.find((s) => s.name === 'Mathematics')!;
    for (let i = 0; i < 9; i++) {
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
    await page.reload();
    await page
      .getByRole('row', { name: new RegExp(name) })
      .getByRole('button', { name: /Share/ })
      .click();
    const share = page.getByRole('dialog', { name: 'Assign users' });
    await share.getByRole('button', { name: 'Assign' }).click();
    await expect(share.getByText('Please provide valid input')).toBeVisible();
    await share.getByLabel(learner.email).check();
    await expectAccessible(page, 'assign users');
    await share.getByRole('button', { name: 'Assign' }).click();
    await expect(page.getByText(/Shared with 1 learner/)).toBeVisible();

    // sharing again with the same learner: said, and done only when asked for
    await page
      .getByRole('row', { name: new RegExp(name) })
      .getByRole('button', { name: /Share/ })
      .click();
    await share.getByLabel(learner.email).check();
    await share.getByRole('button', { name: 'Assign' }).click();
    await expect(share.getByRole('alert')).toContainText(
      `1 learner already has a test of this assessment: ${learner.email.toLowerCase()}.`,
    );
    await expectAccessible(page, 'assign users again');
    await share.getByRole('button', { name: 'Assign again' }).click();
    await expect(page.getByText(/Shared with 1 learner/).last()).toBeVisible();
  });

  test('the add-question search reads the bank on, page by page, and adds a question from it', async ({
    page,
  }) => {
    // two pages of forty cards, axe over them and a search: it ran past the default minute at load 8
    test.slow();
    const mentor = await newAccount({ role: 'TENANT', prefix: 'browser', name: 'Bela Browser' });
    await login(page, mentor.email, mentor.password);
    await expect(page).toHaveURL(/\/portal\/users$/);
    await page.getByRole('link', { name: 'Manage Assessment' }).click();
    await page.getByRole('button', { name: 'Create Assessment' }).click();
    const form = page.getByRole('dialog', { name: 'Assessment Form' });
    await form.getByLabel('Assessment name').fill(`Bank browse ${Date.now()}`);
    await form.getByRole('button', { name: 'Create', exact: true }).click();
    await expect(page).toHaveURL(/\/portal\/create-assessment\//);
    await page.getByRole('button', { name: 'Add Question' }).click();
    await expect(page.getByRole('heading', { name: 'Add Question' })).toBeVisible();

    // the demo bank has far more than a page of published questions
    const cards = page.locator('.question-card');
    await expect(cards).toHaveCount(20);
    await page.getByRole('button', { name: 'Show more questions' }).click();
    await expect(cards).toHaveCount(40);
    // a whole card (its text, code and options): the demo bank asks 'What does this print?' of a dozen snippets
    const texts = await cards.allTextContents();
    expect(new Set(texts).size, 'no question twice').toBe(40);
    await expectAccessible(page, 'add question, second page');

    // a search starts again from its first page; Enter submits it
    await page.getByLabel('Search questions').fill('SQL');
    // the search's own answer, not the list it replaces: a card read before it arrives is another question
    // (its answer, not a 401 the client answers by refreshing the session and asking again)
    const searched = page.waitForResponse(
      (r) =>
        r.url().includes('/tenant/question/search-list') &&
        /[?&]searchText=sql/i.test(r.url()) &&
        r.status() !== 401,
    );
    await page.getByLabel('Search questions').press('Enter');
    const response = await searched;
    expect(response.status(), await response.text()).toBe(200);
    const found = (await response.json()) as { data: { question: string }[] };
    const question = found.data[0]!.question;
    const first = cards.first();
    await expect(first.locator('.question-text')).toHaveText(question);
    await expect.poll(() => cards.count()).toBeLessThanOrEqual(20);
    await first.locator('summary').click();
    await first.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(first.getByRole('button', { name: 'Added' })).toBeDisabled();
    await page.getByRole('button', { name: 'Back' }).click();
    await expect(page.getByText(question)).toBeVisible();
  });

  test('an abandoned new question does not stay in the assessment: the share dialog counts what the server counts', async ({
    page,
  }) => {
    // nine questions set up, two trips through the editor and the share dialog: 60 s at load 18 here
    test.slow();
    const mentor = await newAccount({ role: 'TENANT', prefix: 'drafts', name: 'Dara Drafts' });
    const name = `Nine and a draft ${Date.now()}`;
    const assessmentId = (await mentor.api.call(createAssessment, { body: { name } })).data._id;
    const mathematics = (await mentor.api.call(adminSubjectList)).data.find((s) => s.name === 'Mathematics')!;
    for (let i = 0; i < 9; i++) {
      const created = (await mentor.api.call(createQuestion, { body: { assessmentId } })).data;
      await mentor.api.call(saveQuestion, {
        params: { id: created.questionId },
        body: {
          question: `What is ${i} × 2?`,
          questionType: 'FILL_IN_BLANK',
          subject: mathematics._id,
          topic: mathematics.topics[0]!._id,
          points: 10,
          options: [{ value: String(i * 2), isCorrect: true }],
          explanation: [{ type: 'TEXT', value: `${i} × 2 = ${i * 2}` }],
          tags: ['arithmetic'],
        },
      });
    }
    await login(page, mentor.email, mentor.password);
    await expect(page).toHaveURL(/\/portal\/users$/);
    await page.goto(`/portal/create-assessment/${assessmentId}`);
    const cards = page.locator('.question-card');
    await expect(cards).toHaveCount(9);

    // Create New Question, then Back without saving
    await page.getByRole('button', { name: 'Create New Question' }).click();
    await expect(page.getByRole('heading', { name: 'Question editor' })).toBeVisible();
    await page.getByRole('button', { name: 'Back' }).click();
    await expect(page.getByRole('heading', { name: 'Questions', exact: true })).toBeVisible();
    await expect(cards).toHaveCount(9);
    await expect(page.getByText('Untitled question')).toHaveCount(0);

    // Create New Question, then away by the link, without saving either
    await page.getByRole('button', { name: 'Create New Question' }).click();
    await expect(page.getByRole('heading', { name: 'Question editor' })).toBeVisible();
    await page.getByRole('main').getByRole('link', { name: 'Manage Assessment', exact: true }).click();
    const row = page.getByRole('row', { name: new RegExp(name) });
    await expect(row.getByRole('cell', { name: '9', exact: true })).toBeVisible();

    // the share dialog counts 9 published questions, as the server does: not enough to share
    await row.getByRole('button', { name: /Share/ }).click();
    const share = page.getByRole('dialog', { name: 'Assign users' });
    await expect(share.getByText(/Please add at least 10 questions/)).toBeVisible();
    await expectAccessible(page, 'share dialog of an assessment with 9 questions');
    await share.getByRole('button', { name: 'Cancel' }).click();
    const held = (await mentor.api.call(getAssessment, { params: { assessmentId } })).data.questions;
    expect(held).toHaveLength(9);
    expect(held.every((q) => q.status === 'PUBLISH')).toBe(true);
    const refused = await mentor.api
      .call(assignAssessmentUsers, {
        params: { id: assessmentId },
        body: {
          userIds: [mentor.id],
          createdAt: Date.now(),
          startTime: Math.ceil((Date.now() + 60_000) / 900_000) * 900_000,
          duration: 1,
        },
      })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).field).toBe('questions');

    // back in the builder: still the nine, no draft
    await row.getByRole('link', { name: /Manage/ }).click();
    await expect(cards).toHaveCount(9);
    await expect(page.getByText('Untitled question')).toHaveCount(0);
    await expectAccessible(page, 'builder after two abandoned drafts');
  });
});
