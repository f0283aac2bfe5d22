/**
 * The extension in Firefox (Debian's firefox-esr, the end-to-end build installed as a temporary add-on)
 * against the real server and the Auth emulator, as tests/e2e/extension.spec.ts does in Chromium:
 *
 * - signing in on the portal signs the extension in (its tokens are Firefox's); the page protocol; the top
 *   bar's icon green, orange (a button that signs it in again) and, without the portal's pages, grey;
 * - heartbeats only for a resource of an assigned roadmap, once per 30 s while it is in front and the person
 *   active, or while it plays sound behind another tab; nothing from a private window;
 * - the popup: today's time, the list of addresses, the pause switch; sign-out;
 * - where Firefox differs: the event page is stopped when idle (a 5-second timeout here, 30 s by default)
 *   and tracking goes on from storage; a person may withdraw the host permissions, and the popup asks for
 *   them again.
 *
 * Resource pages are answered by the test (request interception), so nothing leaves the machine. Time is
 * sped up inside the extension only (its clock moved back six minutes, then forward in 30-second pulses).
 */
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { timeSpentOnResourceByUser } from '../../shared/contract/activity';
import { trackingKey } from '../../shared/rules/heartbeats';
import { type Account, baseUrl, newAccount } from '../support/accounts';
import { assignDemoRoadmap } from '../support/catalogue';
import {
  bodyText,
  type ExtensionState,
  expectAccessible,
  extensionPage,
  type Firefox,
  hook,
  launchFirefox,
  login,
  openExtensionPage,
  privateWindow,
  stateOf,
  until,
  waitForText,
} from './firefox';

const DAY = 86_400;
const SIX_MINUTES = 6 * 60_000;
const IDLE_TIMEOUT_MS = 5000;

/** A resource's page, with a tone it can play (a WAV made in the page: no file, no network). */
const lessonPage = (title: string) => `<!doctype html><html lang="en"><head><title>${title}</title></head>
<body><main><h1>${title}</h1><p>Lesson.</p><audio id="tone" loop></audio>
<button id="play" type="button">Play</button></main><script>
const rate = 8000, n = rate * 5, b = new DataView(new ArrayBuffer(44 + n * 2));
const s = (o, t) => [...t].forEach((c, i) => b.setUint8(o + i, c.charCodeAt(0)));
s(0, 'RIFF'); b.setUint32(4, 36 + n * 2, true); s(8, 'WAVEfmt '); b.setUint32(16, 16, true);
b.setUint16(20, 1, true); b.setUint16(22, 1, true); b.setUint32(24, rate, true); b.setUint32(28, rate * 2, true);
b.setUint16(32, 2, true); b.setUint16(34, 16, true); s(36, 'data'); b.setUint32(40, n * 2, true);
for (let i = 0; i < n; i++) b.setInt16(44 + i * 2, Math.round(8000 * Math.sin(2 * Math.PI * 440 * i / rate)), true);
document.getElementById('tone').src = URL.createObjectURL(new Blob([b.buffer], { type: 'audio/wav' }));
document.getElementById('play').onclick = () => document.getElementById('tone').play();
</script></body></html>`;

/** Answers addresses whose tracking key is in `pages` with their HTML; everything else goes on. */
async function serve(page: Page, pages: Record<string, string>) {
  await page.setRequestInterception(true);
  page.on('request', (req) => {
    if (req.isInterceptResolutionHandled()) return;
    const body = pages[trackingKey(req.url()) ?? ''];
    if (body) void req.respond({ status: 200, contentType: 'text/html', body });
    else void req.continue();
  });
}

