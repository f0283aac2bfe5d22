/**
 * Beside the question editor: how this question did in the mentor's assessments — its facility,
 * discrimination, time and flags over all of them, then in each — so the author sees what to fix while
 * fixing it. Nothing is shown for a question no learner has answered yet.
 */
import { questionStats } from '@shared/contract/analysis';
import { client } from '@widgets/core/api';
import { useI18n } from '@widgets/core/i18n';
import { useCall } from '@widgets/core/useCall';
import { useId } from 'react';
import { FigureDetails, FlagBadges, seconds, two } from './StatsTable';

export function QuestionFigures({ questionId }: { questionId: string }) {
  const tr = useI18n();
  const { t } = tr;
  const titleId = useId();
  const stats = useCall(
    (signal) => client.call(questionStats, { params: { id: questionId }, signal }).then((r) => r.data),
    [questionId],
  );
  const s = stats.data;
  if (!s || s.overall.attempts === 0) return null;
  const f = s.overall;
  return (
    <section className="card question-figures" aria-labelledby={titleId}>
      <h2 id={titleId}>{t('stats.howItDid')}</h2>
      <dl className="figure-grid">
        <div>
          <dt>{t('stats.attempts')}</dt>
          <dd>{tr.number(f.attempts)}</dd>
        </div>
        <div>
          <dt>{t('stats.facility')}</dt>
          <dd>{two(f.facility, tr)}</dd>
        </div>
        <div>
          <dt>{t('stats.discrimination')}</dt>
          <dd>{two(f.discrimination, tr)}</dd>
        </div>
        <div>
          <dt>{t('stats.averageTime')}</dt>
          <dd>{seconds(f.averageSeconds, tr)}</dd>
        </div>
      </dl>
      <FlagBadges figures={f} />
      <FigureDetails figures={f} />
      {s.byAssessment.length > 1 ? (
        <>
          <h3>{t('stats.inEach')}</h3>
          <ul className="per-assessment">
            {s.byAssessment.map((a) => (
              <li key={a.assessmentId}>
                <strong>{a.name}</strong>:{' '}
                {t('stats.perAssessment', {
                  attempts: a.figures.attempts,
                  facility: two(a.figures.facility, tr),
                  discrimination: two(a.figures.discrimination, tr),
                })}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}
