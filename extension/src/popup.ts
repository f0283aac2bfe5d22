/// <reference types="chrome" />
/**
 * The popup: who is signed in, what is tracked (this tab, and exactly which addresses), today's learning
 * time from the server, the pause switch, and links to the portal and to its "What was tracked" page; and,
 * when the browser withholds the portal's pages from it, a button asking for them. It asks the background
 * for everything else, so the tokens are only ever used in one place.
 */
import { compileOne } from '@shared/i18n/compile.mjs';
import { chromeName } from '@shared/i18n/extension-messages.mjs';
import type { MessageKey } from '@shared/i18n/keys';
import { DEFAULT_LOCALE, directionOf, matchLocale, type UiLocale } from '@shared/i18n/locales';
import { createTranslator, type MessageValues } from '@shared/i18n/translator';
import { formatDuration, spokenDuration } from '@shared/rules/durations';
import { ext } from './browser';
import type { PopupRequest, PopupStatus } from './protocol';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

/**
 * The popup's language: the browser's, as it picks the extension's `_locales` (decision 040); English for a
 * language Waymark does not speak, as the browsers then fall back on the default locale.
 */
const locale: UiLocale = matchLocale([ext.i18n.getUILanguage()]) ?? DEFAULT_LOCALE;

/** A message of `_locales` in the browser's language, its ICU plurals and values filled in. */
function say(key: MessageKey, values?: MessageValues): string {
  const text = ext.i18n.getMessage(chromeName(key));
  if (!text) return key;
  return createTranslator(locale, { [key]: compileOne(text) }).t(key, values);
}

/** The page's fixed words (data-i18n), its language and direction. */
function translatePage() {
  document.documentElement.lang = locale;
  document.documentElement.dir = directionOf(locale);
  for (const el of document.querySelectorAll<HTMLElement>('[data-i18n]'))
    el.textContent = say(el.dataset.i18n as MessageKey);
}

function localMidnight(): number {
  const d = new Date();
  d.setHours(0, 0, 0, 0);
  return Math.floor(d.getTime() / 1000);
}

async function ask(req: PopupRequest): Promise<PopupStatus> {
  return (await ext.runtime.sendMessage(req)) as PopupStatus;
}

function duration(el: HTMLElement, seconds: number) {
  el.textContent = formatDuration(seconds, locale);
  el.setAttribute('aria-label', spokenDuration(seconds, locale));
}

/** Without its host permissions (withheld in Firefox, or 'on click' in Chromium), ask for them. */
function renderAccess(access: PopupStatus['access']) {
  $('access').hidden = access.granted;
  const origins = access.origins.map((o) => o.replace(/\/\*$/, ''));
  $('access-text').textContent = say('extension.popup.accessText', {
    origins: new Intl.ListFormat(locale, { type: 'unit' }).format(origins),
  });
}

function render(s: PopupStatus) {
  renderAccess(s.access);
  const portal = $<HTMLAnchorElement>('portal');
  portal.href = `${s.portalUrl}/dashboard`;
  const account = $('account');
  if (!s.signedIn) {
    account.textContent = say('extension.popup.signedOut');
    portal.textContent = say('extension.popup.openToSignIn');
    portal.href = `${s.portalUrl}/login`;
    $('tracking').hidden = true;
    $('today').hidden = true;
    return;
  }
  portal.textContent = say('extension.popup.dashboard');
  account.textContent = say('extension.popup.signedIn', {
    name: s.user?.name || s.user?.email || say('extension.popup.aLearner'),
  });
  $('tracking').hidden = false;
  $('today').hidden = false;
  const pause = $<HTMLInputElement>('pause');
  pause.checked = s.paused;
  $('pause-state').textContent = s.paused ? say('extension.popup.paused') : say('extension.popup.on');
  $('tracked-count').textContent = say('extension.popup.countsOnly', { count: s.trackedCount });
  $<HTMLAnchorElement>('what-was-tracked').href = `${s.portalUrl}/what-was-tracked`;
  $('address-list').replaceChildren(
    ...s.tracked.map((a) => {
      const li = document.createElement('li');
      const title = document.createElement('span');
      title.textContent = a.title;
      const url = document.createElement('code');
      url.dir = 'ltr';
      url.textContent = a.url;
      li.append(title, url);
      return li;
    }),
  );
  if (s.tracked.length === 0) {
    const li = document.createElement('li');
    li.textContent = say('extension.popup.noneYet');
    $('address-list').append(li);
  }
  $('this-tab').textContent = s.currentTab
    ? say('extension.popup.thisTab', {
        title: s.currentTab.title,
        state: s.paused ? 'paused' : s.currentTab.engaged ? 'counting' : 'waiting',
      })
    : say('extension.popup.notTracked');
  const total = $('today-total');
  if (s.today) {
    duration(total, s.today.totalSeconds);
    const list = $('today-list');
    list.replaceChildren(
      ...s.today.resources.map((r) => {
        const li = document.createElement('li');
        const title = document.createElement('span');
        title.textContent = r.title;
        const time = document.createElement('span');
        duration(time, r.seconds);
        li.append(title, time);
        return li;
      }),
    );
  } else {
    total.textContent = '—';
  }
  $('queued').textContent = s.queued ? say('extension.popup.queued', { count: s.queued }) : '';
  $('error').textContent = s.error ?? '';
}

async function load() {
  try {
    render(await ask({ kind: 'popup', op: 'status', dayStart: localMidnight() }));
  } catch {
    $('account').textContent = say('extension.popup.failed');
  }
}

$<HTMLInputElement>('pause').addEventListener('change', async (e) => {
  const paused = (e.target as HTMLInputElement).checked;
  await ask({ kind: 'popup', op: 'set-paused', paused });
  await load();
});

$<HTMLButtonElement>('grant').addEventListener('click', async () => {
  // asked from the click itself: browsers grant permissions only on a person's gesture
  const origins = ext.runtime.getManifest().host_permissions ?? [];
  await ext.permissions.request({ origins }).catch(() => false);
  await load();
});

translatePage();
void load();
