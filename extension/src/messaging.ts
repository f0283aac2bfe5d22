/// <reference types="chrome" />
/**
 * Messages to the background: the page protocol, relayed by the content script from the portal's pages
 * (CHECK, IS-LOGGED-IN, SIGN-IN, SIGN-OUT), and the popup's questions. Each is answered only from where it
 * may come: page actions from a portal origin's tab (never a private window's), popup questions from this
 * extension's own pages.
 */
import { ApiError, NetworkError } from '@shared/client/client';
import { todaySummary } from '@shared/contract/activity';
import { ext } from './browser';
import type { PageAnswer, PageRequest, PopupRequest, PopupStatus } from './protocol';
import { resourceOf } from './tracker';
import type { Background } from './worker';

/** The tracked resources are asked for again when the learner is on the portal and the list is older. */
const REFRESH_AFTER_MS = 30_000;

const LOOPBACK = /^http:\/\/(127\.0\.0\.1|localhost)(:\d{1,5})?$/;
export function isPortalOrigin(origin: string, production: string): boolean {
  return LOOPBACK.test(origin) || (!!production && origin === production);
}

function senderOrigin(sender: chrome.runtime.MessageSender): string | null {
  if (sender.id !== ext.runtime.id) return null;
  const url = sender.url ?? sender.tab?.url;
  if (!url) return null;
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/** `p`, or 'late' once `ms` have passed (an answer that must not keep the page waiting). */
export const within = <T>(ms: number, p: Promise<T>) =>
  Promise.race([p, new Promise<'late'>((r) => setTimeout(() => r('late'), ms))]);

async function onPage(bg: Background, req: PageRequest, origin: string): Promise<PageAnswer> {
  await bg.ready;
  const { session } = bg;
  const stale = () => !!session.auth && Date.now() - session.tracked.fetchedAt > REFRESH_AFTER_MS;
  switch (req.action) {
    case 'CHECK':
      // the learner is on the portal: pick up roadmaps assigned since
      if (stale()) void bg.refreshTracked();
      return 'Present';
    case 'IS-LOGGED-IN':
      if (stale()) await within(900, bg.refreshTracked());
      return session.auth ? 'LOGGED-IN' : 'NOT-LOGGED-IN';
    case 'SIGN-IN':
      return (await bg.signIn(req.payload, origin)) ? 'LOGIN-SUCCESS' : 'NOT-LOGGED-IN';
    case 'SIGN-OUT':
      await bg.signOut();
      return 'LOGOUT-SUCCESS';
  }
}

/** The portal's origins this extension may read (the manifest's host permissions), and whether it may. */
async function access(): Promise<PopupStatus['access']> {
  const origins = ext.runtime.getManifest().host_permissions ?? [];
  const granted = await ext.permissions.contains({ origins }).catch(() => false);
  return { granted, origins };
}

async function today(bg: Background, dayStart: number) {
  const c = bg.session.api();
  if (!c) return { today: null, error: null };
  await within(1500, bg.sender.flush());
  try {
    const res = await c.call(todaySummary, { query: { startTime: dayStart } });
    const resources = res.data.resources.map((r) => ({ title: r.title, seconds: r.seconds }));
    return { today: { totalSeconds: res.data.totalSeconds, resources }, error: null };
  } catch (err) {
    const error =
      err instanceof NetworkError
        ? 'Waymark cannot be reached right now; your time is kept and sent later.'
        : err instanceof ApiError
          ? err.message
          : 'Something went wrong';
    return { today: null, error };
  }
}

async function popupStatus(bg: Background, dayStart: number): Promise<PopupStatus> {
  await bg.ready;
  const { session } = bg;
  const [active] = await ext.tabs.query({ active: true, lastFocusedWindow: true });
  const engaged = await bg.tracking.engaged();
  let currentTab: PopupStatus['currentTab'] = null;
  const resourceId = active ? resourceOf({ ...active, id: active.id ?? -1 }, session.tracked.byKey) : null;
  if (active && resourceId)
    currentTab = {
      title: session.tracked.title(resourceId) ?? active.title ?? 'Resource',
      engaged: !!engaged[String(active.id)],
    };
  const auth = session.auth;
  return {
    signedIn: !!auth,
    user: auth?.user ?? null,
    paused: bg.paused(),
    portalUrl: bg.portalUrl(),
    queued: auth ? await bg.queue.size(auth.uuid) : 0,
    trackedCount: session.tracked.count,
    tracked: [...session.tracked.addresses],
    currentTab,
    ...(await today(bg, dayStart)),
    access: await access(),
  };
}

/** Answers the page protocol and the popup (registered at the top level, so a stopped background wakes). */
export function listen(bg: Background) {
  ext.runtime.onMessage.addListener((message: unknown, sender, sendResponse) => {
    const m = message as PageRequest | PopupRequest | null;
    if (!m || typeof m !== 'object') return false;
    if (m.kind === 'page') {
      const origin = senderOrigin(sender);
      if (!origin || !isPortalOrigin(origin, bg.productionOrigin) || sender.tab?.incognito) return false;
      onPage(bg, m, origin).then(sendResponse, () => sendResponse(undefined));
      return true;
    }
    if (m.kind === 'popup') {
      // the popup, or the same page opened in a tab: an extension page, never a web page
      if (sender.id !== ext.runtime.id || !sender.url?.startsWith(ext.runtime.getURL(''))) return false;
      const work =
        m.op === 'status'
          ? popupStatus(bg, m.dayStart)
          : bg.setPaused(m.paused).then(() => popupStatus(bg, 0));
      work.then(sendResponse, (err: Error) => sendResponse({ error: err.message }));
      return true;
    }
    return false;
  });
}
