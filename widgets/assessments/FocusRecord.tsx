/**
 * The focus record of a test (shared/rules/integrity.ts), the same for the learner's answers view and the
 * mentor's: the tier with the rules that decided it, worded as context and not as proof, the figures, and
 * the timeline; each question of the review lists what happened while it was on screen
 * (`QuestionMoments`). `TierBadge` is the tier in a table cell.
 */
import { formatClock } from '@shared/rules/format-date';
import {
  describeEntry,
  type IntegrityTier,
  integrityExplanation,
  reasonsOf,
  spokenAway,
  TIER_LABELS,
} from '@shared/rules/integrity';
import type { IntegritySummary, TimelineEntry } from '@shared/schemas/assessment';
import { useId } from 'react';
import { Rich, useI18n } from '../core/i18n';

const TIER_CLASS: Record<IntegrityTier, string> = {
  NONE: 'badge',
  SOME: 'badge badge-primary',
  NOTABLE: 'badge badge-warning',
};

/** The tier as a badge, its reasons as the title (tables). */
export function TierBadge({ summary }: { summary: IntegritySummary | null }) {
  const i18n = useI18n();
  const { t } = i18n;
  if (!summary) return <span className="muted">—</span>;
  const reasons = reasonsOf(summary, i18n);
  const why = reasons.length ? reasons.join(t('common.listSeparator')) : t('focus.nothingReached');
  return (
    <span className={TIER_CLASS[summary.tier]} title={why}>
      {t(TIER_LABELS[summary.tier])}
      <span className="visually-hidden">{t('common.about', { name: why })}</span>
    </span>
  );
}

const when = (e: TimelineEntry, locale: string) =>
  e.until && e.kind !== 'PASTE'
    ? `${formatClock(e.at, undefined, locale)} – ${formatClock(e.until, undefined, locale)}`
    : formatClock(e.at, undefined, locale);

function Entry({ entry }: { entry: TimelineEntry }) {
  const i18n = useI18n();
  return (
    <li className={`wm-moment${entry.brief ? ' is-brief' : ''}`}>
      <span className="wm-moment-time">{when(entry, i18n.locale)}</span>{' '}
      <span>{describeEntry(entry, i18n)}</span>
    </li>
  );
}

export function FocusRecord({
  summary,
  timeline,
  who = 'learner',
}: {
  summary: IntegritySummary | null;
  timeline: readonly TimelineEntry[];
  /** Whose test it is, for the wording: 'learner' (the mentor's view) or 'you'. */
  who?: 'learner' | 'you';
}) {
  const id = useId();
  const i18n = useI18n();
  const { t, locale } = i18n;
  return (
    <section className="card wm-focus" aria-labelledby={`${id}-title`}>
      <div className="wm-qa-question-head">
        <h2 id={`${id}-title`}>{t('focus.title')}</h2>
        {summary ? <TierBadge summary={summary} /> : null}
      </div>
      {!summary ? (
        <p className="muted">{t('focus.notStarted')}</p>
      ) : (
        <>
          <p>
            {summary.tier === 'NONE'
              ? t('focus.stayed', { who })
              : t('focus.tierBecause', {
                  tier: t(TIER_LABELS[summary.tier]),
                  reasons: reasonsOf(summary, i18n).join(t('common.listSeparator')),
                })}{' '}
            <Rich k="focus.contextNotProof" components={{ 0: <strong /> }} />
          </p>
          <dl className="wm-review-summary">
            <div>
              <dt>{t('focus.timeAway')}</dt>
              <dd>{spokenAway(summary.awaySeconds, locale)}</dd>
            </div>
            <div>
              <dt>{t('focus.longestAbsence')}</dt>
              <dd>{spokenAway(summary.longestAwaySeconds, locale)}</dd>
            </div>
            <div>
              <dt>{t('focus.absences')}</dt>
              <dd>
                {summary.briefAbsences
                  ? t('focus.absencesAndBrief', { count: summary.absences, brief: summary.briefAbsences })
                  : summary.absences}
              </dd>
            </div>
            <div>
              <dt>{t('focus.pastes')}</dt>
              <dd>{summary.pastes}</dd>
            </div>
            <div>
              <dt>{t('focus.secondTab')}</dt>
              <dd>{summary.secondTabs ? t('focus.times', { count: summary.secondTabs }) : t('common.no')}</dd>
            </div>
            <div>
              <dt>{t('focus.offline')}</dt>
              <dd>{summary.offlineSeconds ? spokenAway(summary.offlineSeconds, locale) : t('common.no')}</dd>
            </div>
          </dl>
          {timeline.length ? (
            <>
              <h3 className="wm-focus-subtitle">{t('focus.timeline')}</h3>
              <ol className="wm-moments" aria-label={t('focus.timelineLabel')}>
                {timeline.map((e) => (
                  <Entry key={`${e.kind}-${e.at}`} entry={e} />
                ))}
              </ol>
            </>
          ) : (
            <p className="muted">{t('focus.nothingRecorded')}</p>
          )}
          <details className="wm-focus-rules">
            <summary>{t('focus.howDecided')}</summary>
            {integrityExplanation(i18n).map((text) => (
              <p key={text}>{text}</p>
            ))}
          </details>
        </>
      )}
    </section>
  );
}

/** What happened while one question was on screen, beside that question. */
export function QuestionMoments({ entries }: { entries: readonly TimelineEntry[] }) {
  const { t } = useI18n();
  if (entries.length === 0) return null;
  return (
    <div className="wm-question-moments">
      <strong>{t('focus.whileOnScreen')}</strong>
      <ul className="wm-moments">
        {entries.map((e) => (
          <Entry key={`${e.kind}-${e.at}`} entry={e} />
        ))}
      </ul>
    </div>
  );
}
