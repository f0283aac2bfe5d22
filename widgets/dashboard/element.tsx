/** <wm-dashboard>: its documented class is at the end of this file. */
import * as Assessments from '@shared/contract/assessments';
import { retakeNotice, retakeOpensAtOf } from '@shared/rules/retakes';
import type { DashboardCard } from '@shared/schemas/activity';
import { messageOf } from '@widgets/core/useCall';
import { LoadFailed } from '@widgets/ui/LoadFailed';
import { useEffect, useRef, useState } from 'react';
import { widgetElement } from '../embed/define-element';
import { failure } from '../embed/failure';
import { Slot, useWidgetHost } from '../embed/host';
import { Loader } from '../ui/Loader';
import css from './dashboard.css?inline';
import elementCss from './element.css?inline';
import { DashboardProps } from './props';
import {
  type GivenSession,
  givenSession,
  givenSessionClient,
  hasStoredSession,
  sessionClient,
} from './session-client';

/** What a session given by the page that ended says (wm-error), before the card offers Waymark's dashboard. */
export const SESSION_ENDED = 'Your session has ended. Please sign in again.';
/** What the element shows (and wm-error says) when the dashboard's second file could not be loaded. */
const LOAD_FAILED = 'Something Went Wrong';

function DashboardElement(props: DashboardProps & { session?: unknown }) {
  const host = useWidgetHost();
  const base = host.siteBase || window.location.origin;
  const given = givenSession(props.session);
  // the session given, once it has ended (refused on refresh), shows the card until another is given
  const [ended, setEnded] = useState<GivenSession | null>(null);
  if (given && !(ended && ended.refreshToken === given.refreshToken)) {
    return (
      <SignedInDashboard
        key={given.refreshToken}
        range={props.range}
        base={base}
        session={given}
        onEnded={() => setEnded(given)}
      />
    );
  }
  if (given || base !== window.location.origin || !hasStoredSession()) {
    return <DashboardLink base={base} />;
  }
  return <SignedInDashboard range={props.range} base={base} />;
}

/** The card that links to Waymark's dashboard, where this page cannot show it. */
function DashboardLink({ base }: { base: string }) {
  const host = useWidgetHost();
  // biome-ignore lint/correctness/useExhaustiveDependencies: drawn once
  useEffect(() => {
    host.emit('wm-ready', { signedIn: false });
  }, []);
  return (
    <div className="card center" part="dashboard">
      <h2>
        <Slot name="heading">Dashboard</Slot>
      </h2>
      <p>Your learning time is on Waymark.</p>
      <a className="btn" href={`${base}/dashboard`} target="_blank" rel="noopener noreferrer">
        Open your Waymark dashboard<span className="visually-hidden"> (opens in a new tab)</span>
      </a>
    </div>
  );
}

type DashboardModule = typeof import('./Dashboard');

/**
 * The learner's dashboard: on the Waymark origin with the portal's stored session, elsewhere with the
 * session the page gave (`session`). Its code is fetched when first shown.
 */
function SignedInDashboard({
  range,
  base,
  session,
  onEnded,
}: {
  range: DashboardProps['range'];
  base: string;
  session?: GivenSession;
  onEnded?: () => void;
}) {
  const host = useWidgetHost();
  const endedOnce = useRef(false);
  const [loaded, setLoaded] = useState<DashboardModule | null>(null);
  const [failed, setFailed] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: loaded once; the host is the element's own
  useEffect(() => {
    let live = true;
    import('./Dashboard').then(
      (mod) => live && setLoaded(mod),
      (err: unknown) => {
        if (!live) return;
        setFailed(true);
        // the second file did not load (the network, or a hash that is not the file's): a failure of its own
        host.emit('wm-error', failure(LOAD_FAILED, err, 'file-load-failed'));
      },
    );
    return () => {
      live = false;
    };
  }, []);
  // one client per session: a new session remounts this component (its key)
  const [client] = useState(() =>
    session
      ? givenSessionClient(base, session, () => {
          // told once, however many calls were refused with it
          if (endedOnce.current) return;
          endedOnce.current = true;
          host.emit('wm-error', { status: 401, code: 'session-ended', message: SESSION_ENDED });
          onEnded?.();
        })
      : sessionClient(base),
  );
  if (failed) {
    return <LoadFailed part="error">{LOAD_FAILED}</LoadFailed>;
  }
  if (!loaded) return <Loader text="Loading your dashboard…" />;
  const start = async (card: DashboardCard) => {
    const tab = window.open('', '_blank');
    try {
      const res = await client.call(Assessments.createTestLink, {
        body: {
          type: 'RESOURCE',
          assignedRoadmapId: card.roadmapId,
          sectionId: card.sectionId,
          resourceId: card.resourceId,
        },
      });
      const linkId = res.data.testLinkId;
      const href = `${base}/test/${encodeURIComponent(linkId)}`;
      if (host.emit('wm-assessment', { roadmapId: card.roadmapId, linkId, href }) && tab) {
        tab.opener = null;
        tab.location.href = href;
      } else tab?.close();
      return linkId;
    } catch (err) {
      tab?.close();
      const opensAt = retakeOpensAtOf(err);
      if (opensAt) {
        // the card says when the retake opens; the host hears it too
        host.emit('wm-error', failure(retakeNotice(opensAt), err));
        throw err;
      }
      host.emit('wm-error', failure('Something went wrong', err));
      return undefined;
    }
  };
  const { Dashboard } = loaded;
  // on another origin the extension cannot be asked (its content script runs on Waymark's pages only): the
  // partner's visitor is not told to install what they may have; the assessment opens on Waymark anyway
  return (
    <Dashboard
      range={range}
      client={client}
      portalUrl={base}
      onAssessmentStart={start}
      extensionPresent={base !== window.location.origin ? true : undefined}
      onSettled={(err) => {
        // a refused session is told once, as the session's end (above)
        if (endedOnce.current) return;
        if (err) host.emit('wm-error', failure(messageOf(err), err));
        else host.emit('wm-ready', { signedIn: true });
      }}
    />
  );
}

