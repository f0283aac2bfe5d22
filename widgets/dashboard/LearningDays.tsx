/**
 * Learning days and time per topic (learner §2 dashboard, mentor §2.5 analytics; the rules are
 * shared/rules/learning-days.ts): the calendar heatmap of the last 12 months (minutes per UTC day), the
 * current and longest streak of learning days, the month-by-month figures as a table (the heatmap's
 * words for screen readers and keyboards), and the time per subject and topic over the chosen range.
 * Types only from shared/: the embed build keeps zod out of the element files.
 */
import type { LearningDays, SubjectTime } from '@shared/contract/activity';
import { formatDuration, spokenDuration } from '@shared/rules/durations';
import { MONTH_NAMES } from '@shared/rules/format-date';
import { HEAT_LEGEND, type HeatCell, heatmapWeeks, isoDayOf } from '@shared/rules/learning-days';
import type { CallState } from '@widgets/core/useCall';
import { Loader } from '@widgets/ui/Loader';
import { LoadFailed } from '@widgets/ui/LoadFailed';
import { useId, useMemo, useState } from 'react';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** Whole class names: the embed build keeps only the CSS rules whose class names its code spells out. */
const HEAT_CLASS = ['wm-heat-0', 'wm-heat-1', 'wm-heat-2', 'wm-heat-3', 'wm-heat-4'] as const;
const CELL = 11;
const STEP = 13;
const LEFT = 26;
const TOP = 14;

const days = (n: number) => `${n} ${n === 1 ? 'day' : 'days'}`;
const dayLabel = (iso: string) => {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  return `${d} ${MONTHS[m - 1]} ${y}`;
};
const minutesLabel = (seconds: number) =>
  seconds < 60
    ? seconds > 0
      ? 'under a minute'
      : 'no learning'
    : spokenDuration(Math.round(seconds / 60) * 60);

function Heatmap({ data }: { data: LearningDays }) {
  const range = { from: isoDayOf(data.from * 1000), to: isoDayOf(data.to * 1000) };
  const seconds = new Map(data.days.map((d) => [isoDayOf(d.date * 1000), d.timespent]));
  const weeks = heatmapWeeks(range, seconds);
  const [hovered, setHovered] = useState<HeatCell | null>(null);
  const width = LEFT + weeks.length * STEP;
  const height = TOP + 7 * STEP;
  // a month's name above the week holding its first day
  const labels: { x: number; text: string }[] = [];
  // one path of squares per shade: five elements for a year of days
  const paths = ['', '', '', '', ''];
  weeks.forEach((week, w) => {
    const first = week.find((c) => c?.date.endsWith('-01'));
    if (first) labels.push({ x: LEFT + w * STEP, text: MONTHS[Number(first.date.slice(5, 7)) - 1]! });
    week.forEach((cell, d) => {
      if (cell) paths[cell.level] += `M${LEFT + w * STEP} ${TOP + d * STEP}h${CELL}v${CELL}h-${CELL}z`;
    });
  });
  const pointAt = (e: { clientX: number; clientY: number; currentTarget: Element }) => {
    const box = e.currentTarget.getBoundingClientRect();
    if (!box.width) return null;
    const x = ((e.clientX - box.left) * width) / box.width;
    const y = ((e.clientY - box.top) * height) / box.height;
    const w = Math.floor((x - LEFT) / STEP);
    const d = Math.floor((y - TOP) / STEP);
    return weeks[w]?.[d] ?? null;
  };
  return (
    <>
      <svg
        className="wm-heatmap"
        viewBox={`0 0 ${width} ${height}`}
        style={{ maxWidth: `${Math.round(width * 1.4)}px` }}
        role="img"
        aria-label={`Learning days from ${dayLabel(range.from)} to ${dayLabel(range.to)}: ${days(data.learningDays)} with learning, ${spokenDuration(data.totalSeconds)} in all. The table below has the figures by month.`}
        onMouseMove={(e) => setHovered(pointAt(e))}
        onMouseLeave={() => setHovered(null)}
      >
        {labels.map((l) => (
          <text key={l.x} x={l.x} y={10} className="wm-heat-label">
            {l.text}
          </text>
        ))}
        {['Mon', 'Wed', 'Fri'].map((d, i) => (
          <text key={d} x={0} y={TOP + (i * 2 + 1) * STEP - 3} className="wm-heat-label">
            {d}
          </text>
        ))}
        {paths.map((d, level) =>
          d ? <path key={HEAT_CLASS[level]} d={d} className={HEAT_CLASS[level]} /> : null,
        )}
      </svg>
      <p className="wm-heat-hover muted" aria-hidden="true">
        {hovered ? `${dayLabel(hovered.date)}: ${minutesLabel(hovered.seconds)}` : '\u00a0'}
      </p>
    </>
  );
}

