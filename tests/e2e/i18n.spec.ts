/**
 * Waymark in Spanish and in Arabic (issue 31, decision 040), in Chromium against the real server: a
 * browser set to the language shows the sign-in page in it (`lang`, and `dir="rtl"` in Arabic), then a
 * learner whose profile says that language signs in and walks the main flow — the catalogue, a test
 * (Ready, Start, the questions, Finish, the score), an award page and the dashboard — every page in that
 * language, the layout mirrored in Arabic (the sidebar on the right), axe-clean, and neither at 375 px
 * nor at 1366 px wider than the window (screenshots of each are kept with the test's results).
 *
 * On a partner's page (another origin, served for real) the elements follow the page's `lang="ar"` — right
 * to left — and an element's own `lang="es"` wins over the page's. The extension's popup, in a browser whose
 * interface is Spanish or Arabic, speaks it (its `_locales`), right to left in Arabic.
 *
 * The words expected are read from the catalogues themselves (shared/i18n/messages), so the test says
 * what a learner of that language reads, and fails if a page shows English instead.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page, TestInfo } from '@playwright/test';
import { readCatalogue } from '../../scripts/i18n/sources.mjs';
import { setLanguage } from '../../shared/contract/profile';
import { compileCatalogue } from '../../shared/i18n/compile.mjs';
import type { Locale } from '../../shared/i18n/locales';
import { createTranslator, type Translator } from '../../shared/i18n/translator';
import { type Account, baseUrl, newAccount } from '../support/accounts';
import { answerFirstChoices, takeTest } from '../support/answers';
import { assignDemoRoadmap, resourceTestLinks } from '../support/catalogue';
import { launchWithExtension } from '../support/extension';
import { expect, expectAccessible, expectNoSidewaysScroll, test } from '../support/fixtures';

const english = readCatalogue('en');
const spanish = readCatalogue('es');
const arabic = readCatalogue('ar');

const LANGUAGES = [
  { locale: 'es', browser: 'es-ES', dir: 'ltr', catalogue: spanish, name: 'Lucía Fernández' },
  { locale: 'ar', browser: 'ar-EG', dir: 'rtl', catalogue: arabic, name: 'ليلى حسن' },
] as const;

const translatorOf = (locale: Locale, catalogue: Record<string, string>): Translator =>
  createTranslator(locale, compileCatalogue(catalogue), compileCatalogue(english));

/** The page in `lang`/`dir`, and at 375 and 1366 px no wider than the window; a screenshot of each. */
async function checkLayout(
  page: Page,
  info: TestInfo,
  name: string,
  lang: string,
  dir: string,
  { reload = true } = {},
) {
  await expect(page.locator('html')).toHaveAttribute('lang', lang);
  await expect(page.locator('html')).toHaveAttribute('dir', dir);
  const heading = (await page.getByRole('heading', { level: 1 }).first().textContent()) ?? '';
  for (const width of [375, 1366]) {
    // the page as a phone and a desktop open it
    await page.setViewportSize({ width, height: 900 });
    if (reload) {
      // not in the middle of a token refresh: a reload then would drop the rotated session
      await page.waitForLoadState('networkidle');
      await page.reload();
      await expect(page.getByRole('heading', { level: 1, name: heading.trim() }).first()).toBeVisible();
    }
    await expectNoSidewaysScroll(page, `${name} in ${lang} at ${width} px`);
    await page.screenshot({ path: info.outputPath(`${lang}-${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1366, height: 900 });
}

for (const language of LANGUAGES) {
  test.describe(`Waymark in ${language.browser}`, () => {
    test.describe.configure({ mode: 'serial' });
    const tr = translatorOf(language.locale, language.catalogue);
    const { t } = tr;
    let learner: Account;
    let uiLink: string;
    let featherLink: string;

    test.beforeAll(async () => {
      learner = await newAccount({ prefix: `i18n-${language.locale}`, name: language.name });
      // the learner's profile says the language (as a sign-up from a browser in that language does)
      await learner.api.call(setLanguage, { body: { language: language.locale } });
      const roadmap = await assignDemoRoadmap(learner.api);
      const links = await resourceTestLinks(learner.api, roadmap, 2);
      expect(links, 'two demo resources have questions').toHaveLength(2);
      [uiLink, featherLink] = links as [string, string];
      const { result } = await takeTest(learner.api, featherLink, 'right');
      expect(result.certificateEligible).toBe(true);
    });

    test('sign-in, catalogue, a test, an award and the dashboard, all in the language', async ({
      browser,
    }, info) => {
      const context = await browser.newContext({
        baseURL: baseUrl(),
        locale: language.browser,
        viewport: { width: 1366, height: 900 },
      });
      const page = await context.newPage();

      // signed out, the browser's language decides
      await page.goto('/login');
      await expect(page.getByRole('heading', { level: 1, name: t('auth.login') })).toBeVisible();
      await checkLayout(page, info, 'login', language.locale, language.dir);
      await expectAccessible(page, `login in ${language.locale}`);
      await page.getByLabel(t('column.email')).fill(learner.email);
      await page.getByLabel(t('auth.password'), { exact: true }).fill(learner.password);
      await page.getByRole('button', { name: t('auth.login'), exact: true }).click();
      await expect(page).not.toHaveURL(/\/login/);

      // the catalogue
      await page.goto('/all-roadmaps');
      await expect(page.getByRole('heading', { level: 1, name: t('roadmaps.all') })).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('lang', language.locale);
      if (language.dir === 'rtl') {
        // the frame mirrors: the sidebar stands at the right of the page's content
        const sidebar = await page.locator('.sidebar').boundingBox();
        const main = await page.getByRole('main').boundingBox();
        expect(sidebar && main && sidebar.x > main.x, 'the sidebar is on the right').toBe(true);
      }
      await checkLayout(page, info, 'catalogue', language.locale, language.dir);
      await expectAccessible(page, `catalogue in ${language.locale}`);

      // a test: Ready, Start, every question, Finish, the score
      await page.goto(`/test/${uiLink}`);
      await expect(page.getByRole('heading', { level: 1, name: t('test.ready') })).toBeVisible();
      await checkLayout(page, info, 'test-ready', language.locale, language.dir);
      await expectAccessible(page, `test ready in ${language.locale}`);
      await page.getByRole('button', { name: t('test.start'), exact: true }).click();
      await answerFirstChoices(page, t('test.next'));
      await expectAccessible(page, `a question in ${language.locale}`);
      await page.getByRole('button', { name: t('test.finish'), exact: true }).click();
      const dialog = page.getByRole('dialog', { name: t('test.finishQuestion') });
      await expect(dialog).toBeVisible();
      await dialog.getByRole('button', { name: t('test.finish'), exact: true }).click();
      await expect(page.getByRole('heading', { name: t('test.yourScore') })).toBeVisible({ timeout: 20_000 });
      await checkLayout(page, info, 'test-score', language.locale, language.dir, { reload: false });
      await expectAccessible(page, `test score in ${language.locale}`);

      // an award
      await page.goto(`/feather/${featherLink}`);
      await expect(
        page.getByRole('heading', {
          level: 1,
          name: t('awardPage.earned', { kind: 'feather', learner: language.name, issuer: 'Waymark' }),
        }),
      ).toBeVisible({ timeout: 20_000 });
      await checkLayout(page, info, 'feather', language.locale, language.dir);
      await expectAccessible(page, `feather in ${language.locale}`);

      // the dashboard
      await page.goto('/dashboard');
      await expect(page.getByRole('heading', { level: 1, name: t('dashboard.title') })).toBeVisible();
      await checkLayout(page, info, 'dashboard', language.locale, language.dir);
      await expectAccessible(page, `dashboard in ${language.locale}`);
      await context.close();
    });
  });
}

test('elements on a partner page follow its lang: Arabic right to left, an element of its own in Spanish', async ({
  page,
}) => {
  const ar = translatorOf('ar', arabic);
  const es = translatorOf('es', spanish);
  const partner = createServer((_req, res) => {
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end(
      `<!doctype html><html lang="ar" dir="rtl"><title>شريك</title><main><h1>شريك</h1>
      <section aria-label="ar"><wm-roadmap-catalogue id="in-arabic"></wm-roadmap-catalogue></section>
      <section aria-label="es"><wm-roadmap-catalogue id="in-spanish" lang="es"></wm-roadmap-catalogue></section>
      </main><script type="module" src="${baseUrl()}/widgets/roadmap-catalogue.js"></script></html>`,
    );
  });
  await new Promise<void>((resolve) => partner.listen(0, '127.0.0.1', resolve));
  try {
    await page.goto(`http://127.0.0.1:${(partner.address() as AddressInfo).port}/`);
    const arabicOne = page.locator('#in-arabic');
    const spanishOne = page.locator('#in-spanish');
    await expect(arabicOne.getByRole('heading', { name: ar.t('catalogue.heading') })).toBeVisible();
    await expect(spanishOne.getByRole('heading', { name: es.t('catalogue.heading') })).toBeVisible();
    await expect(arabicOne.locator('.wm-locale')).toHaveAttribute('dir', 'rtl');
    await expect(arabicOne.locator('.wm-locale')).toHaveAttribute('lang', 'ar');
    await expect(spanishOne.locator('.wm-locale')).toHaveAttribute('dir', 'ltr');
    // right to left for real: the heading's text starts at the right edge of its box
    const align = await arabicOne
      .getByRole('heading', { name: ar.t('catalogue.heading') })
      .evaluate((h) => getComputedStyle(h).direction);
    expect(align).toBe('rtl');
    await expectAccessible(page, 'elements on an Arabic partner page');
  } finally {
    await new Promise((resolve) => partner.close(resolve));
  }
});

for (const language of LANGUAGES) {
  test(`the extension's popup in a browser in ${language.browser}`, async () => {
    const tr = translatorOf(language.locale, language.catalogue);
    const browser = await launchWithExtension(`popup-${language.locale}`, { lang: language.locale });
    try {
      const { context } = browser;
      const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
      const popup = await context.newPage();
      await popup.goto(`chrome-extension://${new URL(worker.url()).host}/popup.html`);
      await expect(popup.locator('html')).toHaveAttribute('lang', language.locale);
      await expect(popup.locator('html')).toHaveAttribute('dir', language.dir);
      // signed out: it says so, and offers Waymark's sign-in, in the browser's language
      await expect(popup.locator('#account')).toHaveText(tr.t('extension.popup.signedOut'));
      await expect(popup.getByRole('link', { name: tr.t('extension.popup.openToSignIn') })).toBeVisible();
      await expectAccessible(popup, `the extension's popup in ${language.locale}`);
    } finally {
      await browser.close();
    }
  });
}
