/// <reference types="chrome" />
/**
 * The popup: who is signed in, what is tracked (this tab, and exactly which addresses), today's learning
 * time from the server, the pause switch, and links to the portal and to its "What was tracked" page; and,
 * when the browser withholds the portal's pages from it, a button asking for them. It asks the background
 * for everything else, so the tokens are only ever used in one place.
 */
import { formatDuration, spokenDuration } from '@shared/rules/durations';
import { ext } from './browser';
import type { PopupRequest, PopupStatus } from './protocol';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

function localMidnight(): number {
  const d = new Date();
  d.setHours(0, 0, 0, 0);
  return Math.floor(d.getTime() / 1000);
}

async function ask(req: PopupRequest): Promise<PopupStatus> {
  return (await ext.runtime.sendMessage(req)) as PopupStatus;
}

function duration(el: HTMLElement, seconds: number) {
  el.textContent = formatDuration(seconds);
  el.setAttribute('aria-label', spokenDuration(seconds));
}

/** Without its host permissions (withheld in Firefox, or 'on click' in Chromium), ask for them. */
function renderAccess(access: PopupStatus['access']) {
  $('access').hidden = access.granted;
  $('access-origins').textContent = access.origins.map((o) => o.replace(/\/\*$/, '')).join(', ');
}

function render(s: PopupStatus) {
  renderAccess(s.access);
  const portal = $<HTMLAnchorElement>('portal');
  portal.href = `${s.portalUrl}/dashboard`;
  const account = $('account');
  if (!s.signedIn) {
    account.textContent = 'Not signed in. Sign in on Waymark and this extension signs in with you.';
    portal.textContent = 'Open Waymark to sign in';
    portal.href = `${s.portalUrl}/login`;
    $('tracking').hidden = true;
    $('today').hidden = true;
    return;
  }
  account.textContent = `Signed in as ${s.user?.name || s.user?.email || 'a Waymark learner'}`;
  $('tracking').hidden = false;
  $('today').hidden = false;
  const pause = $<HTMLInputElement>('pause');
  pause.checked = s.paused;
  $('pause-state').textContent = s.paused
    ? 'Tracking is paused: no time is recorded until you turn this off.'
    : 'Tracking is on.';
  $('tracked-count').textContent = String(s.trackedCount);
  $<HTMLAnchorElement>('what-was-tracked').href = `${s.portalUrl}/what-was-tracked`;
  $('address-list').replaceChildren(
    ...s.tracked.map((a) => {
      const li = document.createElement('li');
      const title = document.createElement('span');
      title.textContent = a.title;
      const url = document.createElement('code');
      url.textContent = a.url;
      li.append(title, url);
      return li;
    }),
  );
  if (s.tracked.length === 0) {
    const li = document.createElement('li');
    li.textContent = 'None yet: select a roadmap on Waymark.';
    $('address-list').append(li);
  }
  $('this-tab').textContent = s.currentTab
    ? s.paused
      ? `This tab is "${s.currentTab.title}" — not counted while paused.`
      : s.currentTab.engaged
        ? `Counting this tab: "${s.currentTab.title}".`
        : `This tab is "${s.currentTab.title}"; it counts while you are active on it or it plays.`
    : 'This tab is not one of your resources: it is not tracked.';
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
  $('queued').textContent = s.queued
    ? `${s.queued} heartbeat${s.queued === 1 ? '' : 's'} waiting to be sent.`
    : '';
  $('error').textContent = s.error ?? '';
}

async function load() {
  try {
    render(await ask({ kind: 'popup', op: 'status', dayStart: localMidnight() }));
  } catch {
    $('account').textContent = 'Waymark could not start. Please reopen this window.';
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

void load();
