/**
 * What to send now, decided from the browser's state: which tracked tabs are engaged (in front of an active
 * person, or playing sound), which stopped being engaged (one last heartbeat that ends their stretch), and
 * which are due their 30-second pulse. Pure, so it is tested without a browser.
 */
import { PULSE_SECONDS, trackingKey } from '@shared/rules/heartbeats';

export interface TabInfo {
  id: number;
  windowId: number;
  url?: string;
  title?: string;
  active: boolean;
  audible?: boolean;
  incognito: boolean;
}

export interface EngagedTab {
  resourceId: string;
  url: string;
  tabActive: boolean;
  audible: boolean;
  /** When its last heartbeat was made, unix ms. */
  lastBeat: number;
}
/** Engaged tabs by tab id. */
export type EngagedMap = Record<string, EngagedTab>;

export interface BeatDraft {
  resourceId: string;
  url: string;
  time: number;
  tabActive: boolean;
  audible: boolean;
}

export type IdleState = 'active' | 'idle' | 'locked';

export interface TrackerInput {
  now: number;
  tabs: readonly TabInfo[];
  /** The focused browser window, or null when the browser is not in front. */
  focusedWindowId: number | null;
  idle: IdleState;
  /** Signed out or paused: nothing is tracked. */
  tracking: boolean;
  /** Tracked resources by `trackingKey` of their address. */
  tracked: ReadonlyMap<string, string>;
  previous: EngagedMap;
}

const PULSE_MS = PULSE_SECONDS * 1000;
/** An alarm may fire a little early: a pulse is due this long before the full period. */
const EARLY_MS = 2000;

/** The resource a tab shows, if it is tracked (never for a private window). */
export function resourceOf(tab: TabInfo, tracked: ReadonlyMap<string, string>): string | null {
  if (tab.incognito || !tab.url) return null;
  const key = trackingKey(tab.url);
  return key ? (tracked.get(key) ?? null) : null;
}

export function decide(input: TrackerInput): { beats: BeatDraft[]; next: EngagedMap } {
  const { now, previous } = input;
  const current: EngagedMap = {};
  if (input.tracking) {
    for (const tab of input.tabs) {
      const resourceId = resourceOf(tab, input.tracked);
      if (!resourceId || !tab.url) continue;
      const tabActive = tab.active && tab.windowId === input.focusedWindowId && input.idle === 'active';
      const audible = tab.audible === true;
      if (!tabActive && !audible) continue;
      current[String(tab.id)] = { resourceId, url: tab.url, tabActive, audible, lastBeat: 0 };
    }
  }
  const beats: BeatDraft[] = [];
  const next: EngagedMap = {};
  // stretches that stopped: their last heartbeat, neither active nor audible
  for (const [tabId, before] of Object.entries(previous)) {
    const after = current[tabId];
    if (!after || after.resourceId !== before.resourceId) {
      beats.push({
        resourceId: before.resourceId,
        url: before.url,
        time: now,
        tabActive: false,
        audible: false,
      });
    }
  }
  for (const [tabId, after] of Object.entries(current)) {
    const before = previous[tabId];
    const same =
      before &&
      before.resourceId === after.resourceId &&
      before.tabActive === after.tabActive &&
      before.audible === after.audible;
    const due = !same || now - before.lastBeat >= PULSE_MS - EARLY_MS || now < before.lastBeat;
    if (due) {
      beats.push({
        resourceId: after.resourceId,
        url: after.url,
        time: now,
        tabActive: after.tabActive,
        audible: after.audible,
      });
      next[tabId] = { ...after, lastBeat: now };
    } else {
      next[tabId] = { ...after, lastBeat: before.lastBeat };
    }
  }
  return { beats, next };
}
