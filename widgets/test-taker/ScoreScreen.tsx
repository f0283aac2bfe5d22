/** 'Your Score': the gauge, the points, and the award step (or why there is none). */
import { displayPercentage, POINTS_PER_QUESTION, percentageOf } from '@shared/rules/scoring';
import { AWARD_LINK_LABEL_KEYS, awardKindOf, awardPath } from '@shared/rules/test-status';
import type { CSSProperties } from 'react';
import { useI18n } from '../core/i18n';
import { isPlainClick, useWidgetHost } from '../embed/host';
import { EndScreen, type HeadingTag, SiteLink, siteHref } from './EndScreen';
import type { EvaluationResult } from './screen';
import { TEST_TEXT, TYPE_LABELS } from './text';

/** The score gauge: percent = score × 100 / (10 × questions), rounded up. */
export function ScoreGauge({ percent }: { percent: number }) {
  const { t, number } = useI18n();
  const r = 52;
  const circumference = 2 * Math.PI * r;
  const shown = Math.max(0, Math.min(100, percent));
  return (
    <div
      className={`wm-gauge${percent >= 60 ? ' is-pass' : ''}`}
      part="gauge"
      role="img"
      aria-label={t('test.scoreLabel', { percent: number(percent / 100, { style: 'percent' }) })}
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
      <span className="wm-gauge-text" aria-hidden="true" dir="ltr">
        {number(percent / 100, { style: 'percent' })}
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
  const { t } = useI18n();
  if (result.testType === 'CUSTOM-TEST') {
    return (
      <EndScreen
        title={t('test.submitted')}
        Title={Title}
        titleId={titleId}
        message={t('test.submittedText')}
      />
    );
  }
  const percent = displayPercentage(percentageOf(result.score, result.questionCount));
  const kind = awardKindOf(result.testType);
  const path = awardPath(result.testType, linkId);
  const href = siteHref(host, path);
  return (
    <section className="wm-test wm-test-center wm-score" part="test" aria-labelledby={titleId}>
      <Title id={titleId}>{t('test.yourScore')}</Title>
      <p className="wm-muted">
        {testTitle ? `${testTitle} · ` : ''}
        {t(TYPE_LABELS[result.testType])}
      </p>
      <ScoreGauge percent={percent} />
      <p className="wm-points">
        {t('test.points', { score: result.score, total: result.questionCount * POINTS_PER_QUESTION })}
      </p>
      {kind && path && href ? (
        result.certificateEligible ? (
          <div className="wm-award-step" part="award">
            <p className="wm-award-step-title">{t('test.earned', { kind })}</p>
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
              {t(AWARD_LINK_LABEL_KEYS[kind])}
            </a>
          </div>
        ) : (
          <p className="alert alert-warning wm-not-enough">{t(TEST_TEXT.notEnough)}</p>
        )
      ) : null}
      <p className="wm-actions wm-actions-center">
        <SiteLink path="/" className="btn btn-secondary">
          {t('common.home')}
        </SiteLink>
      </p>
    </section>
  );
}
