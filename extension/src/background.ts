/// <reference types="chrome" />
/**
 * The background of the extension (a service worker in Chromium, an event page in Firefox). It may be
 * stopped at any moment, so everything that matters is in extension storage: the session, the pause
 * switch, the tracked resources and the offline queue (storage.local), the engaged tabs (storage.session).
 *
 * - Sign-in: the portal hands over extension tokens (GET /login/socket-token) through the content script;
 *   they are refreshed with POST /login/refresh for this device, like any client's.
 * - Tracking: only tabs showing a resource of the learner's assigned roadmaps, never private windows, never
 *   while paused. A heartbeat every 30 s while such a tab is in front and the person active (idle after
 *   60 s without input), or while it plays sound, and on every change (tabs, windows, idle).
 * - Sending: heartbeats join the offline queue and go to POST /activity/heartbeats in batches of ≤ 100,
 *   retried with backoff.
 */
import { ApiError, type Client, createClient, NetworkError, type StoredTokens } from '@shared/client/client';
import { sendHeartbeats, todaySummary, trackedResources } from '@shared/contract/activity';
import { IDLE_SECONDS, PULSE_SECONDS, trackingKey } from '@shared/rules/heartbeats';
import type { Device } from '@shared/schemas/common';
import { z } from 'zod';
import { ext, isFirefox } from './browser';
import type { PageAnswer, PageRequest, PopupRequest, PopupStatus } from './protocol';
import { backoffMs, flushQueue, HeartbeatQueue, type KeyValueStore } from './queue';
import { decide, type EngagedMap, type IdleState, resourceOf, type TabInfo } from './tracker';

// Manifest V3 forbids eval: keep zod from trying it
z.config({ jitless: true });

interface Auth {
  token: string;
  refreshToken: string;
  /** The learner's id. */
  uuid: string;
  /** e.g. http://127.0.0.1:8080/api */
  apiBase: string;
  portalOrigin: string;
  device: Device;
  user: { name: string | null; email: string } | null;
}
interface Tracked {
  resources: { resourceId: string; url: string; title: string }[];
  fetchedAt: number;
}
interface FlushState {
  failures: number;
  nextAttemptAt: number;
  /** When the queue was last emptied, unix ms. */
  lastSentAt?: number;
}

/**
 * Heartbeats are made every 30 s but sent every 2 minutes (or once 20 wait), a few per request: the
 * server's cost is per request, and nothing reads today's time sooner except the popup, which sends first.
 */
const SEND_EVERY_MS = 120_000;
const SEND_WHEN_QUEUED = 20;

// ---- storage
const local: KeyValueStore & { remove(key: string): Promise<void> } = {
  async get<T>(key: string) {
    return (await ext.storage.local.get(key))[key] as T | undefined;
  },
  async set(key, value) {
    await ext.storage.local.set({ [key]: value });
  },
  async remove(key) {
    await ext.storage.local.remove(key);
  },
};
/** Cleared when the browser closes (tab ids do not survive it). */
const session: KeyValueStore = ext.storage.session
  ? {
      async get<T>(key: string) {
        return (await ext.storage.session.get(key))[key] as T | undefined;
      },
      async set(key, value) {
        await ext.storage.session.set({ [key]: value });
      },
    }
  : local;

const queue = new HeartbeatQueue(local);

// ---- state, loaded on every start of the worker
let auth: Auth | null = null;
let paused = false;
let tracked = new Map<string, string>();
let titles = new Map<string, string>();
/** The addresses tracked, as the server listed them (the popup shows them). */
let addresses: { title: string; url: string }[] = [];
let trackedAt = 0;
/** Test hooks only: moves this extension's clock, to stand for time passing. */
let clockOffset = 0;
let idleOverride: IdleState | null = null;
let stopping = false;

const now = () => Date.now() + clockOffset;

function setTracked(t: Tracked | undefined) {
  tracked = new Map();
  titles = new Map();
  addresses = (t?.resources ?? [])
    .map((r) => ({ title: r.title, url: r.url }))
    .sort((a, b) => a.title.localeCompare(b.title));
  for (const r of t?.resources ?? []) {
    const key = trackingKey(r.url);
    if (key) tracked.set(key, r.resourceId);
    titles.set(r.resourceId, r.title);
  }
  trackedAt = t?.fetchedAt ?? 0;
}

const ready: Promise<void> = (async () => {
  auth = (await local.get<Auth>('auth')) ?? null;
  paused = (await local.get<{ paused: boolean }>('settings'))?.paused ?? false;
  setTracked(await local.get<Tracked>('tracked'));
})();

function defaultDevice(): Device {
  return isFirefox() ? 'FIREFOX_EXTENSION' : 'CHROME_EXTENSION';
}

