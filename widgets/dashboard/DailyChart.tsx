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

export const CHART_TITLE = 'Your Daily Time spent on Learning';

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

export function DailyChart({ days }: { days: readonly DayPoint[] }) {
  const labels = days.map((d) => dayLabel(d.date));
  const values = days.map((d) => chartHours(d.timespent));
  const { step, top } = chartAxis(Math.max(0, ...values));
  const plot = HEIGHT - TOP - BOTTOM;
  const y = (v: number) => TOP + plot - (plot * v) / top;
  const slot = (100 - GUTTER) / Math.max(1, days.length);
  const every = Math.ceil(days.length / MAX_LABELS);
  const ticks = Array.from({ length: Math.round(top / step) + 1 }, (_, i) => i * step);
  return (
    <figure className="wm-chart" part="chart">
      <figcaption>
        <h2>{CHART_TITLE}</h2>
        <span className="muted">Hours per day (UTC)</span>
      </figcaption>
      <div className="wm-chart-canvas" aria-hidden="true">
        <svg width="100%" height={HEIGHT} focusable="false" aria-hidden="true">
          {ticks.map((t) => (
            <g key={t}>
              <line className="wm-chart-grid" x1={`${GUTTER}%`} x2="100%" y1={y(t)} y2={y(t)} />
              <text className="wm-chart-tick" x="0" y={y(t) + 4}>
                {tick(t)}
              </text>
            </g>
          ))}
          {days.map((d, i) => {
            const v = values[i]!;
            const x = GUTTER + slot * i;
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
                  <title>{`${labels[i]}: ${v} h`}</title>
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
          <caption>{CHART_TITLE}, in hours</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Hours</th>
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
