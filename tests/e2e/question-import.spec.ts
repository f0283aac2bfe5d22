/**
 * "Import questions" in the portal, in Chromium against the real server: a mentor who
 * never opens a terminal brings a Moodle GIFT bank into an assessment by keyboard — sees the per-question
 * report (what cannot be held and why, with its line), imports the rest, and importing the same file again
 * creates nothing. A file of no known format is refused naming the formats.
 *
 * Mathematics questions (a subject without roadmaps), as authoring.spec.ts explains.
 */
import { createAssessment, getAssessment } from '../../shared/contract/authoring';
import { newAccount } from '../support/accounts';
import { expect, expectAccessible, login, test } from '../support/fixtures';

const stamp = Date.now();
const GIFT = [
  '$CATEGORY: $course$/top/Mathematics/Algebra',
  '',
  `// [id:e2e-${stamp}-1] [tag:primes]`,
  `::prime::Which of these numbers is prime (${stamp})?{=7 ~9 ~15 ~21####7 has no divisors but 1 and itself.}`,
  '',
  `// [id:e2e-${stamp}-2] [tag:primes]`,
  `::even::Every prime number is odd (${stamp}).{FALSE####2 is prime.}`,
  '',
  `// [tag:roots]`,
  `::root::The square root of 81 (${stamp}) is {=9####9 × 9 = 81.}.`,
  '',
  '::essay::Explain why there are infinitely many primes.{}',
].join('\n');
/**
 * The same bank as an author first wrote it: no tags (an imported question may have none), one answer
 * written twice, and one accepted both as a number and a word (which Waymark cannot hold).
 */
const DRAFT = GIFT.replace(/ \[tag:\w+\]/g, '')
  .replace('{=7 ~9 ~15 ~21', '{=7 ~9 ~9 ~21')
  .replace('{=9####9 × 9 = 81.}', '{=9 =nine}');

test.describe('importing questions in the portal', () => {
  test('a mentor imports a Moodle GIFT bank into an assessment by keyboard, and a re-run creates nothing', async ({
    page,
  }) => {
    const mentor = await newAccount({ role: 'TENANT', prefix: 'importer', name: 'Ines Importer' });
    const { _id: assessmentId } = (
      await mentor.api.call(createAssessment, { body: { name: `Imported ${stamp}` } })
    ).data;
    await login(page, mentor.email, mentor.password);
    await expect(page).toHaveURL(/\/portal\/users$/);
    await page.goto(`/portal/create-assessment/${assessmentId}`);
    await expect(page.getByRole('heading', { name: 'Create Assessment' })).toBeVisible();

    // by keyboard: focus the action and press Enter
    const action = page.getByRole('button', { name: 'Import questions' });
    await action.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Import questions' });
    await expect(dialog).toBeVisible();
    await expectAccessible(page, 'import dialog, empty');

    // a file of no known format: one line naming the formats
    await dialog.getByLabel('Question file').setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('Just some notes\nabout nothing in particular\n'),
    });
    await expect(dialog.getByRole('alert')).toContainText('notes.txt');
    await expect(dialog.getByRole('alert')).toContainText('Moodle GIFT');

    // every problem of the file at once, each with its line and field; nothing can be imported
    await dialog.getByLabel('Question file').setInputFiles({
      name: 'algebra.gift',
      mimeType: 'text/plain',
      buffer: Buffer.from(DRAFT),
    });
    const problems = dialog.locator('details', { hasText: 'Problems to fix in the file' });
    await expect(problems).toContainText(
      'line 4 · options: option 3: is the same as option 2; learners could not tell them apart',
    );
    await expect(dialog.locator('details', { hasText: 'Cannot be held by Waymark' })).toContainText(
      'line 10 · numbers and words',
    );
    await expect(dialog.locator('.import-report [role="status"]').first()).toContainText(
      'Nothing can be imported until the problems are fixed',
    );
    await expect(dialog.getByRole('button', { name: /^Import/ })).toBeDisabled();
    await expectAccessible(page, 'import dialog, problems');

    await dialog.getByLabel('Question file').setInputFiles({
      name: 'algebra.gift',
      mimeType: 'text/plain',
      buffer: Buffer.from(GIFT),
    });
    const summary = dialog.locator('.import-report [role="status"]').first();
    await expect(summary).toContainText('algebra.gift (Moodle GIFT), 4 questions');
    await expect(summary).toContainText('3 will be created');
    await expect(summary).toContainText('1 cannot be held');
    const unsupported = dialog.locator('details', { hasText: 'Cannot be held by Waymark' });
    await expect(unsupported).toContainText('line 12');
    await expect(unsupported).toContainText('essay');
    await expectAccessible(page, 'import dialog, report');

    // tab to the import button and press it
    const importButton = dialog.getByRole('button', { name: 'Import the others' });
    await expect(importButton).toBeEnabled();
    await importButton.focus();
    await page.keyboard.press('Enter');
    const done = dialog.locator('.import-report [role="status"]').first();
    await expect(done).toContainText('algebra.gift: 3 created', { timeout: 30_000 });
    await expect(done).toContainText('1 could not be held and were left out');
    await expect(done).toBeFocused();
    await expectAccessible(page, 'import dialog, done');
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(action).toBeFocused();

    // on the server: the three, whole, in the assessment
    const detail = (await mentor.api.call(getAssessment, { params: { assessmentId } })).data;
    expect(JSON.stringify(detail)).toContain(`Which of these numbers is prime (${stamp})?`);
    await expect(page.getByText(`Which of these numbers is prime (${stamp})?`)).toBeVisible();

    // the same file again: nothing to create
    await page.keyboard.press('Enter');
    await expect(dialog).toBeVisible();
    await dialog.getByLabel('Question file').setInputFiles({
      name: 'algebra.gift',
      mimeType: 'text/plain',
      buffer: Buffer.from(GIFT),
    });
    await expect(dialog.locator('.import-report [role="status"]').first()).toContainText('3 unchanged');
    await expect(
      dialog.getByRole('button', { name: /Import 0 questions|Import the others|Add 3/ }),
    ).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
  });
});
