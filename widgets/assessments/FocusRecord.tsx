/**
 * The focus record of a test (shared/rules/integrity.ts), the same for the learner's answers view and the
 * mentor's: the tier with the rules that decided it, worded as context and not as proof, the figures, and
 * the timeline; each question of the review lists what happened while it was on screen
 * (`QuestionMoments`). `TierBadge` is the tier in a table cell.
 */
import { formatClock } from '@shared/rules/format-date';
import {
  describeEntry,
  INTEGRITY_EXPLANATION,
  type IntegrityTier,
  spokenAway,
  TIER_LABELS,
} from '@shared/rules/integrity';
import type { IntegritySummary, TimelineEntry } from '@shared/schemas/assessment';
import { useId } from 'react';

const TIER_CLASS: Record<IntegrityTier, string> = {
  NONE: 'badge',
  SOME: 'badge badge-primary',
  NOTABLE: 'badge badge-warning',
};

/** The tier as a badge, its reasons as the title (tables). */
export function TierBadge({ summary }: { summary: IntegritySummary | null }) {
  if (!summary) return <span className="muted">—</span>;
  const why = summary.reasons.length ? summary.reasons.join('; ') : 'Nothing reached the rules';
  return (
    <span className={TIER_CLASS[summary.tier]} title={why}>
      {TIER_LABELS[summary.tier]}
      <span className="visually-hidden">: {why}</span>
    </span>
  );
}

const when = (t: TimelineEntry) =>
  t.until && t.kind !== 'PASTE' ? `${formatClock(t.at)} – ${formatClock(t.until)}` : formatClock(t.at);

function Entry({ entry }: { entry: TimelineEntry }) {
  return (
    <li className={`wm-moment${entry.brief ? ' is-brief' : ''}`}>
      <span className="wm-moment-time">{when(entry)}</span> <span>{describeEntry(entry)}</span>
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
  const subject = who === 'you' ? 'You' : 'The learner';
  return (
    <section className="card wm-focus" aria-labelledby={`${id}-title`}>
      <div className="wm-qa-question-head">
        <h2 id={`${id}-title`}>Focus record</h2>
        {summary ? <TierBadge summary={summary} /> : null}
      </div>
      {!summary ? (
        <p className="muted">This test was not started, so nothing was recorded.</p>
      ) : (
        <>
          <p>
            {summary.tier === 'NONE'
              ? `${subject} stayed with the test: nothing reached the rules below.`
              : `${TIER_LABELS[summary.tier]}: ${summary.reasons.join('; ')}.`}{' '}
            <strong>This is context, not proof</strong>: a notification, a second screen or a dropped
            connection look the same as looking something up.
          </p>
          <dl className="wm-review-summary">
            <div>
              <dt>Time away</dt>
              <dd>{spokenAway(summary.awaySeconds)}</dd>
            </div>
            <div>
              <dt>Longest absence</dt>
              <dd>{spokenAway(summary.longestAwaySeconds)}</dd>
            </div>
            <div>
              <dt>Absences</dt>
              <dd>
                {summary.absences}
                {summary.briefAbsences ? ` (and ${summary.briefAbsences} brief)` : ''}
              </dd>
            </div>
            <div>
              <dt>Pastes</dt>
              <dd>{summary.pastes}</dd>
            </div>
            <div>
              <dt>Second tab</dt>
              <dd>{summary.secondTabs ? `${summary.secondTabs}×` : 'No'}</dd>
            </div>
            <div>
              <dt>Offline</dt>
              <dd>{summary.offlineSeconds ? spokenAway(summary.offlineSeconds) : 'No'}</dd>
            </div>
          </dl>
          {timeline.length ? (
            <>
              <h3 className="wm-focus-subtitle">Timeline</h3>
              <ol className="wm-moments" aria-label="Focus record timeline">
                {timeline.map((t) => (
                  <Entry key={`${t.kind}-${t.at}`} entry={t} />
                ))}
              </ol>
            </>
          ) : (
            <p className="muted">Nothing was recorded while the test ran.</p>
          )}
          <details className="wm-focus-rules">
            <summary>How the tier is decided</summary>
            {INTEGRITY_EXPLANATION.map((text) => (
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
  if (entries.length === 0) return null;
  return (
    <div className="wm-question-moments">
      <strong>While this question was on screen</strong>
      <ul className="wm-moments">
        {entries.map((t) => (
          <Entry key={`${t.kind}-${t.at}`} entry={t} />
        ))}
      </ul>
    </div>
  );
}
