/**
 * The portal's core flows in Firefox (Debian's firefox-esr, no extension installed) against the real
 * server and the Auth emulator: signing in with the emulator through the login form; the dashboard, whose
 * install prompts lead a Firefox user to Firefox Add-ons; a resource test taken on the test page, right
 * answers chosen as a learner does, with a visit to another tab recorded in its focus record; the feather
 * it earns, whose page draws and stores its image in Firefox. axe on every page.
 */
import type { ElementHandle, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestLink } from '../../shared/contract/assessments';
import { certificateInfo } from '../../shared/contract/awards';
import { type Account, baseUrl, newAccount } from '../support/accounts';
import { answerValues, demoQuestion } from '../support/answers';
import { assignDemoRoadmap } from '../support/catalogue';
import {
  bodyText,
  expectAccessible,
  type Firefox,
  launchFirefox,
  login,
  until,
  waitForText,
} from './firefox';

const NAME = 'Pia Portal';

/** The button of that accessible name (in `scope`, a CSS selector), once it is there. */
async function button(page: Page, name: string, scope = ''): Promise<ElementHandle<Element>> {
  const found = await page.waitForSelector(`${scope} ::-p-aria(${name}[role="button"])`.trim(), {
    timeout: 15_000,
  });
  if (!found) throw new Error(`no button ${name}`);
  return found;
}

/** Answers the question on screen right, as a learner does: the options' labels, or the text box. */
async function answerShown(page: Page) {
  const text = await page.$eval('.wm-question-text', (e) => e.textContent?.trim() ?? '');
  const code = await page.$('pre.wm-code');
  const known = demoQuestion({
    question: text,
    code: code ? await code.evaluate((e) => e.textContent) : null,
  });
  if (!known) throw new Error(`not a demo question: ${text}`);
  const values = answerValues(known, 'right');
  if ((known.type ?? 'MCQ') === 'FILL_IN_BLANK') {
    await page.type('::-p-aria(Your answer)', values[0]!);
    return;
  }
  for (const value of values) {
    const option = await page.evaluateHandle((v) => {
      const labels = [...document.querySelectorAll('label.wm-option')];
      const label = labels.find(
        (l) =>
          l.querySelector('.wm-option-text')?.textContent === v ||
          l.querySelector('img')?.getAttribute('src') === v,
      );
      return label?.querySelector('input') ?? null;
    }, value);
    const input = option.asElement() as ElementHandle<HTMLInputElement> | null;
    if (!input) throw new Error(`no option ${value} for "${text}"`);
    await input.click();
  }
}

/** The question navigation says question `n` is answered, and the answers are saved. */
async function answered(page: Page, n: number) {
  await page.waitForSelector(`::-p-aria(Question ${n}, answered[role="button"])`, { timeout: 15_000 });
  await waitForText(page, 'All answers saved');
}

