/**
 * A test's figures at a glance (issue 30): attempts and takers, the score's mean, median and spread, the
 * reliability (KR-20 or α) with its standard error of measurement, the pass rate, the time to complete, and
 * the histogram of scores — drawn as bars, each with its range and count in words, so it reads the same to a
 * screen reader.
 */
import type { TestFigures } from '@shared/contract/analysis';
import type { Translator } from '@shared/i18n/translator';
import { ITEM_RULES } from '@shared/rules/item-analysis';
import { useI18n } from '@widgets/core/i18n';
import { useId } from 'react';
import type { z } from 'zod';
import { seconds } from './StatsTable';

type Figures = z.infer<typeof TestFigures>;

/** A figure with one decimal, as the reader's language writes it. */
const one = (n: number, { number }: Translator) =>
  number(n, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const percentOf = (n: number | null, tr: Translator) =>
  n === null ? '—' : tr.t('stats.percent', { value: one(n, tr) });
const pointsOf = (n: number | null, tr: Translator) =>
  n === null ? '—' : tr.t('stats.points', { value: one(n, tr) });

export function TestSummary({ figures }: { figures: Figures }) {
  const tr = useI18n();
  const { t, number } = tr;
  const r = figures.reliability;
  return (
    <section className="card test-summary" aria-label={t('stats.figures')}>
      <dl className="figure-grid">
        <div>
          <dt>{t('stats.attempts')}</dt>
          <dd>
            {number(figures.attempts)}
            <span className="muted"> {t('stats.byTakers', { takers: figures.takers })}</span>
          </dd>
        </div>
        <div>
          <dt>{t('stats.mean')}</dt>
          <dd>{percentOf(figures.score.mean, tr)}</dd>
        </div>
        <div>
          <dt>{t('stats.median')}</dt>
          <dd>{percentOf(figures.score.median, tr)}</dd>
        </div>
        <div>
          <dt>{t('stats.sd')}</dt>
          <dd>{pointsOf(figures.score.sd, tr)}</dd>
        </div>
        <div>
          <dt>{t('stats.reliability', { method: r.method === 'KR-20' ? 'KR20' : 'ALPHA' })}</dt>
          <dd>
            {r.value === null ? '—' : number(r.value, { minimumFractionDigits: 2, maximumFractionDigits: 2 })}
            {r.sem !== null ? (
              <span className="muted"> · {t('stats.sem', { value: one(r.sem, tr) })}</span>
            ) : null}
            {r.note ? <span className="muted block">{r.noteCode ? t(r.noteCode) : r.note}</span> : null}
          </dd>
        </div>
        <div>
          <dt>{t('stats.passRate')}</dt>
          <dd>
            {figures.passRate === null
              ? '—'
              : t('stats.percent', { value: number(Math.round(figures.passRate * 100)) })}
            <span className="muted"> {t('stats.passAt', { value: number(figures.passPercentage) })}</span>
          </dd>
        </div>
        <div>
          <dt>{t('stats.time')}</dt>
          <dd>
            {seconds(figures.time.median, tr)}
            <span className="muted"> {t('stats.timeOf', { mean: seconds(figures.time.mean, tr) })}</span>
          </dd>
        </div>
      </dl>
      {figures.drawn ? <p className="muted">{t('stats.drawn')}</p> : null}
      {figures.smallSample && figures.attempts > 0 ? (
        <p className="alert alert-info">
          {t('stats.small', { attempts: figures.attempts, min: number(ITEM_RULES.minAttempts) })}
        </p>
      ) : null}
      <Histogram figures={figures} />
    </section>
  );
}

/** The histogram of scores: bars, each with its range and count in words for screen readers. */
function Histogram({ figures }: { figures: Figures }) {
  const { t, number } = useI18n();
  const histogramId = useId();
  const most = Math.max(1, ...figures.histogram.map((b) => b.count));
  return (
    <figure className="histogram" aria-labelledby={histogramId}>
      <figcaption id={histogramId}>{t('stats.histogram')}</figcaption>
      <ol>
        {figures.histogram.map((b, i) => (
          <li key={b.from}>
            <span
              className="histogram-bar"
              style={{ height: `${(b.count / most) * 100}%` }}
              aria-hidden="true"
            />
            <span className="histogram-count">
              {number(b.count)}
              <span className="visually-hidden">
                {' '}
                {t('stats.bin', {
                  count: b.count,
                  from: number(b.from),
                  to: number(b.to),
                  under: i === figures.histogram.length - 1 ? 'no' : 'yes',
                })}
              </span>
            </span>
            <span className="histogram-range" aria-hidden="true">
              {number(b.from)}–{number(b.to)}
            </span>
          </li>
        ))}
      </ol>
    </figure>
  );
}