/** The heatmap's figures by month, newest first. */
function MonthTable({ data }: { data: LearningDays }) {
  const months = new Map<string, { learning: number; seconds: number }>();
  for (const d of data.days) {
    const key = isoDayOf(d.date * 1000).slice(0, 7);
    const m = months.get(key) ?? { learning: 0, seconds: 0 };
    m.seconds += d.timespent;
    if (d.timespent >= data.thresholdSeconds) m.learning++;
    months.set(key, m);
  }
  const rows = [...months].sort((a, b) => (a[0] < b[0] ? 1 : -1));
  return (
    <details className="wm-heat-months">
      <summary>Learning by month</summary>
      {rows.length === 0 ? (
        <p className="muted">No learning in these 12 months yet.</p>
      ) : (
        <div className="table-wrap">
          <table className="table">
            <caption className="visually-hidden">Learning days and time by month</caption>
            <thead>
              <tr>
                <th scope="col">Month</th>
                <th scope="col">Learning days</th>
                <th scope="col">Time</th>
              </tr>
            </thead>
            <tbody>
              {rows.map(([key, m]) => (
                <tr key={key}>
                  <th scope="row">
                    {MONTH_NAMES[Number(key.slice(5)) - 1]} {key.slice(0, 4)}
                  </th>
                  <td>{m.learning}</td>
                  <td>
                    <span title={spokenDuration(m.seconds)}>{formatDuration(m.seconds)}</span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </details>
  );
}

export function LearningDaysCard({ state }: { state: CallState<LearningDays> }) {
  const id = useId();
  const data = state.data;
  // a year of squares is redrawn only when its figures change, not with every change of the dashboard
  const heatmap = useMemo(() => (data ? <Heatmap data={data} /> : null), [data]);
  return (
    <section className="card wm-learning-days" aria-labelledby={id} part="learning-days">
      <h2 id={id}>Learning days</h2>
      {state.error ? (
        <LoadFailed error={state.error} />
      ) : !data ? (
        <Loader />
      ) : (
        <>
          <dl className="wm-streaks">
            <div>
              <dt>Current streak</dt>
              <dd>{days(data.currentStreak)}</dd>
            </div>
            <div>
              <dt>Longest streak</dt>
              <dd>{days(data.longestStreak)}</dd>
            </div>
            <div>
              <dt>Learning days in 12 months</dt>
              <dd>{data.learningDays}</dd>
            </div>
            <div>
              <dt>Time in 12 months</dt>
              <dd>
                <span title={spokenDuration(data.totalSeconds)}>{formatDuration(data.totalSeconds)}</span>
              </dd>
            </div>
          </dl>
          {heatmap}
          <p className="wm-heat-legend muted">
            <span>Less</span>
            {HEAT_CLASS.map((c, i) => (
              <svg key={c} viewBox="0 0 11 11" className="wm-heat-key" role="img" aria-label={HEAT_LEGEND[i]}>
                <rect width={11} height={11} rx={2} className={c} />
              </svg>
            ))}
            <span>More</span>
            <span className="wm-heat-note">A learning day has at least a minute of learning (UTC days).</span>
          </p>
          <MonthTable data={data} />
        </>
      )}
    </section>
  );
}

export function TopicTimeCard({
  state,
  rangeLabel,
}: {
  state: CallState<SubjectTime[]>;
  /** 'past 7 days', … */
  rangeLabel: string;
}) {
  const id = useId();
  const list = state.data ?? [];
  const top = Math.max(1, ...list.map((s) => s.timespent));
  return (
    <section className="card wm-topics" aria-labelledby={id} part="topics">
      <h2 id={id}>Time per subject and topic</h2>
      <p className="muted">Over {rangeLabel}.</p>
      {state.error ? (
        <LoadFailed error={state.error} />
      ) : state.loading && !state.data ? (
        <Loader />
      ) : list.length === 0 ? (
        <p className="empty">No Data Found</p>
      ) : (
        <ul className="wm-topic-list">
          {list.map((s) => (
            <li key={s.subject?._id ?? 'none'}>
              <div className="wm-topic-row">
                <strong>{s.subject?.name ?? 'Other resources'}</strong>
                <span title={spokenDuration(s.timespent)}>{formatDuration(s.timespent)}</span>
              </div>
              <div className="wm-topic-bar" aria-hidden="true">
                <span style={{ width: `${Math.max(2, (100 * s.timespent) / top)}%` }} />
              </div>
              <ul className="wm-topic-sub">
                {s.topics.map((t) => (
                  <li key={t.topic?._id ?? 'none'} className="wm-topic-row">
                    <span>{t.topic?.name ?? 'No topic'}</span>
                    <span title={spokenDuration(t.timespent)}>{formatDuration(t.timespent)}</span>
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
