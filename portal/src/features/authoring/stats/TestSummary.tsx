/**
 * A test's figures at a glance (issue 30): attempts and takers, the score's mean, median and spread, the
 * reliability (KR-20 or α) with its standard error of measurement, the pass rate, the time to complete, and
 * the histogram of scores — drawn as bars, each with its range and count in words, so it reads the same to a
 * screen reader.
 */
import type { TestFigures } from '@shared/contract/analysis';
import { ITEM_RULES } from '@shared/rules/item-analysis';
import { durationWords } from '@shared/rules/test-figures';
import { useId } from 'react';
import type { z } from 'zod';

type Figures = z.infer<typeof TestFigures>;

const one = (n: number | null, unit = '') => (n === null ? '—' : `${n.toFixed(1)}${unit}`);

export function TestSummary({ figures }: { figures: Figures }) {
  const histogramId = useId();
  const r = figures.reliability;
  const most = Math.max(1, ...figures.histogram.map((b) => b.count));
  return (
    <section className="card test-summary" aria-label="Assessment figures">
      <dl className="figure-grid">
        <div>
          <dt>Attempts</dt>
          <dd>
            {figures.attempts}
            <span className="muted">
              {' '}
              by {figures.takers} taker{figures.takers === 1 ? '' : 's'}
            </span>
          </dd>
        </div>
        <div>
          <dt>Mean score</dt>
          <dd>{one(figures.score.mean, ' %')}</dd>
        </div>
        <div>
          <dt>Median score</dt>
          <dd>{one(figures.score.median, ' %')}</dd>
        </div>
        <div>
          <dt>Standard deviation</dt>
          <dd>{one(figures.score.sd, ' points')}</dd>
        </div>
        <div>
          <dt>{r.method === 'KR-20' ? 'Reliability (KR-20)' : 'Reliability (Cronbach’s α)'}</dt>
          <dd>
            {r.value === null ? '—' : r.value.toFixed(2)}
            {r.sem !== null ? <span className="muted"> · SEM {r.sem.toFixed(1)} points</span> : null}
            {r.note ? <span className="muted block">{r.note}</span> : null}
          </dd>
        </div>
        <div>
          <dt>Pass rate</dt>
          <dd>
            {figures.passRate === null ? '—' : `${Math.round(figures.passRate * 100)} %`}
            <span className="muted"> at {figures.passPercentage} %</span>
          </dd>
        </div>
        <div>
          <dt>Time to complete</dt>
          <dd>
            {durationWords(figures.time.median)}
            <span className="muted"> median · mean {durationWords(figures.time.mean)}</span>
          </dd>
        </div>
      </dl>
      {figures.drawn ? (
        <p className="muted">
          Takers received different questions: every figure is computed over the questions each taker actually
          received.
        </p>
      ) : null}
      {figures.smallSample && figures.attempts > 0 ? (
        <p className="alert alert-info">
          A small sample: {figures.attempts} attempt{figures.attempts === 1 ? '' : 's'}. The figures are
          shown; questions are flagged from {ITEM_RULES.minAttempts} attempts on.
        </p>
      ) : null}
      <figure className="histogram" aria-labelledby={histogramId}>
        <figcaption id={histogramId}>Scores (percentage of the maximum)</figcaption>
        <ol>
          {figures.histogram.map((b, i) => (
            <li key={b.from}>
              <span
                className="histogram-bar"
                style={{ height: `${(b.count / most) * 100}%` }}
                aria-hidden="true"
              />
              <span className="histogram-count">
                {b.count}
                <span className="visually-hidden">
                  {' '}
                  attempt{b.count === 1 ? '' : 's'} scored {b.from}
                  {i === figures.histogram.length - 1 ? ` to ${b.to}` : ` to under ${b.to}`} %
                </span>
              </span>
              <span className="histogram-range" aria-hidden="true">
                {b.from}–{b.to}
              </span>
            </li>
          ))}
        </ol>
      </figure>
    </section>
  );
}
