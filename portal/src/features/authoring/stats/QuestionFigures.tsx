/**
 * Beside the question editor: how this question did in the mentor's assessments — its facility,
 * discrimination, time and flags over all of them, then in each — so the author sees what to fix while
 * fixing it. Nothing is shown for a question no learner has answered yet.
 */
import { questionStats } from '@shared/contract/analysis';
import { durationWords } from '@shared/rules/test-figures';
import { client } from '@widgets/core/api';
import { useCall } from '@widgets/core/useCall';
import { useId } from 'react';
import { FigureDetails, FlagBadges } from './StatsTable';

const two = (n: number | null) => (n === null ? '—' : n.toFixed(2));

export function QuestionFigures({ questionId }: { questionId: string }) {
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
      <h2 id={titleId}>How this question did</h2>
      <dl className="figure-grid">
        <div>
          <dt>Attempts</dt>
          <dd>{f.attempts}</dd>
        </div>
        <div>
          <dt>Facility</dt>
          <dd>{two(f.facility)}</dd>
        </div>
        <div>
          <dt>Discrimination</dt>
          <dd>{two(f.discrimination)}</dd>
        </div>
        <div>
          <dt>Average time</dt>
          <dd>{durationWords(f.averageSeconds)}</dd>
        </div>
      </dl>
      <FlagBadges figures={f} />
      <FigureDetails figures={f} />
      {s.byAssessment.length > 1 ? (
        <>
          <h3>In each assessment</h3>
          <ul className="per-assessment">
            {s.byAssessment.map((a) => (
              <li key={a.assessmentId}>
                <strong>{a.name}</strong>: {a.figures.attempts} attempts, facility {two(a.figures.facility)},
                discrimination {two(a.figures.discrimination)}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}