/** The device the tokens were issued for (the access token says; refresh must name the same). */
function deviceOf(token: string): Device {
  try {
    const part = token.split('.')[1] ?? '';
    const json = JSON.parse(atob(part.replace(/-/g, '+').replace(/_/g, '/'))) as { dev?: string };
    if (json.dev === 'CHROME_EXTENSION' || json.dev === 'FIREFOX_EXTENSION') return json.dev;
  } catch {
    // not a JWT we can read
  }
  return defaultDevice();
}

async function saveAuth(next: Auth | null) {
  auth = next;
  if (next) await local.set('auth', next);
  else await local.remove('auth');
}

// ---- the API client, with this device's tokens
let client: Client | null = null;
let clientFor: string | null = null;
function api(): Client | null {
  if (!auth) return null;
  const key = `${auth.apiBase}|${auth.device}|${auth.uuid}`;
  if (client && clientFor === key) return client;
  const tokens = {
    get: (): StoredTokens | null => (auth ? { token: auth.token, refreshToken: auth.refreshToken } : null),
    update: (t: StoredTokens) => {
      if (auth) void saveAuth({ ...auth, ...t });
    },
    clear: () => {
      void signedOut();
    },
  };
  client = createClient({ baseUrl: auth.apiBase, device: auth.device, tokens });
  clientFor = key;
  return client;
}

/** The server no longer accepts our tokens: stop tracking, forget them. */
async function signedOut() {
  if (!auth) return;
  stopping = true;
  try {
    await tickNow();
  } finally {
    stopping = false;
  }
  await saveAuth(null);
  await local.remove('tracked');
  setTracked(undefined);
}

