/**
 * The learning-time pieces of a dashboard (learner §2 Dashboard, mentor §2.5 Analytics): the date-range
 * choice, the average learning time, the daily chart and the Resource-wise Report, 5 a page. They read
 * their figures through a `LearningTimeSource`, so the learner's dashboard (its own reports) and a mentor's
 * analytics of one learner (the tenant reports of that learner) show the same things the same way.
 * Types only from shared/: the embed build keeps zod out of the element files.
 */
import type { LearningDays, SubjectTime } from '@shared/contract/activity';
import type { DateRangeName, TimeRange } from '@shared/rules/date-ranges';
import { DATE_RANGES, DAYS_IN_RANGE } from '@shared/rules/date-ranges';
import { averagePerDay, formatDuration, spokenDuration } from '@shared/rules/durations';
import { totalPages } from '@shared/rules/pager';
import { type CallState, useCall } from '@widgets/core/useCall';
import { Loader } from '@widgets/ui/Loader';
import { LoadFailed } from '@widgets/ui/LoadFailed';
import { Pager } from '@widgets/ui/Pager';
import type { ReactNode } from 'react';
import { useI18n } from '../core/i18n';
import { DailyChart, type DayPoint } from './DailyChart';

export const REPORT_PAGE_SIZE = 5;

export interface ResourceTimeRow {
  resource: { _id: string; userTitle: string };
  timespent: number;
}
export interface ResourceTimePage {
  timeSpentOnResource: ResourceTimeRow[];
  totalCount: number;
}

/** Where the figures come from: the learner's own reports, or a tenant's reports of one learner. */
export interface LearningTimeSource {
  /** The heatmap of the last 12 months and the streaks. */
  learningDays: (signal: AbortSignal) => Promise<LearningDays>;
  /** Seconds per subject and topic over the range. */
  topics: (range: TimeRange, signal: AbortSignal) => Promise<SubjectTime[]>;
  /** Seconds per UTC day of the range, one entry per day. */
  daily: (range: TimeRange, signal: AbortSignal) => Promise<DayPoint[]>;
  /** One page of seconds per resource; `skip` is the page number from 1. */
  report: (
    query: TimeRange & { skip: number; limit: number },
    signal: AbortSignal,
  ) => Promise<ResourceTimePage>;
}

/** Loads the daily figures and the report page of a range. `source` must be stable (useMemo). */
export function useLearningTime(source: LearningTimeSource, range: TimeRange, page: number) {
  const { startTime, endTime } = range;
  const daily = useCall(
    (signal) => source.daily({ startTime, endTime }, signal),
    [source, startTime, endTime],
  );
  const report = useCall(
    (signal) => source.report({ startTime, endTime, skip: page, limit: REPORT_PAGE_SIZE }, signal),
    [source, startTime, endTime, page],
  );
  const days = useCall((signal) => source.learningDays(signal), [source]);
  const topics = useCall(
    (signal) => source.topics({ startTime, endTime }, signal),
    [source, startTime, endTime],
  );
  return { daily, report, days, topics };
}

/** Each date range as the selects of the messages name it. */
export const RANGE_KEYS: Record<DateRangeName, 'yesterday' | 'past7' | 'last28'> = {
  Yesterday: 'yesterday',
  'Past 7 days': 'past7',
  'Last 28 Days': 'last28',
};

/** The date-range choice: Yesterday, Past 7 days, Last 28 Days (the values as the API and attributes name them). */
export function RangeSelect({
  id,
  value,
  onChange,
}: {
  id: string;
  value: DateRangeName;
  onChange: (range: DateRangeName) => void;
}) {
  const { t } = useI18n();
  return (
    <div className="field wm-range">
      <label htmlFor={id}>{t('range.label')}</label>
      <select
        id={id}
        className="input"
        value={value}
        onChange={(e) => onChange(e.target.value as DateRangeName)}
      >
        {DATE_RANGES.map((r) => (
          <option key={r} value={r}>
            {t('range.name', { range: RANGE_KEYS[r] })}
          </option>
        ))}
      </select>
    </div>
  );
}

