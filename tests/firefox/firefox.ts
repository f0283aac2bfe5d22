/**
 * Debian's Firefox (firefox-esr), driven through WebDriver BiDi by puppeteer-core — never a browser of the
 * test tool's own — with the end-to-end build of the extension (dist/e2e/extension-firefox) installed as a
 * temporary add-on, against the server and Auth emulator of the global setup.
 *
 * - The extension's pages have a fixed address (the `extensions.webextensions.uuids` preference); puppeteer
 *   follows no navigation into an extension page, so `extensionPage` navigates through BiDi itself.
 * - The background's `__waymarkTest` hooks are reached with runtime.getBackgroundPage() from an extension
 *   page (which also wakes a stopped event page).
 * - A null ALSA device (an .asoundrc in Firefox's HOME) lets a page play sound without a sound card, so a
 *   tab playing sound is audible as on a desktop.
 * - Private windows: a helper add-on of the tests (./private-window/), allowed in private windows, opens one.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { expect } from 'vitest';
import { baseUrl } from '../support/accounts';
import { AXE_SOURCE, axeViolations } from '../support/axe';

export const FIREFOX_PATH = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';
export const EXTENSION_DIR = resolve('dist/e2e/extension-firefox');
const HELPER_DIR = resolve('tests/firefox/private-window');
const EXTENSION_ID = 'extension@waymark.app';
const HELPER_ID = 'private-window@tests.waymark.app';
/** The extension's moz-extension:// host in these tests (Firefox makes one up per profile otherwise). */
export const EXTENSION_UUID = '5e1c0a57-7e57-4a11-9e57-0000000000a1';
const HELPER_UUID = '5e1c0a57-7e57-4a11-9e57-0000000000a2';

export interface Firefox {
  browser: Browser;
  /** Closes the browser and removes its profile and home folders. */
  close(): Promise<void>;
}

/**
 * Firefox with a profile of its own; with `extension`, the extension and the private-window helper
 * installed. `idleTimeoutMs` is how long the event page may be idle before Firefox stops it.
 */
