/** <wm-dashboard>: its documented class is at the end of this file. */
import { ApiError } from '@shared/client/client';
import * as Assessments from '@shared/contract/assessments';
import { retakeNotice, retakeOpensAtOf } from '@shared/rules/retakes';
import type { DashboardCard } from '@shared/schemas/activity';
import { LoadFailed } from '@widgets/ui/LoadFailed';
import { useEffect, useState } from 'react';
import { widgetElement } from '../embed/define-element';
import { useWidgetHost } from '../embed/host';
import { Loader } from '../ui/Loader';
import css from './dashboard.css?inline';
import elementCss from './element.css?inline';
import { DashboardProps } from './props';
import { hasStoredSession, sessionClient } from './session-client';

function DashboardElement(props: DashboardProps) {
  const host = useWidgetHost();
  const base = host.siteBase || window.location.origin;
  if (base !== window.location.origin || !hasStoredSession()) {
    return (
      <div className="card center" part="dashboard">
        <h2>Dashboard</h2>
        <p>Your learning time is on Waymark.</p>
        <a className="btn" href={`${base}/dashboard`} target="_blank" rel="noopener noreferrer">
          Open your Waymark dashboard<span className="visually-hidden"> (opens in a new tab)</span>
        </a>
      </div>
    );
  }
  return <SignedInDashboard range={props.range} base={base} />;
}

type DashboardModule = typeof import('./Dashboard');

/** The learner's dashboard on the Waymark origin: its code is fetched when first shown. */
function SignedInDashboard({ range, base }: { range: DashboardProps['range']; base: string }) {
  const host = useWidgetHost();
  const [loaded, setLoaded] = useState<DashboardModule | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    import('./Dashboard').then(
      (mod) => live && setLoaded(mod),
      (err: unknown) => {
        console.error('Could not load the dashboard', err);
        if (live) setFailed(true);
      },
    );
    return () => {
      live = false;
    };
  }, []);
  const [client] = useState(() => sessionClient(base));
  if (failed) {
    return <LoadFailed part="error">Something Went Wrong</LoadFailed>;
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
        host.emit('wm-error', { message: retakeNotice(opensAt), status: 409 });
        throw err;
      }
      console.error('Something went wrong', err);
      host.emit('wm-error', {
        message: 'Something went wrong',
        status: err instanceof ApiError ? err.status : undefined,
      });
      return undefined;
    }
  };
  const { Dashboard } = loaded;
  return <Dashboard range={range} client={client} portalUrl={base} onAssessmentStart={start} />;
}

/**
 * The signed-in learner's own dashboard — date range, current resources with their Assessment action (or
 * the extension's Install prompt), average learning time, the daily chart and the Resource-wise Report —
 * where the learner's Waymark session is: on pages of the Waymark origin. Anywhere else, or before the
 * learner has signed in, it shows a card with an 'Open your Waymark dashboard' link. The dashboard itself
 * (with its chart library) is a second file, loaded only where it can be shown: a partner page downloads
 * the small element file alone.
 *
 * @tagname wm-dashboard
 * @summary The learner's dashboard on Waymark's origin; elsewhere a link to it.
 *
 * @attr {'Yesterday' | 'Past 7 days' | 'Last 28 Days'} range - The date range shown first (default `Past 7 days`).
 * @attr {string} api-base - The Waymark server's URL, e.g. `https://waymark.example.com` (default: where `dashboard.js` came from).
 *
 * @fires {CustomEvent<{ roadmapId: string; linkId: string; href: string }>} wm-assessment - A resource's test link was created after the learner confirmed. **Cancelable**: the default opens the test on Waymark in a new tab.
 * @fires {CustomEvent<{ message: string; status?: number }>} wm-error - Starting an assessment failed (message 'Something went wrong').
 *
 * @csspart dashboard - The whole dashboard (or the card that links to it).
 * @csspart card - One current resource card.
 * @csspart chart - The daily chart with its title.
 * @csspart error - The message shown when the dashboard could not be loaded.
 *
 * @cssprop {<color>} [--wm-primary=#3730a3] - Buttons and links.
 * @cssprop {<color>} [--wm-accent=#0f766e] - The average learning time figure.
 * @cssprop {<color>} [--wm-text=#1f2937] - Text colour.
 * @cssprop {<color>} [--wm-muted=#4b5563] - Secondary text colour.
 * @cssprop {<color>} [--wm-surface=#ffffff] - Card background.
 * @cssprop {<family-name>} [--wm-font=system-ui] - Font family.
 */
export class WmDashboard extends widgetElement({
  component: DashboardElement,
  props: DashboardProps,
  css: `${css}\n${elementCss}`,
}) {}

if (!customElements.get('wm-dashboard')) customElements.define('wm-dashboard', WmDashboard);
