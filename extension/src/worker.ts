/// <reference types="chrome" />
/**
 * The background of the extension (a service worker in Chromium, an event page in Firefox), put together
 * from its modules: session.ts (who is signed in), queue.ts and sender.ts (the offline queue and sending
 * it), tracker.ts and tracking.ts (what to record), messaging.ts (the portal's page protocol and the
 * popup). It may be stopped at any moment, so everything that matters is in extension storage, and every
 * event is registered at the top level of the first run, so a stopped background wakes for it.
 */
import { IDLE_SECONDS, PULSE_SECONDS } from '@shared/rules/heartbeats';
import type { Device } from '@shared/schemas/common';
import { z } from 'zod';
import { ext, isFirefox } from './browser';
import { listen, within } from './messaging';
import { HeartbeatQueue } from './queue';
import { Sender } from './sender';
import { authFrom, Session } from './session';
import { local, session as sessionStorage } from './storage';
import type { IdleState, TabInfo } from './tracker';
import { type BrowserState, Tracking } from './tracking';

// Manifest V3 forbids eval: keep zod from trying it
z.config({ jitless: true });

export interface BackgroundOptions {
  /** The time heartbeats carry (unix ms). */
  now?: () => number;
  /** Whether the person is active (idle.queryState). */
  idleState?: (seconds: number) => Promise<IdleState>;
}

export interface Background {
  readonly ready: Promise<void>;
  readonly session: Session;
  readonly queue: HeartbeatQueue;
  readonly sender: Sender;
  readonly tracking: Tracking;
  readonly productionOrigin: string;
  paused(): boolean;
  setPaused(paused: boolean): Promise<void>;
  portalUrl(): string;
  refreshTracked(): Promise<void>;
  /** A SIGN-IN from a portal page of `origin`: false when its payload is refused. */
  signIn(payload: unknown, origin: string): Promise<boolean>;
  /** SIGN-OUT from the portal: the last heartbeats sent, the tokens forgotten and revoked on the server. */
  signOut(): Promise<void>;
}

/** Where the browser sends someone who removes the extension: the portal's feedback form. */
function setUninstallPage(portalUrl: string) {
  void ext.runtime.setUninstallURL(`${portalUrl}/sorry-to-see-you-go`).catch(() => undefined);
}

const defaultDevice = (): Device => (isFirefox() ? 'FIREFOX_EXTENSION' : 'CHROME_EXTENSION');

async function readBrowser(idleState: (seconds: number) => Promise<IdleState>): Promise<BrowserState> {
  const [tabs, focused, idle] = await Promise.all([
    ext.tabs.query({}),
    ext.windows.getLastFocused().catch(() => null),
    idleState(IDLE_SECONDS),
  ]);
  return {
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
    idle,
  };
}

function assemble(options: BackgroundOptions): Background {
  const settings = { paused: false };
  const queue = new HeartbeatQueue(local);
  /** The server no longer accepts the tokens: the stretches end, the tokens are forgotten. */
  const endSession = async () => {
    if (!session.auth) return;
    await tracking.stop();
    await session.forget();
  };
  const session = new Session(local, { onRevoked: () => void endSession() });
  const ready = (async () => {
    await session.load();
    settings.paused = (await local.get<{ paused: boolean }>('settings'))?.paused ?? false;
  })();
  const sender = new Sender({
    store: local,
    queue,
    session,
    ready,
    retryAt: async (when) => {
      await ext.alarms.create('flush', { when });
    },
    onRefused: endSession,
  });
  const idleState = options.idleState ?? ((s: number) => ext.idle.queryState(s) as Promise<IdleState>);
  const tracking = new Tracking({
    read: () => readBrowser(idleState),
    engaged: sessionStorage,
    queue,
    session,
    ready,
    paused: () => settings.paused,
    now: options.now ?? Date.now,
    onQueued: () => void sender.whenDue(),
  });
  const portalUrl = () => session.auth?.portalOrigin ?? __WAYMARK_PORTAL_URL__;

  const refreshTracked = async () => {
    if ((await session.refreshTracked()) === 'refused') await endSession();
    tracking.schedule();
  };
  return {
    ready,
    session,
    queue,
    sender,
    tracking,
    productionOrigin: __WAYMARK_PRODUCTION_ORIGIN__,
    paused: () => settings.paused,
    async setPaused(next) {
      await ready;
      settings.paused = next;
      await local.set('settings', { paused: next });
      await tracking.tickNow();
    },
    portalUrl,
    refreshTracked,
    async signIn(payload, origin) {
      const next = authFrom(payload, origin, defaultDevice());
      if (!next) return false;
      if (session.auth && session.auth.uuid !== next.uuid) await endSession();
      await session.save(next);
      await queue.keepOnly(next.uuid);
      await sender.reset();
      setUninstallPage(portalUrl());
      await within(2500, refreshTracked());
      void sender.flush();
      return true;
    },
    async signOut() {
      const auth = session.auth;
      if (!auth) return;
      await tracking.stop();
      await within(1200, sender.flush());
      await session.forget();
      // the answer does not wait for the server
      void session.revoke(auth).catch(() => undefined);
    },
  };
}

/** Starts the background: call once, at the top level of the background script. */
export function startBackground(options: BackgroundOptions = {}): Background {
  const bg = assemble(options);
  listen(bg);
  const setup = () => {
    void ext.alarms.create('pulse', { periodInMinutes: PULSE_SECONDS / 60 });
    void ext.alarms.create('sync', { periodInMinutes: 5 });
    ext.idle.setDetectionInterval(IDLE_SECONDS);
    void bg.ready.then(() => {
      setUninstallPage(bg.portalUrl());
      void bg.refreshTracked();
      void bg.sender.flush();
    });
  };
  ext.runtime.onInstalled.addListener(setup);
  ext.runtime.onStartup.addListener(setup);
  ext.alarms.onAlarm.addListener((alarm) => {
    if (alarm.name === 'pulse') void bg.tracking.tickNow().then(() => bg.sender.whenDue());
    else if (alarm.name === 'sync')
      void bg.ready.then(() => Promise.all([bg.refreshTracked(), bg.sender.flush()]));
    else if (alarm.name === 'flush') void bg.sender.flush();
  });
  const schedule = () => bg.tracking.schedule();
  ext.tabs.onActivated.addListener(schedule);
  ext.tabs.onUpdated.addListener((_id, change) => {
    if (change.url !== undefined || change.audible !== undefined || change.status === 'complete') schedule();
  });
  ext.tabs.onRemoved.addListener(schedule);
  ext.windows.onFocusChanged.addListener(schedule);
  ext.idle.onStateChanged.addListener(schedule);
  self.addEventListener('online', () => void bg.sender.flush());
  return bg;
}