/** Sends one action of the page protocol from a portal page, as the portal does; the extension's answer. */
function ask(page: Page, action: string, payload?: unknown): Promise<string> {
  return page.evaluate(
    (a, p) =>
      new Promise<string>((resolve) => {
        const requestId = `firefox-${Math.random()}`;
        const done = (answer: string) => {
          window.removeEventListener('message', on);
          resolve(answer);
        };
        const on = (e: MessageEvent) => {
          const d = e.data as { source?: string; requestId?: string; message?: string };
          if (d?.source !== 'waymark-extension' || d.requestId !== requestId) return;
          // CHECK is answered at once with Present; the other actions by the background
          if (a === 'CHECK' || d.message !== 'Present') done(String(d.message));
        };
        window.addEventListener('message', on);
        window.postMessage({ source: 'waymark-page', action: a, payload: p, requestId }, location.origin);
        setTimeout(() => done('NO-EXTENSION'), 3000);
      }),
    action,
    payload,
  );
}

const icon = (page: Page, state: string) =>
  page.waitForSelector(`.ext-icon[data-state="${state}"]`, { timeout: 15_000 });

describe('the extension in Firefox', () => {
  let firefox: Firefox;
  let ext: Page;
  let portal: Page;
  let learner: Account;
  let studied: { resourceId: string; title: string; url: string; key: string };
  const state = () => stateOf(ext);

  /** Opens the resource in a tab of its own (answered by the test). */
  async function openLesson() {
    const lesson = await firefox.browser.newPage();
    await serve(lesson, { [studied.key]: lessonPage(studied.title) });
    await lesson.goto(studied.url, { waitUntil: 'load' });
    await lesson.bringToFront();
    return lesson;
  }

  beforeAll(async () => {
    learner = await newAccount({ prefix: 'firefox', name: 'Freya Firefox' });
    firefox = await launchFirefox({ extension: true, idleTimeoutMs: IDLE_TIMEOUT_MS });
    ext = await extensionPage(firefox.browser);
    portal = await firefox.browser.newPage();
  });

  afterAll(async () => {
    await firefox?.close();
  });

  it('signing in on the portal signs the extension in with Firefox tokens: the icon turns green', async () => {
    await login(portal, learner.email, learner.password);
    // present but signed out: the portal goes through /check, which signs the extension in
    await until(
      portal,
      'the learner lands on My roadmaps',
      () => location.pathname === '/my-roadmaps',
      20_000,
    );
    await icon(portal, 'signed-in');
    expect(await portal.$eval('.ext-icon', (e) => e.getAttribute('aria-label'))).toBe(
      'Waymark extension signed in',
    );
    await expectAccessible(portal, 'signed in with the extension');
    const s = await state();
    expect(s.signedIn).toBe(true);
    // GET /login/socket-token asked for this browser's device
    expect(s.device).toBe('FIREFOX_EXTENSION');
  });

  it('answers the page protocol the portal uses to detect it; signed out it is orange, a button that signs it in', async () => {
    expect(await ask(portal, 'CHECK')).toBe('Present');
    expect(await ask(portal, 'IS-LOGGED-IN')).toBe('LOGGED-IN');
    expect(await ask(portal, 'SIGN-IN', { uuid: learner.id })).toBe('NOT-LOGGED-IN');
    expect(await ask(portal, 'SIGN-OUT')).toBe('LOGOUT-SUCCESS');
    expect(await ask(portal, 'IS-LOGGED-IN')).toBe('NOT-LOGGED-IN');
    expect((await state()).signedIn).toBe(false);
    await portal.reload({ waitUntil: 'load' });
    const orange = await icon(portal, 'signed-out');
    expect(await orange!.evaluate((e) => e.getAttribute('aria-label'))).toBe(
      'Waymark extension installed but signed out: sign it in',
    );
    await expectAccessible(portal, 'the extension signed out');
    await orange!.click();
    await icon(portal, 'signed-in');
    expect((await state()).signedIn).toBe(true);
  });

  it('counts an assigned resource once per 30 s while it is in front, and no other page', async () => {
    const roadmap = await assignDemoRoadmap(learner.api);
    const resource = roadmap.sections.flatMap((s) => s.resources)[0]!;
    studied = {
      resourceId: resource._id,
      title: resource.userTitle || resource.actualTitle,
      url: resource.url,
      key: trackingKey(resource.url)!,
    };
    await hook(ext, 'sync');
    expect((await state()).tracked).toContainEqual([studied.key, studied.resourceId]);
    await hook(ext, 'setClockOffset', -SIX_MINUTES);

    // a page of no assigned roadmap, in front: nothing
    const other = await firefox.browser.newPage();
    await serve(other, { 'example.org/not-assigned': lessonPage('Not assigned') });
    await other.goto('https://example.org/not-assigned', { waitUntil: 'load' });
    await other.bringToFront();
    await hook(ext, 'pulse');
    expect(await state()).toMatchObject({ engaged: {}, queued: 0 });
    await other.close();

    const lesson = await openLesson();
    await hook(ext, 'pulse');
    const first = await state();
    expect(Object.values(first.engaged)).toEqual([
      expect.objectContaining({ resourceId: studied.resourceId, tabActive: true, audible: false }),
    ]);
    // a second pulse within the 30 s makes no heartbeat
    await hook(ext, 'pulse');
    expect((await state()).queued).toBe(first.queued);
    for (let elapsed = 30_000; elapsed <= SIX_MINUTES; elapsed += 30_000) {
      await hook(ext, 'setClockOffset', elapsed - SIX_MINUTES);
      await hook(ext, 'pulse');
    }
    await lesson.close();
    await hook(ext, 'pulse');
    await hook(ext, 'flush');
    expect((await state()).queued).toBe(0);

    const now = Math.floor(Date.now() / 1000);
    const report = (
      await learner.api.call(timeSpentOnResourceByUser, {
        query: { startTime: Math.floor(now / DAY) * DAY - DAY, endTime: now, skip: 1, limit: 100 },
      })
    ).data;
    expect(report.timeSpentOnResource.map((r) => r.resource._id)).toEqual([studied.resourceId]);
    expect(report.timeSpentOnResource[0]!.timespent).toBeGreaterThanOrEqual(355);
    expect(report.timeSpentOnResource[0]!.timespent).toBeLessThan(420);
    await hook(ext, 'setClockOffset', 0);
  });

  it('counts a resource playing sound behind another tab, and stops when the sound does', async () => {
    const lesson = await openLesson();
    await lesson.click('#play');
    await ext.bringToFront();
    const audible = () =>
      ext.evaluate(async (url) => {
        const tabs = await (globalThis as unknown as { browser: typeof chrome }).browser.tabs.query({ url });
        return tabs.some((t) => t.audible);
      }, studied.url);
    await expect.poll(audible, { timeout: 10_000 }).toBe(true);
    await hook(ext, 'pulse');
    expect(Object.values((await state()).engaged)).toEqual([
      expect.objectContaining({ resourceId: studied.resourceId, tabActive: false, audible: true }),
    ]);
    await lesson.evaluate(() => (document.getElementById('tone') as HTMLAudioElement).pause());
    await expect.poll(audible, { timeout: 15_000 }).toBe(false);
    await hook(ext, 'pulse');
    expect((await state()).engaged).toEqual({});
    await lesson.close();
    await hook(ext, 'flush');
  });

  it('records nothing from a private window, where the portal does not find it either', async () => {
    const before = await state();
    const hidden = await privateWindow(firefox.browser);
    await serve(hidden, { [studied.key]: lessonPage(studied.title) });
    await hidden.goto(studied.url, { waitUntil: 'load' });
    await hidden.bringToFront();
    expect(await hidden.evaluate(() => document.title)).toBe(studied.title);
    await hook(ext, 'pulse');
    // the extension does not see the tab at all
    const seen = await ext.evaluate(async () =>
      (await (globalThis as unknown as { browser: typeof chrome }).browser.tabs.query({})).map((t) => t.url),
    );
    expect(seen).not.toContain(studied.url);
    expect(await state()).toMatchObject({ engaged: {}, queued: before.queued });
    // no content script in a private window: the portal there finds no extension
    await hidden.goto(`${baseUrl()}/privacy_policy`, { waitUntil: 'load' });
    expect(await ask(hidden, 'CHECK')).toBe('NO-EXTENSION');
    await hidden.close();
  });

  it("the popup shows today's time, exactly the addresses it tracks, and pauses", async () => {
    const popup = await extensionPage(firefox.browser);
    await waitForText(popup, /Signed in as Freya Firefox/);
    await until(popup, "today's list", () => !!document.querySelector('#today-list li'));
    expect(await popup.$eval('#today-list', (e) => e.textContent)).toContain(studied.title);
    expect(await popup.$eval('#today-total', (e) => e.textContent)).toMatch(/^6m|^[1-9]\d*m/);
    await popup.click('#addresses summary');
    const tracked = (await state()).tracked;
    expect(await popup.$$eval('#address-list li', (l) => l.length)).toBe(tracked.length);
    expect(await popup.$eval('#address-list', (e) => e.textContent)).toContain(studied.url);
    expect(await popup.$eval('#what-was-tracked', (a) => a.getAttribute('href'))).toBe(
      `${baseUrl()}/what-was-tracked`,
    );
    await expectAccessible(popup, 'the extension popup');

    await popup.click('#pause');
    await waitForText(popup, 'Tracking is paused');
    expect((await state()).paused).toBe(true);
    const lesson = await openLesson();
    await hook(ext, 'pulse');
    expect(await state()).toMatchObject({ engaged: {}, queued: 0 });
    await lesson.close();
    await popup.bringToFront();
    await popup.click('#pause');
    await waitForText(popup, 'Tracking is on.');
    expect((await state()).paused).toBe(false);
    await popup.close();
  });

  it('goes on when Firefox stops the idle event page: everything it needs is in storage', async () => {
    const before = await state();
    // nothing reaches the extension for longer than its idle timeout
    await new Promise((r) => setTimeout(r, IDLE_TIMEOUT_MS + 2500));
    const after = await state();
    expect(after.starts).toBeGreaterThan(before.starts);
    expect(after).toMatchObject({ signedIn: true, paused: false, tracked: before.tracked });
    const lesson = await openLesson();
    await hook(ext, 'pulse');
    const tracking = await state();
    expect(Object.values(tracking.engaged)).toHaveLength(1);
    expect(tracking.queued).toBeGreaterThan(0);
    await lesson.close();
    await hook(ext, 'pulse');
    await hook(ext, 'flush');
    expect((await state()).queued).toBe(0);
  });

  it('without its host permissions the portal finds no extension, and the popup asks for them', async () => {
    await ext.evaluate(() =>
      (globalThis as unknown as { browser: typeof chrome }).browser.permissions.remove({
        origins: ['http://127.0.0.1/*'],
      }),
    );
    await portal.bringToFront();
    await portal.goto(`${baseUrl()}/my-roadmaps`, { waitUntil: 'load' });
    await icon(portal, 'absent');
    expect(await ask(portal, 'CHECK')).toBe('NO-EXTENSION');

    const popup = await extensionPage(firefox.browser);
    await until(
      popup,
      'the request for access',
      () => !(document.getElementById('access') as HTMLElement).hidden,
    );
    expect(await popup.$eval('#access', (e) => e.textContent)).toContain('http://127.0.0.1');
    await expectAccessible(popup, 'the popup asking for access');
    await popup.click('#grant');
    await until(popup, 'access granted', () => (document.getElementById('access') as HTMLElement).hidden);
    await popup.close();

    await portal.bringToFront();
    await portal.reload({ waitUntil: 'load' });
    await icon(portal, 'signed-in');
  });

  it('signing out on the portal signs the extension out, and the popup says so', async () => {
    await portal.click('::-p-aria(Sign out[role="button"])');
    await until(portal, 'the landing page', () => location.pathname === '/');
    await expect.poll(async () => (await state()).signedIn).toBe(false);
    await openExtensionPage(ext);
    await waitForText(ext, 'Not signed in. Sign in on Waymark and this extension signs in with you.');
    expect(await bodyText(ext)).not.toContain('Today');
    const s: ExtensionState = await state();
    expect(s).toMatchObject({ signedIn: false, tracked: [], engaged: {} });
  });
});
