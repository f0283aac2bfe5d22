/**
 * 'Your Daily Time spent on Learning': hours per UTC day (one decimal) as a bar chart drawn here in SVG,
 * with the same figures in a table for screen readers. Hand-made (decision 041): it replaced frappe-charts,
 * which wrote `style` attributes and `<style>` elements that a partner page's strict Content Security
 * Policy refuses (its bars turned black there) and put its CSS in the document's head. Every colour comes
 * from the element's stylesheet (`--wm-primary`, `--wm-muted`, `--wm-border`), so the themes reach it;
 * positions are SVG attributes (percentages of the width, so it needs no measuring), never styles.
 */
import { dayLabel } from '@shared/rules/date-ranges';
import { chartHours } from '@shared/rules/durations';
import { useI18n } from '../core/i18n';

export interface DayPoint {
  /** Unix seconds of the UTC day's start. */
  date: number;
  /** Seconds learnt that day. */
  timespent: number;
}

/** The drawing's height in pixels, and its bands: values above the bars, day labels below. */
const HEIGHT = 240;
const TOP = 22;
const BOTTOM = 26;
/** The y-axis labels' share of the width (percent), left of the bars. */
const GUTTER = 7;
/** At most this many day labels under the bars (every k-th day beyond it); values over bars up to 14 days. */
const MAX_LABELS = 7;
const MAX_VALUES = 14;

/** The axis: a round step (1, 2 or 5 times a power of ten) and the top it reaches, for values up to `max`. */
export function chartAxis(max: number, steps = 4): { step: number; top: number } {
  if (!(max > 0)) return { step: 0.25, top: 1 };
  const raw = max / steps;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw)!;
  return { step, top: Math.ceil(max / step - 1e-9) * step };
}

/** A tick as it is printed: at most three decimals (0.075, not 0.07500000000000001). */
const tick = (v: number) => String(Math.round(v * 1000) / 1000);

/**
 * The chart reads in the language's direction: in Arabic the days run from right to left (the newest at
 * the left) and the hours' axis stands at the right, as a time axis does in a right-to-left language; the
 * table keeps the days in order.
 */
export function DailyChart({ days }: { days: readonly DayPoint[] }) {
  const { t, locale, dir } = useI18n();
  const rtl = dir === 'rtl';
  const labels = days.map((d) => dayLabel(d.date, locale));
  const values = days.map((d) => chartHours(d.timespent));
  const { step, top } = chartAxis(Math.max(0, ...values));
  const plot = HEIGHT - TOP - BOTTOM;
  const y = (v: number) => TOP + plot - (plot * v) / top;
  const slot = (100 - GUTTER) / Math.max(1, days.length);
  const every = Math.ceil(days.length / MAX_LABELS);
  const ticks = Array.from({ length: Math.round(top / step) + 1 }, (_, i) => i * step);
  // where the bars start, and where a day stands (right to left in Arabic)
  const bars = rtl ? 0 : GUTTER;
  const at = (i: number) => bars + slot * (rtl ? days.length - 1 - i : i);
  return (
    <figure className="wm-chart" part="chart">
      <figcaption>
        <h2>{t('chart.title')}</h2>
        <span className="muted">{t('chart.subtitle')}</span>
      </figcaption>
      <div className="wm-chart-canvas" aria-hidden="true">
        <svg width="100%" height={HEIGHT} focusable="false" aria-hidden="true">
          {ticks.map((v) => (
            <g key={v}>
              <line
                className="wm-chart-grid"
                x1={`${bars}%`}
                x2={`${bars + 100 - GUTTER}%`}
                y1={y(v)}
                y2={y(v)}
              />
              <text
                className="wm-chart-tick"
                x={rtl ? '100%' : '0'}
                y={y(v) + 4}
                textAnchor={rtl ? 'end' : 'start'}
              >
                {tick(v)}
              </text>
            </g>
          ))}
          {days.map((d, i) => {
            const v = values[i]!;
            const x = at(i);
            return (
              <g key={d.date}>
                <rect
                  className="wm-chart-bar"
                  x={`${x + slot * 0.2}%`}
                  width={`${slot * 0.6}%`}
                  y={y(v)}
                  height={Math.max(0, TOP + plot - y(v))}
                  rx="2"
                >
                  <title>
                    {t('days.hover', { day: labels[i]!, time: t('chart.tooltip', { hours: v }) })}
                  </title>
                </rect>
                {v > 0 && days.length <= MAX_VALUES ? (
                  <text className="wm-chart-value" x={`${x + slot / 2}%`} y={y(v) - 6} textAnchor="middle">
                    {v}
                  </text>
                ) : null}
                {i % every === 0 ? (
                  <text className="wm-chart-day" x={`${x + slot / 2}%`} y={HEIGHT - 8} textAnchor="middle">
                    {labels[i]}
                  </text>
                ) : null}
              </g>
            );
          })}
        </svg>
      </div>
      {/* hidden by a wrapper: a table sizes to its content, whatever width it is given */}
      <div className="visually-hidden">
        <table>
          <caption>{t('chart.caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('chart.day')}</th>
              <th scope="col">{t('chart.hours')}</th>
            </tr>
          </thead>
          <tbody>
            {days.map((d, i) => (
              <tr key={d.date}>
                <td>{labels[i]}</td>
                <td>{values[i]}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
