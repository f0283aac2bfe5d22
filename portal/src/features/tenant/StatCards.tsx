/**
 * The statistics cards of /portal/users (mentor §2.3, §3 Stats): Total Users, Total TestLink, Total TestLink
 * Completed, and four that open their table — Total Certificate, Total Badge, Total Feather, Average
 * Learning Time.
 */

import { formatDuration, spokenDuration } from '@shared/rules/durations';
import type { Stats } from '@shared/schemas/tenant';
import type { CallState } from '@widgets/core/useCall';
import { Link } from 'react-router';
import type { z } from 'zod';
import { TableFailure } from '../../components/TableFailure';

type StatsT = z.infer<typeof Stats>;

interface CardDef {
  label: string;
  value: (s: StatsT) => string;
  title?: (s: StatsT) => string;
  to?: string;
}

export const STAT_CARDS: readonly CardDef[] = [
  { label: 'Total Users', value: (s) => String(s.totalUserCount) },
  { label: 'Total TestLink', value: (s) => String(s.totalTestLink) },
  { label: 'Total TestLink Completed', value: (s) => String(s.totalTestLinkCompleted) },
  {
    label: 'Total Certificate',
    value: (s) => String(s.totalCertificateGenerated),
    to: '/portal/total-certificates',
  },
  { label: 'Total Badge', value: (s) => String(s.totalBadgeGenerated), to: '/portal/total-badges' },
  { label: 'Total Feather', value: (s) => String(s.totalFeatherGenerated), to: '/portal/total-feathers' },
  {
    label: 'Average Learning Time',
    value: (s) => formatDuration(s.totalUserAverageLearningTime),
    title: (s) => `${spokenDuration(s.totalUserAverageLearningTime)} a day`,
    to: '/portal/average-learning-time',
  },
];

export function StatCards({ stats }: { stats: CallState<StatsT> }) {
  if (stats.error) return <TableFailure />;
  const s = stats.data;
  return (
    <ul className="stat-cards" aria-label="Statistics" aria-busy={!s}>
      {STAT_CARDS.map((card) => {
        const body = (
          <>
            <span className="stat-label">{card.label}</span>
            <span className="stat-value" title={s && card.title ? card.title(s) : undefined}>
              {s ? card.value(s) : '…'}
            </span>
            {card.to ? (
              <span className="stat-more" aria-hidden="true">
                View all →
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
