/**
 * 'Your Daily Time spent on Learning': hours per UTC day (one decimal) as a frappe-charts bar chart, with
 * the same figures in a table for screen readers. frappe-charts puts its CSS in document.head; inside a
 * shadow root (the <wm-dashboard> element) that CSS is copied next to the chart.
 */
import { dayLabel } from '@shared/rules/date-ranges';
import { chartHours } from '@shared/rules/durations';
import { Chart } from 'frappe-charts';
import { useEffect, useRef } from 'react';
import { useI18n } from '../core/i18n';

export interface DayPoint {
  /** Unix seconds of the UTC day's start. */
  date: number;
  /** Seconds learnt that day. */
  timespent: number;
}

function adoptChartStyles(el: HTMLElement) {
  const root = el.getRootNode();
  if (typeof ShadowRoot === 'undefined' || !(root instanceof ShadowRoot)) return;
  if (root.querySelector('style[data-frappe-charts]')) return;
  const source = [...document.head.querySelectorAll('style')].find((s) =>
    s.textContent?.includes('.chart-container'),
  );
  if (!source) return;
  const copy = document.createElement('style');
  copy.setAttribute('data-frappe-charts', '');
  copy.textContent = source.textContent;
  root.prepend(copy);
}

/** frappe-charts prints axis steps such as 0.07500000000000001: keep three decimals at most. */
function tidyYAxis(el: HTMLElement) {
  for (const t of el.querySelectorAll('.y.axis text')) {
    const raw = t.textContent ?? '';
    const value = Number(raw);
    if (!raw || !Number.isFinite(value)) continue;
    const tidy = String(Math.round(value * 1000) / 1000);
    if (tidy !== raw) t.textContent = tidy;
  }
}

/**
 * The chart reads in the language's direction: in Arabic the days run from right to left (the newest at
 * the left), as a time axis does in a right-to-left language; the table keeps the days in order.
 */
export function DailyChart({ days, color = '#3730a3' }: { days: readonly DayPoint[]; color?: string }) {
  const { t, locale, dir } = useI18n();
  const ref = useRef<HTMLDivElement>(null);
  const chart = useRef<Chart | null>(null);
  const labels = days.map((d) => dayLabel(d.date, locale));
  const values = days.map((d) => chartHours(d.timespent));
  const drawn =
    dir === 'rtl' ? { labels: [...labels].reverse(), values: [...values].reverse() } : { labels, values };
  const hours = t('chart.hours');
  const key = `${drawn.labels.join()}|${drawn.values.join()}|${hours}`;

  // biome-ignore lint/correctness/useExhaustiveDependencies: the key stands for labels and values
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    adoptChartStyles(el);
    const data = { labels: drawn.labels, datasets: [{ name: hours, values: drawn.values }] };
    if (chart.current) {
      chart.current.update(data);
      return;
    }
    chart.current = new Chart(el, {
      type: 'bar',
      data,
      height: 240,
      colors: [color],
      barOptions: { spaceRatio: 0.4 },
      // small days stay readable next to big ones
      valuesOverPoints: 1,
      axisOptions: { xAxisMode: 'tick', yAxisMode: 'span', xIsSeries: true },
      tooltipOptions: { formatTooltipY: (v) => t('chart.tooltip', { hours: v }) },
    });
  }, [key, color]);

  useEffect(() => {
    const el = ref.current;
    if (!el || typeof MutationObserver === 'undefined') return;
    // the chart redraws itself (resizes, updates): tidy every drawing
    const observer = new MutationObserver(() => tidyYAxis(el));
    observer.observe(el, { subtree: true, childList: true, characterData: true });
    return () => observer.disconnect();
  }, []);

  useEffect(
    () => () => {
      const c = chart.current as (Chart & { destroy?: () => void }) | null;
      try {
        c?.destroy?.();
      } catch {
        // already gone
      }
      chart.current = null;
      if (ref.current) ref.current.innerHTML = '';
    },
    [],
  );

  return (
    <figure className="wm-chart" part="chart">
      <figcaption>
        <h2>{t('chart.title')}</h2>
        <span className="muted">{t('chart.subtitle')}</span>
      </figcaption>
      <div ref={ref} className="wm-chart-canvas" aria-hidden="true" />
      {/* hidden by a wrapper: a table sizes to its content, whatever width it is given */}
      <div className="visually-hidden">
        <table>
          <caption>{t('chart.caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('chart.day')}</th>
              <th scope="col">{hours}</th>
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
