/**
 * Learning days and time per topic (learner §2 dashboard, mentor §2.5 analytics; the rules are
 * shared/rules/learning-days.ts): the calendar heatmap of the last 12 months (minutes per UTC day), the
 * current and longest streak of learning days, the month-by-month figures as a table (the heatmap's
 * words for screen readers and keyboards), and the time per subject and topic over the chosen range.
 * Types only from shared/: the embed build keeps zod out of the element files.
 */
import type { LearningDays, SubjectTime } from '@shared/contract/activity';
import type { Translator } from '@shared/i18n/translator';
import type { DateRangeName } from '@shared/rules/date-ranges';
import { formatDuration, spokenDuration } from '@shared/rules/durations';
import { monthNames } from '@shared/rules/format-date';
import { HEAT_LEGEND, type HeatCell, heatmapWeeks, isoDayOf } from '@shared/rules/learning-days';
import { useI18n } from '@widgets/core/i18n';
import type { CallState } from '@widgets/core/useCall';
import { Loader } from '@widgets/ui/Loader';
import { LoadFailed } from '@widgets/ui/LoadFailed';
import { useId, useMemo, useState } from 'react';
import { RANGE_KEYS } from './LearningTime';

/** Whole class names: the embed build keeps only the CSS rules whose class names its code spells out. */
const HEAT_CLASS = ['wm-heat-0', 'wm-heat-1', 'wm-heat-2', 'wm-heat-3', 'wm-heat-4'] as const;
const CELL = 11;
const STEP = 13;
const LEFT = 26;
const TOP = 14;

/** A UTC day, '3 Mar 2026' as the language writes it. */
const dayLabel = (iso: string, locale: string) =>
  new Intl.DateTimeFormat(locale, {
    timeZone: 'UTC',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
  }).format(Date.parse(`${iso}T00:00:00Z`));
/** The months' short names (Jan…), and Monday, Wednesday and Friday's, in the language. */
const shortMonths = (locale: string) => {
  const f = new Intl.DateTimeFormat(locale, { month: 'short', timeZone: 'UTC' });
  return Array.from({ length: 12 }, (_, m) => f.format(Date.UTC(2024, m, 15)));
};
const shortWeekdays = (locale: string) => {
  const f = new Intl.DateTimeFormat(locale, { weekday: 'short', timeZone: 'UTC' });
  // 2024-01-01 was a Monday
  return [1, 3, 5].map((d) => f.format(Date.UTC(2024, 0, d)));
};
const minutesLabel = (seconds: number, { t, locale }: Translator) =>
  seconds < 60
    ? seconds > 0
      ? t('days.underAMinute')
      : t('days.noLearning')
    : spokenDuration(Math.round(seconds / 60) * 60, locale);

/**
 * The heatmap: a column per week, oldest first in the reading direction (right to left in Arabic, as a
 * time axis reads in a right-to-left language), with the months' names above and three days' names beside.
 */
function Heatmap({ data }: { data: LearningDays }) {
  const i18n = useI18n();
  const { t, locale, dir } = i18n;
  const months = shortMonths(locale);
  const range = { from: isoDayOf(data.from * 1000), to: isoDayOf(data.to * 1000) };
  const seconds = new Map(data.days.map((d) => [isoDayOf(d.date * 1000), d.timespent]));
  const weeks = heatmapWeeks(range, seconds);
  const [hovered, setHovered] = useState<HeatCell | null>(null);
  const width = LEFT + weeks.length * STEP;
  const height = TOP + 7 * STEP;
  const rtl = dir === 'rtl';
  // a week's column and the days' labels, mirrored right to left
  const columnX = (w: number) => (rtl ? width - LEFT - (w + 1) * STEP + (STEP - CELL) : LEFT + w * STEP);
  const labelX = rtl ? width : 0;
  // a month's name above the week holding its first day
  const labels: { x: number; text: string }[] = [];
  // one path of squares per shade: five elements for a year of days
  const paths = ['', '', '', '', ''];
  weeks.forEach((week, w) => {
    const first = week.find((c) => c?.date.endsWith('-01'));
    if (first)
      labels.push({
        x: rtl ? columnX(w) + CELL : columnX(w),
        text: months[Number(first.date.slice(5, 7)) - 1]!,
      });
    week.forEach((cell, d) => {
      if (cell) paths[cell.level] += `M${columnX(w)} ${TOP + d * STEP}h${CELL}v${CELL}h-${CELL}z`;
    });
  });
  const pointAt = (e: { clientX: number; clientY: number; currentTarget: Element }) => {
    const box = e.currentTarget.getBoundingClientRect();
    if (!box.width) return null;
    const x = ((e.clientX - box.left) * width) / box.width;
    const y = ((e.clientY - box.top) * height) / box.height;
    const w = rtl ? Math.floor((width - LEFT - x) / STEP) : Math.floor((x - LEFT) / STEP);
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
        aria-label={t('days.heatmapLabel', {
          from: dayLabel(range.from, locale),
          to: dayLabel(range.to, locale),
          count: data.learningDays,
          total: spokenDuration(data.totalSeconds, locale),
        })}
        onMouseMove={(e) => setHovered(pointAt(e))}
        onMouseLeave={() => setHovered(null)}
      >
        {labels.map((l) => (
          <text key={l.x} x={l.x} y={10} className="wm-heat-label" text-anchor={rtl ? 'end' : 'start'}>
            {l.text}
          </text>
        ))}
        {shortWeekdays(locale).map((d, i) => (
          <text
            key={d}
            x={labelX}
            y={TOP + (i * 2 + 1) * STEP - 3}
            className="wm-heat-label"
            text-anchor={rtl ? 'end' : 'start'}
          >
            {d}
          </text>
        ))}
        {paths.map((d, level) =>
          d ? <path key={HEAT_CLASS[level]} d={d} className={HEAT_CLASS[level]} /> : null,
        )}
      </svg>
      <p className="wm-heat-hover muted" aria-hidden="true">
        {hovered
          ? t('days.hover', {
              day: dayLabel(hovered.date, locale),
              time: minutesLabel(hovered.seconds, i18n),
            })
          : '\u00a0'}
      </p>
    </>
  );
}