/** 'Average learning time': the range's seconds per day, and the total. */
export function AverageLearningTime({
  daily,
  range,
}: {
  daily: CallState<DayPoint[]>;
  range: DateRangeName;
}) {
  const { t, locale } = useI18n();
  const total = (daily.data ?? []).reduce((sum, d) => sum + d.timespent, 0);
  const average = averagePerDay(total, DAYS_IN_RANGE[range]);
  return (
    <section className="card wm-average" aria-live="polite">
      <h2>{t('dashboard.average')}</h2>
      {daily.loading && !daily.data ? (
        <Loader />
      ) : daily.error ? (
        <LoadFailed error={daily.error} className="" />
      ) : (
        <p>
          <strong className="wm-average-value" title={spokenDuration(average, locale)}>
            {formatDuration(average, locale)}
          </strong>{' '}
          <span className="muted">
            {t('dashboard.averageOver', { range: RANGE_KEYS[range], total: formatDuration(total, locale) })}
          </span>
        </p>
      )}
    </section>
  );
}

/** The daily chart 'Your Daily Time spent on Learning' in its card. */
export function DailyChartCard({ daily }: { daily: CallState<DayPoint[]> }) {
  return (
    <section className="card">
      {daily.data ? <DailyChart days={daily.data} /> : daily.loading ? <Loader /> : null}
    </section>
  );
}

/** An extra column of the Resource-wise Report (the mentor's 'View report'). */
export interface ReportAction {
  header: string;
  render: (row: ResourceTimeRow) => ReactNode;
}

/** 'Resource-wise Report' (#, Resource Title, Watch Time), 5 a page, rows numbered across pages. */
export function ResourceReport({
  id,
  report,
  page,
  onPage,
  action,
  toolbar,
}: {
  /** The heading's id. */
  id: string;
  /** Beside the heading (the mentor's Download CSV). */
  toolbar?: ReactNode;
  report: CallState<ResourceTimePage>;
  page: number;
  onPage: (page: number) => void;
  action?: ReportAction;
}) {
  const { t, locale } = useI18n();
  const pages = totalPages(report.data?.totalCount ?? 0, REPORT_PAGE_SIZE);
  const columns = action ? 4 : 3;
  return (
    <section className="card" aria-labelledby={id}>
      <div className="card-head">
        <h2 id={id}>{t('report.title')}</h2>
        {toolbar}
      </div>
      {report.error ? (
        <LoadFailed error={report.error} />
      ) : report.loading && !report.data ? (
        <Loader />
      ) : (
        <>
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">#</th>
                  <th scope="col">{t('report.resourceTitle')}</th>
                  <th scope="col">{t('report.watchTime')}</th>
                  {action ? <th scope="col">{action.header}</th> : null}
                </tr>
              </thead>
              <tbody>
                {(report.data?.timeSpentOnResource.length ?? 0) === 0 ? (
                  <tr>
                    <td colSpan={columns} className="empty">
                      {t('common.noData')}
                    </td>
                  </tr>
                ) : (
                  report.data?.timeSpentOnResource.map((row, i) => (
                    <tr key={row.resource._id}>
                      <td data-label="#">{(page - 1) * REPORT_PAGE_SIZE + i + 1}</td>
                      <td data-label={t('report.resourceTitle')}>{row.resource.userTitle}</td>
                      <td data-label={t('report.watchTime')}>
                        <span title={spokenDuration(row.timespent, locale)}>
                          {formatDuration(row.timespent, locale)}
                        </span>
                      </td>
                      {action ? <td data-label={action.header}>{action.render(row)}</td> : null}
                    </tr>
                  ))
                )}
              </tbody>
            </table>
          </div>
          <Pager page={page} totalPages={pages} onChange={onPage} label={t('report.pages')} />
        </>
      )}
    </section>
  );
}