/**
 * The signed-in learner's own dashboard — date range, current resources with their Assessment action (or
 * the extension's Install prompt), average learning time, the daily chart and the Resource-wise Report.
 * It is shown on pages of the Waymark origin, where the learner's Waymark session is, and on any page that
 * gives the element the learner's session (its `session` property). Otherwise it shows a card with an
 * 'Open your Waymark dashboard' link. The dashboard itself (with its chart library) is a second file,
 * loaded only where it can be shown: a page without a session downloads the small element file alone.
 *
 * @tagname wm-dashboard
 * @summary The learner's dashboard on Waymark's origin or with the session a page gives it; elsewhere a link to it.
 *
 * @attr {'Yesterday' | 'Past 7 days' | 'Last 28 Days'} range - The date range shown first (default `Past 7 days`).
 * @attr {string} api-base - The Waymark server's URL, e.g. `https://waymark.example.com` (default: where `dashboard.js` came from).
 * @attr {'light' | 'dark' | 'auto'} theme - The colour theme: `light`, `dark`, or `auto` (the visitor's setting, `prefers-color-scheme`); without it the page's `color-scheme` decides (light unless the page says dark).
 * @prop {{ token: string; refreshToken: string } | undefined} session - The signed-in learner's Waymark session, for a page of another origin: the `data` of `POST /api/login/sign-in-with-firebase` (device `WEB_APP`). Set from script only (no attribute); the element keeps it in memory and refreshes it itself, so the page should not use its refresh token again. Set before the element is defined, it is applied when it is.
 *
 * @fires {CustomEvent<{ roadmapId: string; linkId: string; href: string }>} wm-assessment - A resource's test link was created after the learner confirmed. **Cancelable**: the default opens the test on Waymark in a new tab.
 * @fires {CustomEvent<{ signedIn: boolean }>} wm-ready - Drawn: the card that links to Waymark (`signedIn` false), or the signed-in dashboard once its resources and daily figures are shown.
 * @fires {CustomEvent<{ status: number; code: ErrorCode; message: string }>} wm-error - The signed-in dashboard's second file did not load (`code` `file-load-failed`: the network, or a file that is not the release's), its figures could not be loaded, starting an assessment failed (message 'Something went wrong'), or the session given was refused (`code` `session-ended`, `status` 401, message 'Your session has ended. Please sign in again.': the card shows again). `status` is the HTTP status (0 when no answer was involved); `code` says what failed (docs/embed.md, "Failures").
 *
 * @csspart dashboard - The whole dashboard (or the card that links to it).
 * @csspart card - One current resource card.
 * @csspart chart - The daily chart with its title.
 * @csspart empty - The current resources' empty state.
 * @csspart error - The message shown when the dashboard could not be loaded.
 *
 * @slot heading - The heading's text instead of 'Dashboard' (the signed-in dashboard and the card).
 * @slot empty - What shows when the learner has no current resource, instead of 'No resources yet…'.
 *
 * @cssprop {<color>} [--wm-primary=#3730a3] - Buttons and links.
 * @cssprop {<color>} [--wm-accent=#0f766e] - The average learning time figure.
 * @cssprop {<color>} [--wm-text=#1f2937] - Text colour.
 * @cssprop {<color>} [--wm-muted=#4b5563] - Secondary text colour.
 * @cssprop {<color>} [--wm-surface=#ffffff] - Card background.
 * @cssprop {<family-name>} [--wm-font=system-ui] - Font family.
 * @cssprop {<length>} [--wm-space=16px] - The spacing unit: paddings and gaps are multiples of it.
 * @cssprop {<shadow>} [--wm-focus=0 0 0 3px rgb(55 48 163 / 45%)] - The focus ring (a box-shadow) of links, buttons and fields.
 * @cssprop {<color>} [--wm-on-primary=#ffffff] - Text on buttons (on `--wm-primary`).
 */
export class WmDashboard extends widgetElement({
  component: DashboardElement,
  props: DashboardProps,
  css: `${css}\n${elementCss}`,
  properties: ['session'],
}) {}

if (!customElements.get('wm-dashboard')) customElements.define('wm-dashboard', WmDashboard);