/** The heatmap's figures by month, newest first. */
function MonthTable({ data }: { data: LearningDays }) {
  const { t, locale } = useI18n();
  const names = monthNames(locale);
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
      <summary>{t('days.byMonth')}</summary>
      {rows.length === 0 ? (
        <p className="muted">{t('days.noneInYear')}</p>
      ) : (
        <div className="table-wrap">
          <table className="table">
            <caption className="visually-hidden">{t('days.byMonthCaption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('days.month')}</th>
                <th scope="col">{t('days.learningDays')}</th>
                <th scope="col">{t('days.time')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map(([key, m]) => (
                <tr key={key}>
                  <th scope="row">
                    {t('days.monthYear', { month: names[Number(key.slice(5)) - 1]!, year: key.slice(0, 4) })}
                  </th>
                  <td data-label={t('days.learningDays')}>{m.learning}</td>
                  <td data-label={t('days.time')}>
                    <span title={spokenDuration(m.seconds, locale)}>{formatDuration(m.seconds, locale)}</span>
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
  const { t, locale } = useI18n();
  const id = useId();
  const data = state.data;
  // a year of squares is redrawn only when its figures change, not with every change of the dashboard
  // biome-ignore lint/correctness/useExhaustiveDependencies: drawn again in another language too
  const heatmap = useMemo(() => (data ? <Heatmap data={data} /> : null), [data, locale]);
  return (
    <section className="card wm-learning-days" aria-labelledby={id} part="learning-days">
      <h2 id={id}>{t('days.title')}</h2>
      {state.error ? (
        <LoadFailed error={state.error} />
      ) : !data ? (
        <Loader />
      ) : (
        <>
          <dl className="wm-streaks">
            <div>
              <dt>{t('days.currentStreak')}</dt>
              <dd>{t('days.days', { count: data.currentStreak })}</dd>
            </div>
            <div>
              <dt>{t('days.longestStreak')}</dt>
              <dd>{t('days.days', { count: data.longestStreak })}</dd>
            </div>
            <div>
              <dt>{t('days.inYear')}</dt>
              <dd>{data.learningDays}</dd>
            </div>
            <div>
              <dt>{t('days.timeInYear')}</dt>
              <dd>
                <span title={spokenDuration(data.totalSeconds, locale)}>
                  {formatDuration(data.totalSeconds, locale)}
                </span>
              </dd>
            </div>
          </dl>
          {heatmap}
          <p className="wm-heat-legend muted">
            <span>{t('days.less')}</span>
            {HEAT_CLASS.map((c, i) => (
              <svg
                key={c}
                viewBox="0 0 11 11"
                className="wm-heat-key"
                role="img"
                aria-label={t(HEAT_LEGEND[i]!)}
              >
                <rect width={11} height={11} rx={2} className={c} />
              </svg>
            ))}
            <span>{t('days.more')}</span>
            <span className="wm-heat-note">{t('days.note')}</span>
          </p>
          <MonthTable data={data} />
        </>
      )}
    </section>
  );
}

export function TopicTimeCard({ state, range }: { state: CallState<SubjectTime[]>; range: DateRangeName }) {
  const { t, locale } = useI18n();
  const id = useId();
  const list = state.data ?? [];
  const top = Math.max(1, ...list.map((s) => s.timespent));
  return (
    <section className="card wm-topics" aria-labelledby={id} part="topics">
      <h2 id={id}>{t('topics.title')}</h2>
      <p className="muted">{t('topics.over', { range: RANGE_KEYS[range] })}</p>
      {state.error ? (
        <LoadFailed error={state.error} />
      ) : state.loading && !state.data ? (
        <Loader />
      ) : list.length === 0 ? (
        <p className="empty">{t('common.noData')}</p>
      ) : (
        <ul className="wm-topic-list">
          {list.map((s) => (
            <li key={s.subject?._id ?? 'none'}>
              <div className="wm-topic-row">
                <strong>{s.subject?.name ?? t('topics.otherResources')}</strong>
                <span title={spokenDuration(s.timespent, locale)}>{formatDuration(s.timespent, locale)}</span>
              </div>
              <div className="wm-topic-bar" aria-hidden="true">
                <span style={{ width: `${Math.max(2, (100 * s.timespent) / top)}%` }} />
              </div>
              <ul className="wm-topic-sub">
                {s.topics.map((topic) => (
                  <li key={topic.topic?._id ?? 'none'} className="wm-topic-row">
                    <span>{topic.topic?.name ?? t('topics.noTopic')}</span>
                    <span title={spokenDuration(topic.timespent, locale)}>
                      {formatDuration(topic.timespent, locale)}
                    </span>
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