export async function launchFirefox(
  opts: { extension?: boolean; idleTimeoutMs?: number } = {},
): Promise<Firefox> {
  const home = mkdtempSync(join(tmpdir(), 'waymark-firefox-home-'));
  writeFileSync(join(home, '.asoundrc'), 'pcm.!default { type null }\nctl.!default { type hw card 0 }\n');
  const profile = mkdtempSync(join(tmpdir(), 'waymark-firefox-profile-'));
  // the helper may open private windows (what a person grants in about:addons); the extension may not
  writeFileSync(
    join(profile, 'extension-preferences.json'),
    JSON.stringify({ [HELPER_ID]: { permissions: ['internal:privateBrowsingAllowed'], origins: [] } }),
  );
  const browser = await puppeteer
    .launch({
      browser: 'firefox',
      executablePath: FIREFOX_PATH,
      headless: true,
      userDataDir: profile,
      env: { ...process.env, HOME: home },
      defaultViewport: { width: 1280, height: 900 },
      extraPrefsFirefox: {
        'extensions.webextensions.uuids': JSON.stringify({
          [EXTENSION_ID]: EXTENSION_UUID,
          [HELPER_ID]: HELPER_UUID,
        }),
        'extensions.background.idle.timeout': opts.idleTimeoutMs ?? 30_000,
        // permissions.request grants without a door-hanger a test cannot click
        'extensions.webextOptionalPermissionPrompts': false,
        'media.autoplay.default': 0,
        'media.cubeb.backend': 'alsa',
      },
    })
    .catch((err: unknown) => {
      rmSync(home, { recursive: true, force: true });
      rmSync(profile, { recursive: true, force: true });
      throw err;
    });
  if (opts.extension) {
    if (!existsSync(join(EXTENSION_DIR, 'manifest.json')))
      throw new Error(`${EXTENSION_DIR} is missing: run node extension/build.mjs (npm run build)`);
    await browser.installExtension(EXTENSION_DIR);
    await browser.installExtension(HELPER_DIR);
  }
  return {
    browser,
    async close() {
      await browser.close().catch(() => undefined);
      rmSync(home, { recursive: true, force: true });
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Navigates `page` to an extension page (popup.html) and waits for it to load. */
export async function openExtensionPage(page: Page, path = 'popup.html', uuid = EXTENSION_UUID) {
  // puppeteer's frame does not see a navigation into moz-extension://: ask BiDi to navigate and wait
  const frame = page.mainFrame() as unknown as {
    browsingContext: { navigate(url: string, wait: 'complete'): Promise<void> };
  };
  await frame.browsingContext.navigate(`moz-extension://${uuid}/${path}`, 'complete');
}

/** A new tab with an extension page. */
export async function extensionPage(browser: Browser, path = 'popup.html'): Promise<Page> {
  const page = await browser.newPage();
  await openExtensionPage(page, path);
  return page;
}

export interface ExtensionState {
  signedIn: boolean;
  device: string | null;
  paused: boolean;
  tracked: [string, string][];
  queued: number;
  engaged: Record<string, { resourceId: string; tabActive: boolean; audible: boolean }>;
  starts: number;
}
type HookName = 'setClockOffset' | 'setIdleOverride' | 'pulse' | 'flush' | 'sync' | 'state';

/** Runs one of the background's test hooks (`globalThis.__waymarkTest`), from an extension page. */
export function hook<T = void>(page: Page, name: HookName, arg?: unknown): Promise<T> {
  return page.evaluate(
    async (n, a) => {
      const ext = (globalThis as unknown as { browser: typeof chrome }).browser;
      const bg = (await ext.runtime.getBackgroundPage()) as unknown as {
        __waymarkTest: Record<string, (x?: unknown) => Promise<unknown>>;
      };
      // through JSON: what the background's realm made, as plain data
      return JSON.parse(JSON.stringify((await bg.__waymarkTest[n]!(a)) ?? null));
    },
    name,
    arg,
  ) as Promise<T>;
}
export const stateOf = (page: Page) => hook<ExtensionState>(page, 'state');

/**
 * A private window, opened by the helper add-on at about:blank; the puppeteer page of its tab.
 */
export async function privateWindow(browser: Browser): Promise<Page> {
  const before = new Set(await browser.pages());
  const helper = await browser.newPage();
  await openExtensionPage(helper, 'open.html', HELPER_UUID);
  await helper.evaluate(async () => {
    const ext = (globalThis as unknown as { browser: typeof chrome }).browser;
    await ext.windows.create({ incognito: true, url: 'about:blank' });
  });
  await helper.close();
  for (let i = 0; i < 50; i++) {
    const made = (await browser.pages()).find((p) => !before.has(p) && p !== helper);
    if (made) return made;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('no private window appeared');
}

/**
 * Waits until `fn` (run in the page) returns a truthy value; fails with `what`. It asks again after a
 * navigation (puppeteer's waitForFunction gives up when the page's document changes).
 */
export async function until(page: Page, what: string, fn: () => unknown, timeout = 15_000) {
  const deadline = Date.now() + timeout;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      if (await page.evaluate(fn)) return;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const where = await page.evaluate(() => location.href).catch(() => page.url());
  throw new Error(
    `${what}: not within ${timeout} ms at ${where}${last ? ` (${(last as Error).message})` : ''}`,
  );
}

/** The text of the page's body (what a person reads). */
export const bodyText = (page: Page) =>
  // biome-ignore lint/performance/useDomNodeTextContent: what a person reads: hidden text left out
  page.evaluate(() => document.body.innerText);

/** Waits for `text` (a string or pattern) to appear in the page. */
export async function waitForText(page: Page, text: string | RegExp, timeout = 15_000) {
  const found = async () => {
    const body = await bodyText(page).catch(() => '');
    return typeof text === 'string' ? body.includes(text) : text.test(body);
  };
  const deadline = Date.now() + timeout;
  while (Date.now() < deadline) {
    if (await found()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`"${text}" did not appear: ${(await bodyText(page).catch(() => '')).slice(0, 600)}`);
}

/** Runs axe (the same rules as the Chromium suite) and fails with the violations listed. */
export async function expectAccessible(page: Page, context = '') {
  // pages load lazily: check the page once it has drawn its heading
  await page.waitForSelector('h1', { timeout: 5_000 }).catch(() => undefined);
  // evaluated through BiDi, which a page's CSP does not stop
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(axeViolations);
  expect(violations, `accessibility violations ${context} at ${page.url()}`).toEqual([]);
}

/** Signs in through the portal's login form, as a person does. */
export async function login(page: Page, email: string, password: string) {
  await page.goto(`${baseUrl()}/login`, { waitUntil: 'load' });
  // (puppeteer's locators wait for animation frames, which headless Firefox does not give every tab)
  await page.waitForSelector('form input[type="password"]', { timeout: 15_000 });
  await page.type('form input[type="email"]', email);
  await page.type('form input[type="password"]', password);
  await page.click('form button[type="submit"]');
}