describe('the portal in Firefox', () => {
  let firefox: Firefox;
  let page: Page;
  let learner: Account;
  let linkId: string;
  let resourceTitle: string;

  beforeAll(async () => {
    learner = await newAccount({ prefix: 'ffportal', name: NAME });
    const roadmap = await assignDemoRoadmap(learner.api, 'SQL Essentials');
    const section = roadmap.sections[0]!;
    const resource = section.resources[0]!;
    resourceTitle = resource.userTitle || resource.actualTitle;
    linkId = (
      await learner.api.call(createTestLink, {
        body: {
          type: 'RESOURCE',
          assignedRoadmapId: roadmap._id,
          sectionId: section._id,
          resourceId: resource._id,
        },
      })
    ).data.testLinkId;
    firefox = await launchFirefox();
    page = await firefox.browser.newPage();
  });

  afterAll(async () => {
    await firefox?.close();
  });

  it('signs in with the emulator; without the extension the icon is grey', async () => {
    await login(page, learner.email, learner.password);
    await until(page, 'the learner lands on My roadmaps', () => location.pathname === '/my-roadmaps', 20_000);
    await page.waitForSelector('.ext-icon[data-state="absent"]', { timeout: 15_000 });
    await until(
      page,
      'the icon says the extension is not installed',
      () =>
        document.querySelector('.ext-icon')?.getAttribute('aria-label') === 'Waymark extension not installed',
    );
    await expectAccessible(page, 'my roadmaps without the extension');
  });

  it('shows the dashboard, whose install prompts lead to Firefox Add-ons', async () => {
    await page.goto(`${baseUrl()}/dashboard`, { waitUntil: 'load' });
    await page.waitForSelector('::-p-aria(Dashboard[role="heading"])', { timeout: 15_000 });
    await waitForText(page, resourceTitle);
    const install = await page.waitForSelector('::-p-aria(Install Extension[role="link"])', {
      timeout: 15_000,
    });
    expect(await install!.evaluate((a) => a.getAttribute('href'))).toMatch(
      /^https:\/\/addons\.mozilla\.org\//,
    );
    await expectAccessible(page, 'the dashboard');
  });

  it('takes a test to its award; leaving its tab is in the focus record', async () => {
    await page.goto(`${baseUrl()}/test/${linkId}`, { waitUntil: 'load' });
    await page.waitForSelector('::-p-aria(Ready to Take Test?[role="heading"])', { timeout: 15_000 });
    await waitForText(page, /leaving its tab or window, pasting into an answer/);
    await expectAccessible(page, 'ready to take the test');
    await (await button(page, 'Start')).click();
    await waitForText(page, /Question 1 of \d+/);
    const total = Number(/Question 1 of (\d+)/.exec(await bodyText(page))![1]);
    await answerShown(page);
    await answered(page, 1);
    await expectAccessible(page, 'a question');

    // away to another tab for a while (well over the brief 3 s), then back: each reported at once (puppeteer
    // over BiDi does not show a request's body: the record below says which)
    let reports = 0;
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().endsWith('/api/testlink/activity')) reports++;
    });
    const other = await firefox.browser.newPage();
    await other.goto(`${baseUrl()}/privacy_policy`, { waitUntil: 'load' });
    await other.bringToFront();
    await expect.poll(() => reports, { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
    await new Promise((r) => setTimeout(r, 6000));
    await page.bringToFront();
    await expect.poll(() => reports, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
    await other.close();

    for (let n = 2; n <= total; n++) {
      await (await button(page, 'Next')).click();
      await waitForText(page, `Question ${n} of ${total}`);
      await answerShown(page);
      await answered(page, n);
    }
    await (await button(page, 'Finish')).click();
    const confirm = await page.waitForSelector('dialog[open]', { timeout: 15_000 });
    expect(await confirm!.evaluate((d) => d.textContent)).toContain('You have answered all');
    await (await button(page, 'Finish', 'dialog[open]')).click();
    await page.waitForSelector('::-p-aria(Your Score[role="heading"])', { timeout: 20_000 });
    await waitForText(page, `${total * 10} of ${total * 10} points`);
    await expectAccessible(page, 'the score');

    await page.goto(`${baseUrl()}/assesments/${linkId}/view`, { waitUntil: 'load' });
    const timeline = await page.waitForSelector('::-p-aria(Focus record timeline)', { timeout: 15_000 });
    expect(await timeline!.evaluate((e) => e.textContent)).toMatch(/Away \d+ s on question 1/);
    expect(await bodyText(page)).toContain('This is context, not proof');
    await expectAccessible(page, 'the answers with the focus record');
  });

  it("shows the feather's page, which draws and stores its image in Firefox", async () => {
    await page.goto(`${baseUrl()}/feather/${linkId}`, { waitUntil: 'load' });
    await waitForText(page, `${NAME} earned a Waymark feather`);
    await waitForText(page, 'Verified by Waymark');
    // generated on load (html2canvas in Firefox): Download becomes the stored JPEG
    await until(
      page,
      'the stored image',
      () =>
        /\/files\/certificates\/[^/]+\.jpg$/.test(
          [...document.querySelectorAll('a')].find((a) => a.textContent?.trim() === 'Download')?.href ?? '',
        ),
      30_000,
    );
    const info = (await learner.api.call(certificateInfo, { params: { id: linkId } })).data;
    expect(info.certificateGenerated).toBe(true);
    const image = await fetch(info.s3CertificateUrl!);
    expect(image.headers.get('content-type')).toBe('image/jpeg');
    expect((await image.arrayBuffer()).byteLength).toBeGreaterThan(20_000);
    await expectAccessible(page, 'the feather page');
  });
});
