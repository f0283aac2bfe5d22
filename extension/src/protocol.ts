/**
 * Messages inside the extension. The page protocol itself (page ⇄ content script) is the portal's:
 * widgets/core/extension.ts — actions CHECK, IS-LOGGED-IN, SIGN-IN, SIGN-OUT; answers Present, LOGGED-IN,
 * NOT-LOGGED-IN, LOGIN-SUCCESS, LOGOUT-SUCCESS.
 */
export const PAGE_SOURCE = 'waymark-page';
export const EXTENSION_SOURCE = 'waymark-extension';
export const PAGE_ACTIONS = ['CHECK', 'IS-LOGGED-IN', 'SIGN-IN', 'SIGN-OUT'] as const;
export type PageAction = (typeof PAGE_ACTIONS)[number];
export type PageAnswer = 'Present' | 'LOGGED-IN' | 'NOT-LOGGED-IN' | 'LOGIN-SUCCESS' | 'LOGOUT-SUCCESS';

/** Content script → background: an action the portal page sent. */
export interface PageRequest {
  kind: 'page';
  action: PageAction;
  payload?: unknown;
}

/** Popup → background. */
export type PopupRequest =
  | { kind: 'popup'; op: 'status'; dayStart: number }
  | { kind: 'popup'; op: 'set-paused'; paused: boolean };

export interface PopupStatus {
  signedIn: boolean;
  user: { name: string | null; email: string } | null;
  paused: boolean;
  portalUrl: string;
  /** Heartbeats waiting to be sent (offline, or the server unreachable). */
  queued: number;
  /** Resources this extension tracks (of the learner's assigned roadmaps). */
  trackedCount: number;
  /** Exactly the addresses it tracks (their fragment, trailing slash and tracking parameters aside). */
  tracked: { title: string; url: string }[];
  /** The active tab, if it is a tracked resource. */
  currentTab: { title: string; engaged: boolean } | null;
  /** Today from the server; null when it could not be reached. */
  today: { totalSeconds: number; resources: { title: string; seconds: number }[] } | null;
  error: string | null;
  /**
   * Whether the browser lets the extension read the portal's pages and call its API (its host
   * permissions): Firefox lets a person withhold them, Chromium lets them limit an extension to a click.
   */
  access: { granted: boolean; origins: string[] };
}
