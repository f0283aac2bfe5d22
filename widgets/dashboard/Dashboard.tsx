/**
 * The learner's dashboard (learner §2): the date range (Yesterday, Past 7 days, Last 28 Days — all ending at
 * the end of yesterday, UTC), the current resource cards with their Assessment action (or the Install
 * prompt without the extension), the average learning time, the daily chart and the Resource-wise Report.
 * It loads its own data through the client it is given; it tells its host about an assessment started
 * through `onAssessmentStart` (the custom element fires `wm-assessment-start`).
 */
import type { Client } from '@shared/client/client';
import {
  DATE_RANGES,
  DAYS_IN_RANGE,
  type DateRangeName,
  DEFAULT_DATE_RANGE,
  dateRange,
} from '@shared/rules/date-ranges';
import { averagePerDay, formatDuration, spokenDuration } from '@shared/rules/durations';
import { totalPages } from '@shared/rules/pager';
import type { DashboardCard } from '@shared/schemas/activity';
import { extensionReady, extensionStatus } from '@widgets/core/extension';
import { messageOf, useCall } from '@widgets/core/useCall';
import { useSignalValue } from '@widgets/core/useSignal';
import { Loader } from '@widgets/ui/Loader';
import { Pager } from '@widgets/ui/Pager';
import { useEffect, useId, useState } from 'react';
import { activityCalls } from '../activity/calls';
import type { StoreUrls } from '../activity/ExtensionGate';
import { DailyChart } from './DailyChart';
import './dashboard.css';
import { DashboardProps as DashboardPropsSchema } from './props';
import { ResourceCards } from './ResourceCards';

export const REPORT_PAGE_SIZE = 5;

export interface DashboardProps {
  /** The client of the signed-in learner (the portal's, or the element's). */
  client: Client;
  /** The date range shown first (Past 7 days when absent). */
  range?: DateRangeName;
  /** Where Waymark's pages live, for the test page of an assessment ('' in the portal). */
  portalUrl?: string;
  storeUrls?: StoreUrls;
  /**
   * Starts the assessment of a card once the learner confirmed. By default: POST /testlink/create (type
   * RESOURCE), then /test/{testLinkId} in a new tab. Resolves to the test link id.
   */
  onAssessmentStart?: (card: DashboardCard) => Promise<string | undefined> | undefined;
}

/** The default: create the RESOURCE test link and open the test in a new tab (opened at the click). */
export async function startResourceAssessment(
  client: Client,
  card: DashboardCard,
  portalUrl = '',
): Promise<string | undefined> {
  const tab = typeof window !== 'undefined' ? window.open('', '_blank') : null;
  try {
    const res = await client.call(activityCalls.createTestLink, {
      body: {
        type: 'RESOURCE',
        assignedRoadmapId: card.roadmapId,
        sectionId: card.sectionId,
        resourceId: card.resourceId,
      },
    });
    const url = `${portalUrl.replace(/\/$/, '')}/test/${encodeURIComponent(res.data.testLinkId)}`;
    if (tab) {
      tab.opener = null;
      tab.location.href = url;
    } else if (typeof window !== 'undefined') window.open(url, '_blank', 'noopener');
    return res.data.testLinkId;
  } catch (err) {
    // learner §8: starting an assessment fails → 'Something went wrong' is only logged
    tab?.close();
    console.error('Something went wrong', err);
    return undefined;
  }
}

