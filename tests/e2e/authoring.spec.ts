import type { Page } from '@playwright/test';
import { expect, expectAccessible, login, test } from '../support/fixtures';

/** Calls the API with the signed-in page's own token. */
async function api<T>(page: Page, method: string, path: string, body?: unknown): Promise<T> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const session = JSON.parse(localStorage.getItem('waymark.session') ?? '{}') as { token?: string };
      const res = await fetch(`/api${path}`, {
        method,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${session.token}` },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return (await res.json()) as T;
    },
    { method, path, body },
  );
}

test.describe('assessment management and the question editor', () => {
  test('a mentor builds an assessment, writes a question with the editor rules, and shares it once it has 10 questions', async ({
    page,
  }) => {
    await login(page, 'mentor@waymark.local', 'Mentor#2026');
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
    await page.getByLabel('Subject').selectOption({ label: 'Programming' });
    await page.getByLabel('Topic').selectOption({ label: 'JavaScript' });
    await page
      .getByLabel('Question', { exact: true })
      .fill('Which keyword declares a block-scoped constant?');
    for (const [i, v] of ['const', 'var', 'let', 'static'].entries())
      await page.getByLabel(`Option ${i + 1}`, { exact: true }).fill(v);
    await page.locator('.option-row').first().getByRole('radio').check();
    await expect(page.locator('.option-row').first()).toContainText('10 points');
    await page
      .getByLabel('Explanation')
      .fill('const declares a block-scoped binding that cannot be reassigned.');
    await page.getByLabel('Tags').fill('javascript, variables');
    // switching to fill-in-the-blank loses the options, after a confirmation; cancelling keeps them
    await page.getByRole('radio', { name: 'Fill in the blank' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Change the question type?' });
    await expect(confirm).toBeVisible();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByLabel('Option 1', { exact: true })).toHaveValue('const');
    // single choice ↔ multiple choice keeps the options without asking
    await page.getByRole('radio', { name: 'Multiple choice', exact: true }).click();
    await expect(page.getByLabel('Option 1', { exact: true })).toHaveValue('const');
    await page.getByRole('radio', { name: 'Single choice', exact: true }).click();
    await page.locator('.option-row').first().getByRole('radio').check();
    await page.getByRole('button', { name: 'Save question' }).click();
    await expect(page.getByText('The question is saved.')).toBeVisible();
    await expect(page.getByText('Which keyword declares a block-scoped constant?')).toBeVisible();

    // sharing needs 10 questions
    await page.getByRole('link', { name: '← Manage Assessment' }).click();
    const row = page.getByRole('row', { name: new RegExp(name) });
    await row.getByRole('button', { name: /Share/ }).click();
    await expect(page.getByText(/Please add at least 10 questions/)).toBeVisible();
    await page.getByRole('dialog', { name: 'Assign users' }).getByRole('button', { name: 'Cancel' }).click();

    // nine more questions through the API, then share with the demo learner
    const assessmentId = new URL(
      await row.getByRole('link', { name: /Manage/ }).evaluate((a) => (a as HTMLAnchorElement).href),
    ).pathname
      .split('/')
      .pop();
    const subjects = await api<{
      data: { _id: string; name: string; topics: { _id: string; name: string }[] }[];
    }>(page, 'GET', '/admin/subject/subject-list');
    const programming = subjects.data.find((s) => s.name === 'Programming')!;
    for (let i = 0; i < 9; i++) {
      const created = await api<{ data: { questionId: string } }>(page, 'POST', '/admin/question/create', {
        assessmentId,
      });
      await api(page, 'PUT', `/admin/question/${created.data.questionId}`, {
        question: `What is ${i} + 1?`,
        questionType: 'FILL_IN_BLANK',
        subject: programming._id,
        topic: programming.topics[0]!._id,
        points: 10,
        options: [{ value: String(i + 1), isCorrect: true }],
        explanation: [{ type: 'TEXT', value: `${i} + 1 = ${i + 1}` }],
        tags: ['arithmetic'],
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
    await share.getByLabel(/learner@waymark.local/).check();
    await expectAccessible(page, 'assign users');
    await share.getByRole('button', { name: 'Assign' }).click();
    await expect(page.getByText(/Shared with 1 learner/)).toBeVisible();
  });
});
