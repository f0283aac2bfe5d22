/**
 * The statistics cards of /portal/users (mentor §2.3, §3 Stats): Total Users, Total TestLink, Total TestLink
 * Completed, and four that open their table — Total Certificate, Total Badge, Total Feather, Average
 * Learning Time.
 */

import type { MessageKey } from '@shared/i18n/keys';
import type { Translator } from '@shared/i18n/translator';
import { formatDuration, spokenDuration } from '@shared/rules/durations';
import type { Stats } from '@shared/schemas/tenant';
import { useI18n } from '@widgets/core/i18n';
import type { CallState } from '@widgets/core/useCall';
import { Arrow } from '@widgets/ui/Arrow';
import { Link } from 'react-router';
import type { z } from 'zod';
import { TableFailure } from '../../components/TableFailure';

type StatsT = z.infer<typeof Stats>;

interface CardDef {
  label: MessageKey;
  value: (s: StatsT, t: Translator) => string;
  title?: (s: StatsT, t: Translator) => string;
  to?: string;
}

export const STAT_CARDS: readonly CardDef[] = [
  { label: 'stats.totalUsers', value: (s, t) => t.number(s.totalUserCount) },
  { label: 'stats.totalTestLink', value: (s, t) => t.number(s.totalTestLink) },
  { label: 'stats.totalTestLinkCompleted', value: (s, t) => t.number(s.totalTestLinkCompleted) },
  {
    label: 'stats.totalCertificate',
    value: (s, t) => t.number(s.totalCertificateGenerated),
    to: '/portal/total-certificates',
  },
  { label: 'stats.totalBadge', value: (s, t) => t.number(s.totalBadgeGenerated), to: '/portal/total-badges' },
  {
    label: 'stats.totalFeather',
    value: (s, t) => t.number(s.totalFeatherGenerated),
    to: '/portal/total-feathers',
  },
  {
    label: 'stats.averageLearningTime',
    value: (s, t) => formatDuration(s.totalUserAverageLearningTime, t.locale),
    title: (s, t) => t.t('stats.perDay', { time: spokenDuration(s.totalUserAverageLearningTime, t.locale) }),
    to: '/portal/average-learning-time',
  },
];

export function StatCards({ stats }: { stats: CallState<StatsT> }) {
  const translator = useI18n();
  const { t } = translator;
  if (stats.error) return <TableFailure />;
  const s = stats.data;
  return (
    <ul className="stat-cards" aria-label={t('stats.label')} aria-busy={!s}>
      {STAT_CARDS.map((card) => {
        const body = (
          <>
            <span className="stat-label">{t(card.label)}</span>
            <span className="stat-value" title={s && card.title ? card.title(s, translator) : undefined}>
              {s ? card.value(s, translator) : '…'}
            </span>
            {card.to ? (
              <span className="stat-more" aria-hidden="true">
                {t('stats.viewAll')} <Arrow to="forward" />
              </span>
            ) : null}
          </>
        );
        return (
          <li key={card.label}>
            {card.to ? (
              <Link className="stat-card" to={card.to}>
                {body}
              </Link>
            ) : (
              <div className="stat-card">{body}</div>
            )}
          </li>
        );
      })}
    </ul>
  );
}
