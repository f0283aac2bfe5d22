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
import { useI18n } from '../core/i18n';
import { ResourceType } from '../course-detail/TaskPreview';
import { Slot } from '../embed/host';

export interface ResourceCardsProps {
  cards: readonly DashboardCard[];
  extensionPresent: boolean;
  /** Starts the card's assessment; a refusal with RETAKE_COOLDOWN (rejected) is told on the card. */
  onStart: (card: DashboardCard) => Promise<unknown> | unknown;
  storeUrls?: StoreUrls;
  client?: Client;
}

export function ResourceCards({ cards, extensionPresent, onStart, storeUrls, client }: ResourceCardsProps) {
  const i18n = useI18n();
  const { t } = i18n;
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
        <Slot name="empty">{t('dashboard.noResources')}</Slot>
      </div>
    );
  }
  const minutes = (s: number) => t('dashboard.minutes', { count: cardMinutes(s) });
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
              <ResourceType type={card.resourceType} />{' '}
              <span className="wm-card-time">{minutes(card.totalTimeSpent)}</span>
            </p>
            {extensionPresent && retakeAt(card) ? (
              refused[card.resourceId] ? (
                <p className="wm-card-retake" role="alert">
                  {retakeNotice(retakeAt(card)!, i18n)}
                </p>
              ) : (
                <p className="wm-card-retake">
                  {retakeLabel(retakeAt(card)!, i18n)}
                  <span className="visually-hidden">
                    {t('common.about', { name: t('dashboard.assessmentOf', { name: card.resourceName }) })}
                  </span>
                </p>
              )
            ) : extensionPresent ? (
              <button
                type="button"
                className="btn btn-secondary"
                onClick={() => setAsking(card)}
                aria-label={t('dashboard.assessmentOf', { name: card.resourceName })}
              >
                {t('dashboard.assessment')}
              </button>
            ) : (
              <InstallExtension
                compact
                message={t('dashboard.installForAssessments')}
                buttonLabel={t('extension.installExtension')}
                storeUrls={storeUrls}
                client={client}
              />
            )}
          </li>
        ))}
      </ul>
      <Dialog
        open={Boolean(asking)}
        title={t('dashboard.assessment')}
        onClose={() => setAsking(null)}
        actions={
          <>
            <button type="button" className="btn btn-secondary" onClick={() => setAsking(null)}>
              {t('common.no')}
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
              {busy ? <Spinner /> : null} {t('common.yes')}
            </button>
          </>
        }
      >
        <p>{asking ? t('dashboard.attemptQuestion', { resource: asking.resourceName }) : null}</p>
      </Dialog>
    </>
  );
}