// ---- portal origins
const LOOPBACK = /^http:\/\/(127\.0\.0\.1|localhost)(:\d{1,5})?$/;
function isPortalOrigin(origin: string): boolean {
  return (
    LOOPBACK.test(origin) || (!!__WAYMARK_PRODUCTION_ORIGIN__ && origin === __WAYMARK_PRODUCTION_ORIGIN__)
  );
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
const portalUrl = () => auth?.portalOrigin ?? __WAYMARK_PORTAL_URL__;

function setUninstallPage() {
  ext.runtime.setUninstallURL(`${portalUrl()}/sorry-to-see-you-go`).catch(() => undefined);
}

// ---- tracked resources
async function refreshTracked(): Promise<void> {
  const c = api();
  if (!c) return;
  try {
    const res = await c.call(trackedResources);
    const t: Tracked = { resources: res.data.resources, fetchedAt: Date.now() };
    setTracked(t);
    await local.set('tracked', t);
    if (auth) await saveAuth({ ...auth, user: { name: res.data.user.name, email: res.data.user.email } });
  } catch (err) {
    if (err instanceof ApiError && err.status === 403) await signedOut();
    // offline: keep the list we have
  }
  scheduleTick();
}

// ---- tracking
let ticking: Promise<void> = Promise.resolve();
function tickNow(): Promise<void> {
  ticking = ticking.then(tick, tick);
  return ticking;
}
let tickTimer: ReturnType<typeof setTimeout> | undefined;
function scheduleTick() {
  if (tickTimer) clearTimeout(tickTimer);
  tickTimer = setTimeout(() => void tickNow(), 250);
}

async function tick() {
  await ready;
  const [tabs, focused, idle] = await Promise.all([
    ext.tabs.query({}),
    ext.windows.getLastFocused().catch(() => null),
    idleOverride ? Promise.resolve(idleOverride) : ext.idle.queryState(IDLE_SECONDS),
  ]);
  const previous = (await session.get<EngagedMap>('engaged')) ?? {};
  const { beats, next } = decide({
    now: now(),
    tabs: tabs.map(
      (t): TabInfo => ({
        id: t.id ?? -1,
        windowId: t.windowId,
        url: t.url,
        title: t.title,
        active: t.active,
        audible: t.audible,
        incognito: t.incognito,
      }),
    ),
    focusedWindowId: focused?.focused && focused.id !== undefined ? focused.id : null,
    idle: idle as IdleState,
    tracking: !!auth && !paused && !stopping,
    tracked,
    previous,
  });
  await session.set('engaged', next);
  if (beats.length && auth) {
    const user = auth.uuid;
    await queue.add(beats.map((b) => ({ ...b, id: crypto.randomUUID(), user })));
    void flushWhenDue();
  }
}

// ---- sending
async function flushWhenDue() {
  await ready;
  if (!auth) return;
  const state = (await local.get<FlushState>('flushState')) ?? { failures: 0, nextAttemptAt: 0 };
  if (
    Date.now() - (state.lastSentAt ?? 0) >= SEND_EVERY_MS ||
    (await queue.size(auth.uuid)) >= SEND_WHEN_QUEUED
  ) {
    await flush();
  }
}

let flushing: Promise<void> | null = null;
function flush(): Promise<void> {
  flushing ??= doFlush().finally(() => {
    flushing = null;
  });
  return flushing;
}

async function doFlush() {
  await ready;
  const c = api();
  if (!auth || !c) return;
  const state = (await local.get<FlushState>('flushState')) ?? { failures: 0, nextAttemptAt: 0 };
  if (Date.now() < state.nextAttemptAt) {
    await ext.alarms.create('flush', { when: state.nextAttemptAt });
    return;
  }
  const result = await flushQueue(queue, auth.uuid, async (batch) => {
    try {
      await c.call(sendHeartbeats, { body: { heartbeats: batch } });
      return { kind: 'ok' };
    } catch (err) {
      if (err instanceof NetworkError) return { kind: 'retry' };
      if (err instanceof ApiError) {
        if (err.status === 400) return { kind: 'invalid' };
        if (err.status === 401 || err.status === 403) return { kind: 'signed-out' };
      }
      return { kind: 'retry' };
    }
  });
  if (result.kind === 'retry') {
    const failures = state.failures + 1;
    const nextAttemptAt = Date.now() + backoffMs(failures);
    await local.set('flushState', { failures, nextAttemptAt });
    await ext.alarms.create('flush', { when: nextAttemptAt });
  } else if (result.kind === 'signed-out') {
    await signedOut();
  } else {
    await local.set('flushState', { failures: 0, nextAttemptAt: 0, lastSentAt: Date.now() });
  }
}

// ---- the page protocol
interface SignInPayload {
  extensionAccessToken: string;
  extensionRefreshToken: string;
  uuid: string;
  apiBase: string;
}
function isSignIn(p: unknown): p is SignInPayload {
  const o = p as Partial<SignInPayload> | null;
  return (
    !!o &&
    typeof o.extensionAccessToken === 'string' &&
    typeof o.extensionRefreshToken === 'string' &&
    typeof o.uuid === 'string' &&
    typeof o.apiBase === 'string'
  );
}

const within = <T>(ms: number, p: Promise<T>) =>
  Promise.race([p, new Promise<'late'>((r) => setTimeout(() => r('late'), ms))]);

async function onPage(req: PageRequest, origin: string): Promise<PageAnswer> {
  await ready;
  switch (req.action) {
    case 'CHECK':
      // the learner is on the portal: pick up roadmaps assigned since
      if (auth && Date.now() - trackedAt > 30_000) void refreshTracked();
      return 'Present';
    case 'IS-LOGGED-IN':
      if (auth && Date.now() - trackedAt > 30_000) await within(900, refreshTracked());
      return auth ? 'LOGGED-IN' : 'NOT-LOGGED-IN';
    case 'SIGN-IN': {
      const p = req.payload;
      if (!isSignIn(p)) return 'NOT-LOGGED-IN';
      let apiBase: URL;
      try {
        apiBase = new URL(p.apiBase);
      } catch {
        return 'NOT-LOGGED-IN';
      }
      // tokens go only to the server of the page that handed them over
      if (apiBase.origin !== origin) return 'NOT-LOGGED-IN';
      if (auth && auth.uuid !== p.uuid) await signedOut();
      await saveAuth({
        token: p.extensionAccessToken,
        refreshToken: p.extensionRefreshToken,
        uuid: p.uuid,
        apiBase: apiBase.toString().replace(/\/$/, ''),
        portalOrigin: origin,
        device: deviceOf(p.extensionAccessToken),
        user: null,
      });
      await queue.keepOnly(p.uuid);
      await local.set('flushState', { failures: 0, nextAttemptAt: 0 });
      setUninstallPage();
      await within(2500, refreshTracked());
      void flush();
      return 'LOGIN-SUCCESS';
    }
    case 'SIGN-OUT': {
      if (!auth) return 'LOGOUT-SUCCESS';
      stopping = true;
      try {
        await tickNow();
        await within(1200, flush());
      } finally {
        stopping = false;
      }
      const { apiBase, refreshToken, device } = auth;
      await saveAuth(null);
      await local.remove('tracked');
      setTracked(undefined);
      // end this device's session on the server too (POST /login/logout); the answer does not wait for it
      void fetch(`${apiBase}/login/logout`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ refreshToken, device }),
      }).catch(() => undefined);
      return 'LOGOUT-SUCCESS';
    }
  }
}

