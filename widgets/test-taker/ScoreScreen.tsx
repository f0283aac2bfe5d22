/** 'Your Score': the gauge, the points, and the award step (or why there is none). */
import { displayPercentage, POINTS_PER_QUESTION, percentageOf } from '@shared/rules/scoring';
import { AWARD_LINK_LABELS, awardKindOf, awardPath } from '@shared/rules/test-status';
import type { CSSProperties } from 'react';
import { isPlainClick, useWidgetHost } from '../embed/host';
import { EndScreen, type HeadingTag, SiteLink, siteHref } from './EndScreen';
import type { EvaluationResult } from './screen';
import { TEST_TEXT, TYPE_LABELS } from './text';

/** The score gauge: percent = score × 100 / (10 × questions), rounded up. */
export function ScoreGauge({ percent }: { percent: number }) {
  const r = 52;
  const circumference = 2 * Math.PI * r;
  const shown = Math.max(0, Math.min(100, percent));
  return (
    <div
      className={`wm-gauge${percent >= 60 ? ' is-pass' : ''}`}
      part="gauge"
      role="img"
      aria-label={`Score: ${percent}%`}
    >
      <svg viewBox="0 0 120 120" aria-hidden="true" focusable="false">
        <circle className="wm-gauge-track" cx="60" cy="60" r={r} />
        {/* the dash as a custom property: SVG attribute names differ between React and Preact */}
        <circle
          className="wm-gauge-value"
          cx="60"
          cy="60"
          r={r}
          style={{ '--wm-gauge-dash': `${(circumference * shown) / 100} ${circumference}` } as CSSProperties}
          transform="rotate(-90 60 60)"
        />
      </svg>
      <span className="wm-gauge-text" aria-hidden="true">
        {percent}%
      </span>
    </div>
  );
}

export function ScoreScreen({
  result,
  linkId,
  testTitle,
  Title,
  titleId,
}: {
  result: EvaluationResult;
  linkId: string;
  testTitle: string | null;
  Title: HeadingTag;
  titleId: string;
}) {
  const host = useWidgetHost();
  if (result.testType === 'CUSTOM-TEST') {
    return (
      <EndScreen
        title="Test Submitted"
        Title={Title}
        titleId={titleId}
        message="Your answers have been submitted. Thank you for taking the assessment."
      />
    );
  }
  const percent = displayPercentage(percentageOf(result.score, result.questionCount));
  const kind = awardKindOf(result.testType);
  const path = awardPath(result.testType, linkId);
  const href = siteHref(host, path);
  return (
    <section className="wm-test wm-test-center wm-score" part="test" aria-labelledby={titleId}>
      <Title id={titleId}>Your Score</Title>
      <p className="wm-muted">
        {testTitle ? `${testTitle} · ` : ''}
        {TYPE_LABELS[result.testType] ?? 'Assessment'}
      </p>
      <ScoreGauge percent={percent} />
      <p className="wm-points">
        {result.score} of {result.questionCount * POINTS_PER_QUESTION} points
      </p>
      {kind && path && href ? (
        result.certificateEligible ? (
          <div className="wm-award-step" part="award">
            <p className="wm-award-step-title">Congratulations! You earned a {kind}.</p>
            <a
              className="btn"
              part="award-link"
              href={href}
              onClick={(e) => {
                if (!isPlainClick(e)) return;
                e.preventDefault();
                if (host.emit('wm-open-award', { linkId, award: kind, href })) host.navigate(path);
              }}
            >
              {AWARD_LINK_LABELS[kind]}
            </a>
          </div>
        ) : (
          <p className="alert alert-warning wm-not-enough">{TEST_TEXT.notEnough}</p>
        )
      ) : null}
      <p className="wm-actions wm-actions-center">
        <SiteLink path="/" className="btn btn-secondary">
          Home
        </SiteLink>
      </p>
    </section>
  );
}
