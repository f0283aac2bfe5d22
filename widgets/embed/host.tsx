/**
 * What a widget needs from the page that shows it: the API client, where Waymark's own pages and images
 * live, how to tell the host what happened (events), and how to follow a link by default. The portal
 * provides one host for all its widgets; the custom-element wrapper provides one per element.
 */
import type { Client } from '@shared/client/client';
import { createContext, type ReactNode, useContext } from 'react';
import type { ErrorDetail } from './failure';

/** The events a widget fires, with their details. All bubble and cross the shadow boundary. */
export interface WidgetEventMap {
  /** The widget's data arrived (the number of roadmaps, the roadmap shown, or the award shown). */
  'wm-load': {
    count?: number;
    roadmapId?: string;
    name?: string;
    /** <wm-award>: the award's link id, its kind, the learner and the stored image (null until generated). */
    linkId?: string;
    kind?: 'feather' | 'badge' | 'certificate';
    learner?: string;
    imageUrl?: string | null;
  };
  /**
   * The element has drawn what it loaded, once per load (each element documents its detail): the
   * catalogue's count, the course's roadmap, the award's link, the test's first screen, the dashboard.
   */
  'wm-ready': { count?: number; roadmapId?: string; linkId?: string; state?: string; signedIn?: boolean };
  /** Loading or an action failed: `{ status, code, message }` (widgets/embed/failure.ts). */
  'wm-error': ErrorDetail;
  /** A roadmap's image was activated. Cancelable: the default opens Waymark's course page. */
  'wm-open-course': { roadmapId: string; href: string };
  /** Select was pressed. Cancelable: the default opens the selection dialog. */
  'wm-select': { roadmapId: string; roadmapName: string };
  /** The prerequisite assessment is ready. Cancelable: the default opens it on Waymark. */
  'wm-assessment': { roadmapId: string; linkId: string; href: string };
  /** The roadmap was assigned. Cancelable: the default opens its preview (or the learner's copy) on Waymark. */
  'wm-assigned': { roadmapId: string; assignedRoadmapId: string; href: string };
  // ---- the test taker
  /** The test page changed screen (loading, ready, starting, started, evaluating, score, expired, completed, not-yet-started, error). */
  'wm-state': { linkId: string; state: string };
  /** The learner started the test (or came back to a started one); the deadline is the server's. */
  'wm-start': { linkId: string; deadlineAt: string | null; questionCount: number; resumed: boolean };
  /** The test was evaluated on the server. */
  'wm-evaluated': {
    linkId: string;
    testType: string;
    score: number;
    percentage: number;
    questionCount: number;
    status: string;
    certificateEligible: boolean;
    /** The award page earned, on Waymark; null when none. */
    awardHref: string | null;
  };
  /** A link to an award page was activated. Cancelable: the default opens it on Waymark. */
  'wm-open-award': { linkId: string; award: string; href: string };
  /** A Home button or a 'generate a new link' link was activated. Cancelable: the default opens that page on Waymark. */
  'wm-home': { href: string };
}
export type WidgetEventName = keyof WidgetEventMap;

/** Events the host may veto with preventDefault(). */
export const CANCELABLE_EVENTS: readonly WidgetEventName[] = [
  'wm-open-course',
  'wm-select',
  'wm-assessment',
  'wm-assigned',
  'wm-open-award',
  'wm-home',
];

export type SignedInRole = 'USER' | 'TENANT' | null;

export interface WidgetHost {
  client: Client;
  /** Prefix of Waymark's own pages: '' in the portal, the server's origin on a partner page. */
  siteBase: string;
  /** Tells the host what happened. Returns false when the host cancelled the default action. */
  emit<E extends WidgetEventName>(type: E, detail: WidgetEventMap[E]): boolean;
  /** The default action of links and finished flows: open one of Waymark's pages (a path such as /course-detail/1). */
  navigate(path: string): void;
  /** Who is signed in to Waymark on this page: the portal knows; a partner page never does. */
  role(): SignedInRole;
  /** The widget is a custom element's: its named slots take the page's content (`Slot`). */
  slots?: boolean;
}

const HostContext = createContext<WidgetHost | null>(null);

export function WidgetHostProvider({ host, children }: { host: WidgetHost; children: ReactNode }) {
  return <HostContext.Provider value={host}>{children}</HostContext.Provider>;
}

export function useWidgetHost(): WidgetHost {
  const host = useContext(HostContext);
  if (!host) throw new Error('A Waymark widget needs a WidgetHostProvider around it');
  return host;
}

/**
 * A named slot of the element: what the page puts in it (`<p slot="empty">…</p>`) replaces the default,
 * the children. Outside an element (the portal) the default alone.
 */
export function Slot({ name, children }: { name: string; children?: ReactNode }) {
  const host = useContext(HostContext);
  return host?.slots ? <slot name={name}>{children}</slot> : children;
}

/** An image path from the API: absolute URLs as they are, site paths resolved against the Waymark server. */
export function assetUrl(host: Pick<WidgetHost, 'siteBase'>, path: string | null | undefined): string | null {
  if (!path) return null;
  if (/^(https?:|data:|blob:)/i.test(path)) return path;
  return `${host.siteBase}${path.startsWith('/') ? '' : '/'}${path}`;
}

/** Follows a widget link the way a browser would, unless a modifier key asks for a new tab or window. */
export function isPlainClick(e: {
  button: number;
  metaKey: boolean;
  ctrlKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}) {
  return e.button === 0 && !e.metaKey && !e.ctrlKey && !e.shiftKey && !e.altKey;
}
