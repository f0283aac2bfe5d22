/**
 * The current resource cards: roadmap, resource (opened in a new tab, where the extension counts it), time
 * in minutes, and the Assessment action — confirmed first ('Would you like to attempt an {resource}
 * assessment?') — or, while a failed test waits for its retake, when it opens; without the extension, the
 * Install prompt.
 */
import type { Client } from '@shared/client/client';
import { cardMinutes } from '@shared/rules/durations';
import { retakeLabel, retakeNotice, retakeOpensAtOf } from '@shared/rules/retakes';
import type { DashboardCard } from '@shared/schemas/activity';
import { Dialog } from '@widgets/ui/Dialog';
import { Spinner } from '@widgets/ui/Loader';
import { useState } from 'react';
import { InstallExtension, type StoreUrls } from '../activity/ExtensionGate';
import { Slot } from '../embed/host';

export const assessmentQuestion = (resource: string) =>
  `Would you like to attempt an ${resource} assessment?`;

export interface ResourceCardsProps {
  cards: readonly DashboardCard[];
  extensionPresent: boolean;
  /** Starts the card's assessment; a refusal with RETAKE_COOLDOWN (rejected) is told on the card. */
  onStart: (card: DashboardCard) => Promise<unknown> | unknown;
  storeUrls?: StoreUrls;
  client?: Client;
}

export function ResourceCards({ cards, extensionPresent, onStart, storeUrls, client }: ResourceCardsProps) {
  const [asking, setAsking] = useState<DashboardCard | null>(null);
  const [busy, setBusy] = useState(false);
  /** Retakes the server refused since the cards were read: resource id → when it opens. */
  const [refused, setRefused] = useState<Record<string, string>>({});
  const retakeAt = (card: DashboardCard) => {
    const at = refused[card.resourceId] ?? card.retakeAt ?? null;
    return at && Date.parse(at) > Date.now() ? at : null;
  };
  if (cards.length === 0) {
    return (
      <div className="muted" part="empty">
        <Slot name="empty">
          No resources yet. Assign yourself a roadmap and open its resources: the time you spend on them shows
          here.
        </Slot>
      </div>
    );
  }
  const minutes = (s: number) => {
    const m = cardMinutes(s);
    return `${m} ${m === 1 ? 'minute' : 'minutes'}`;
  };
  return (
    <>
      <ul className="wm-cards">
        {cards.map((card) => (
          <li key={`${card.roadmapId}-${card.resourceId}`} className="card wm-card" part="card">
            <p className="muted wm-card-roadmap">{card.roadmapName}</p>
            <h3>
              <a href={card.resourceUrl} target="_blank" rel="noopener noreferrer">
                {card.resourceName}
              </a>
            </h3>
            <p>
              <span className="badge badge-primary">{card.resourceType}</span>{' '}
              <span className="wm-card-time">{minutes(card.totalTimeSpent)}</span>
            </p>
            {extensionPresent && retakeAt(card) ? (
              refused[card.resourceId] ? (
                <p className="wm-card-retake" role="alert">
                  {retakeNotice(retakeAt(card)!)}
                </p>
              ) : (
                <p className="wm-card-retake">
                  {retakeLabel(retakeAt(card)!)}
                  <span className="visually-hidden">: the assessment of {card.resourceName}</span>
                </p>
              )
            ) : extensionPresent ? (
              <button
                type="button"
                className="btn btn-secondary"
                onClick={() => setAsking(card)}
                aria-label={`Assessment of ${card.resourceName}`}
              >
                Assessment
              </button>
            ) : (
              <InstallExtension
                compact
                message="Install the Waymark extension to take assessments and count your time."
                buttonLabel="Install Extension"
                storeUrls={storeUrls}
                client={client}
              />
            )}
          </li>
        ))}
      </ul>
      <Dialog
        open={Boolean(asking)}
        title="Assessment"
        onClose={() => setAsking(null)}
        actions={
          <>
            <button type="button" className="btn btn-secondary" onClick={() => setAsking(null)}>
              No
            </button>
            <button
              type="button"
              className="btn"
              disabled={busy}
              onClick={async () => {
                if (!asking) return;
                setBusy(true);
                try {
                  await onStart(asking);
                } catch (err) {
                  const opensAt = retakeOpensAtOf(err);
                  if (opensAt) setRefused((r) => ({ ...r, [asking.resourceId]: opensAt }));
                  else console.error('Something went wrong', err);
                } finally {
                  setBusy(false);
                  setAsking(null);
                }
              }}
            >
              {busy ? <Spinner /> : null} Yes
            </button>
          </>
        }
      >
        <p>{asking ? assessmentQuestion(asking.resourceName) : null}</p>
      </Dialog>
    </>
  );
}