export function Dashboard(props: DashboardProps) {
  const initialRange = DashboardPropsSchema.parse({ range: props.range }).range ?? DEFAULT_DATE_RANGE;
  const portalUrl = props.portalUrl ?? '';
  const { client } = props;
  const [range, setRange] = useState<DateRangeName>(initialRange);
  const [page, setPage] = useState(1);
  const rangeId = useId();
  const { startTime, endTime } = dateRange(range);
  const ext = useSignalValue(extensionStatus);
  useEffect(() => {
    if (!ext.isChecked) void extensionReady();
  }, [ext.isChecked]);

  const daily = useCall(
    (signal) =>
      client
        .call(activityCalls.timeSpentByUserDaywise, { query: { startTime, endTime }, signal })
        .then((r) => r.data),
    [client, startTime, endTime],
  );
  const report = useCall(
    (signal) =>
      client
        .call(activityCalls.timeSpentOnResourceByUser, {
          query: { startTime, endTime, skip: page, limit: REPORT_PAGE_SIZE },
          signal,
        })
        .then((r) => r.data),
    [client, startTime, endTime, page],
  );
  const cards = useCall(
    (signal) => client.call(activityCalls.getCurrentResource, { signal }).then((r) => r.data),
    [client],
  );

  const total = (daily.data ?? []).reduce((sum, d) => sum + d.timespent, 0);
  const average = averagePerDay(total, DAYS_IN_RANGE[range]);
  const pages = totalPages(report.data?.totalCount ?? 0, REPORT_PAGE_SIZE);

  return (
    <div className="wm-dashboard" part="dashboard">
      <div className="wm-dashboard-head">
        <h1>Dashboard</h1>
        <div className="field wm-range">
          <label htmlFor={rangeId}>Date range</label>
          <select
            id={rangeId}
            className="input"
            value={range}
            onChange={(e) => {
              setRange(e.target.value as DateRangeName);
              setPage(1);
            }}
          >
            {DATE_RANGES.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </div>
      </div>

      <section aria-labelledby={`${rangeId}-cards`} className="wm-section">
        <h2 id={`${rangeId}-cards`}>Current resources</h2>
        {cards.loading && !cards.data ? (
          <Loader />
        ) : cards.error ? (
          <p role="alert" className="alert alert-error">
            {messageOf(cards.error)}
          </p>
        ) : (
          <ResourceCards
            cards={cards.data ?? []}
            extensionPresent={ext.isPresent}
            storeUrls={props.storeUrls}
            client={client}
            onStart={(card) =>
              props.onAssessmentStart
                ? props.onAssessmentStart(card)
                : startResourceAssessment(client, card, portalUrl)
            }
          />
        )}
      </section>

      <section className="card wm-average" aria-live="polite">
        <h2>Average learning time</h2>
        {daily.loading && !daily.data ? (
          <Loader />
        ) : daily.error ? (
          <p role="alert">{messageOf(daily.error)}</p>
        ) : (
          <p>
            <strong className="wm-average-value" title={spokenDuration(average)}>
              {formatDuration(average)}
            </strong>{' '}
            <span className="muted">
              a day over {range === 'Yesterday' ? 'yesterday' : range.toLowerCase()} ({formatDuration(total)}{' '}
              in all)
            </span>
          </p>
        )}
      </section>

      <section className="card">
        {daily.data ? <DailyChart days={daily.data} /> : daily.loading ? <Loader /> : null}
      </section>

      <section className="card" aria-labelledby={`${rangeId}-report`}>
        <h2 id={`${rangeId}-report`}>Resource-wise Report</h2>
        {report.error ? (
          <p role="alert" className="alert alert-error">
            {messageOf(report.error)}
          </p>
        ) : report.loading && !report.data ? (
          <Loader />
        ) : (
          <>
            <div className="table-wrap">
              <table className="table">
                <thead>
                  <tr>
                    <th scope="col">#</th>
                    <th scope="col">Resource Title</th>
                    <th scope="col">Watch Time</th>
                  </tr>
                </thead>
                <tbody>
                  {(report.data?.timeSpentOnResource.length ?? 0) === 0 ? (
                    <tr>
                      <td colSpan={3} className="empty">
                        No Data Found
                      </td>
                    </tr>
                  ) : (
                    report.data?.timeSpentOnResource.map((row, i) => (
                      <tr key={row.resource._id}>
                        <td>{(page - 1) * REPORT_PAGE_SIZE + i + 1}</td>
                        <td>{row.resource.userTitle}</td>
                        <td>
                          <span title={spokenDuration(row.timespent)}>{formatDuration(row.timespent)}</span>
                        </td>
                      </tr>
                    ))
                  )}
                </tbody>
              </table>
            </div>
            <Pager page={page} totalPages={pages} onChange={setPage} label="Resource-wise Report pages" />
          </>
        )}
      </section>
    </div>
  );
}

export default Dashboard;