// ---- the popup
async function popupStatus(dayStart: number): Promise<PopupStatus> {
  await ready;
  const [active] = await ext.tabs.query({ active: true, lastFocusedWindow: true });
  const engaged = (await session.get<EngagedMap>('engaged')) ?? {};
  let currentTab: PopupStatus['currentTab'] = null;
  if (active) {
    const resourceId = resourceOf(
      {
        id: active.id ?? -1,
        windowId: active.windowId,
        url: active.url,
        active: active.active,
        audible: active.audible,
        incognito: active.incognito,
      },
      tracked,
    );
    if (resourceId)
      currentTab = {
        title: titles.get(resourceId) ?? active.title ?? 'Resource',
        engaged: !!engaged[String(active.id)],
      };
  }
  let today: PopupStatus['today'] = null;
  let error: string | null = null;
  const c = api();
  if (c) {
    await within(1500, flush());
    try {
      const res = await c.call(todaySummary, { query: { startTime: dayStart } });
      today = {
        totalSeconds: res.data.totalSeconds,
        resources: res.data.resources.map((r) => ({ title: r.title, seconds: r.seconds })),
      };
    } catch (err) {
      error =
        err instanceof NetworkError
          ? 'Waymark cannot be reached right now; your time is kept and sent later.'
          : err instanceof ApiError
            ? err.message
            : 'Something went wrong';
    }
  }
  return {
    signedIn: !!auth,
    user: auth?.user ?? null,
    paused,
    portalUrl: portalUrl(),
    queued: auth ? await queue.size(auth.uuid) : 0,
    trackedCount: new Set(tracked.values()).size,
    tracked: addresses,
    currentTab,
    today,
    error,
  };
}

async function setPaused(next: boolean) {
  await ready;
  paused = next;
  await local.set('settings', { paused });
  await tickNow();
}

// ---- events (registered at the top level, so a stopped worker wakes for them)
ext.runtime.onMessage.addListener((message: unknown, sender, sendResponse) => {
  const m = message as PageRequest | PopupRequest | null;
  if (!m || typeof m !== 'object') return false;
  if (m.kind === 'page') {
    const origin = senderOrigin(sender);
    if (!origin || !isPortalOrigin(origin) || sender.tab?.incognito) return false;
    onPage(m, origin).then(sendResponse, () => sendResponse(undefined));
    return true;
  }
  if (m.kind === 'popup') {
    // the popup, or the same page opened in a tab: an extension page, never a web page
    if (sender.id !== ext.runtime.id || !sender.url?.startsWith(ext.runtime.getURL(''))) return false;
    const work = m.op === 'status' ? popupStatus(m.dayStart) : setPaused(m.paused).then(() => popupStatus(0));
    work.then(sendResponse, (err: Error) => sendResponse({ error: err.message }));
    return true;
  }
  return false;
});

function setup() {
  void ext.alarms.create('pulse', { periodInMinutes: PULSE_SECONDS / 60 });
  void ext.alarms.create('sync', { periodInMinutes: 5 });
  ext.idle.setDetectionInterval(IDLE_SECONDS);
  void ready.then(() => {
    setUninstallPage();
    void refreshTracked();
    void flush();
  });
}
ext.runtime.onInstalled.addListener(setup);
ext.runtime.onStartup.addListener(setup);

ext.alarms.onAlarm.addListener((alarm) => {
  if (alarm.name === 'pulse') void tickNow().then(() => flushWhenDue());
  else if (alarm.name === 'sync') void ready.then(() => Promise.all([refreshTracked(), flush()]));
  else if (alarm.name === 'flush') void flush();
});
ext.tabs.onActivated.addListener(() => scheduleTick());
ext.tabs.onUpdated.addListener((_id, change) => {
  if (change.url !== undefined || change.audible !== undefined || change.status === 'complete')
    scheduleTick();
});
ext.tabs.onRemoved.addListener(() => scheduleTick());
ext.windows.onFocusChanged.addListener(() => scheduleTick());
ext.idle.onStateChanged.addListener(() => scheduleTick());
self.addEventListener('online', () => {
  void flush();
});

/**
 * For the end-to-end tests, through the DevTools protocol (nothing else can reach a worker's globals):
 * move this extension's clock, pretend the person is active, and run a pulse, a flush or a refresh of the
 * tracked resources at once.
 */
Object.assign(globalThis, {
  __waymarkTest: {
    setClockOffset(ms: number) {
      clockOffset = ms;
    },
    setIdleOverride(state: IdleState | null) {
      idleOverride = state;
    },
    pulse: () => tickNow(),
    flush: () => flush(),
    sync: () => refreshTracked(),
    async state() {
      await ready;
      return {
        signedIn: !!auth,
        paused,
        tracked: [...tracked.entries()],
        queued: await queue.size(),
        engaged: (await session.get<EngagedMap>('engaged')) ?? {},
      };
    },
  },
});
