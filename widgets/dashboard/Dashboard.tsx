/**
 * The learner's dashboard (learner §2): the date range (Yesterday, Past 7 days, Last 28 Days — all ending at
 * the end of yesterday, UTC), the current resource cards with their Assessment action (or the Install
 * prompt without the extension), the average learning time, the daily chart and the Resource-wise Report.
 * It loads its own data through the client it is given; it tells its host about an assessment started
 * through `onAssessmentStart` (the custom element fires `wm-assessment-start`).
 */
import type { Client } from '@shared/client/client';
import * as Activity from '@shared/contract/activity';
import * as Assessments from '@shared/contract/assessments';
import { type DateRangeName, DEFAULT_DATE_RANGE, dateRange } from '@shared/rules/date-ranges';
import { retakeOpensAtOf } from '@shared/rules/retakes';
import type { DashboardCard } from '@shared/schemas/activity';
import { extensionReady, extensionStatus } from '@widgets/core/extension';
import { useCall } from '@widgets/core/useCall';
import { useSignalValue } from '@widgets/core/useSignal';
import { Loader } from '@widgets/ui/Loader';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { StoreUrls } from '../activity/ExtensionGate';
import './dashboard.css';
import { LoadFailed } from '@widgets/ui/LoadFailed';
import { Slot } from '../embed/host';
import { LearningDaysCard, TopicTimeCard } from './LearningDays';
import {
  AverageLearningTime,
  DailyChartCard,
  type LearningTimeSource,
  RangeSelect,
  ResourceReport,
  rangeLabel,
  useLearningTime,
} from './LearningTime';
import { DashboardProps as DashboardPropsSchema } from './props';
import { ResourceCards } from './ResourceCards';

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
   * RESOURCE), then /test/{testLinkId} in a new tab. Resolves to the test link id; rejects with the API's
   * error when a failed test's retake is not open yet (RETAKE_COOLDOWN), which the card then tells.
   */
  onAssessmentStart?: (card: DashboardCard) => Promise<string | undefined> | undefined;
  /**
   * Whether the extension is there, where it cannot be asked (the element on a partner's origin, which the
   * extension's content script does not run on); by default the extension is asked.
   */
  extensionPresent?: boolean;
  /**
   * Told once, when the first load of the current resources and the daily figures has settled: with what
   * failed first, or null once both are drawn (the element's wm-ready or wm-error).
   */
  onSettled?: (error: unknown) => void;
}

/** The default: create the RESOURCE test link and open the test in a new tab (opened at the click). */
export async function startResourceAssessment(
  client: Client,
  card: DashboardCard,
  portalUrl = '',
): Promise<string | undefined> {
  const tab = typeof window !== 'undefined' ? window.open('', '_blank') : null;
  try {
    const res = await client.call(Assessments.createTestLink, {
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
    tab?.close();
    // a retake not open yet is told on the card, with the time it opens
    if (retakeOpensAtOf(err)) throw err;
    // learner §8: starting an assessment fails → 'Something went wrong' is only logged
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
  const ext = useSignalValue(extensionStatus);
  const known = props.extensionPresent;
  useEffect(() => {
    if (known === undefined && !ext.isChecked) void extensionReady();
  }, [known, ext.isChecked]);

  const source = useMemo(() => learnerSource(client), [client]);
  const { daily, report, days, topics } = useLearningTime(source, dateRange(range), page);
  const cards = useCall(
    (signal) => client.call(Activity.getCurrentResource, { signal }).then((r) => r.data),
    [client],
  );
  const settled = useRef(false);
  const onSettled = useRef(props.onSettled);
  onSettled.current = props.onSettled;
  useEffect(() => {
    if (settled.current) return;
    const error = cards.error ?? daily.error;
    if (!error && !(cards.data && daily.data)) return;
    settled.current = true;
    onSettled.current?.(error);
  }, [cards.error, cards.data, daily.error, daily.data]);

  return (
    <div className="wm-dashboard" part="dashboard">
      <div className="wm-dashboard-head">
        <h1>
          <Slot name="heading">Dashboard</Slot>
        </h1>
        <RangeSelect
          id={rangeId}
          value={range}
          onChange={(r) => {
            setRange(r);
            setPage(1);
          }}
        />
      </div>

      <section aria-labelledby={`${rangeId}-cards`} className="wm-section">
        <h2 id={`${rangeId}-cards`}>Current resources</h2>
        {cards.loading && !cards.data ? (
          <Loader />
        ) : cards.error ? (
          <LoadFailed error={cards.error} />
        ) : (
          <ResourceCards
            cards={cards.data ?? []}
            extensionPresent={known ?? ext.isPresent}
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

      <AverageLearningTime daily={daily} range={range} />
      <DailyChartCard daily={daily} />
      <LearningDaysCard state={days} />
      <TopicTimeCard state={topics} rangeLabel={rangeLabel(range)} />
      <ResourceReport id={`${rangeId}-report`} report={report} page={page} onPage={setPage} />
    </div>
  );
}

/** The signed-in learner's own reports. */
export function learnerSource(client: Client): LearningTimeSource {
  return {
    daily: (range, signal) =>
      client.call(Activity.timeSpentByUserDaywise, { query: range, signal }).then((r) => r.data),
    report: (query, signal) =>
      client.call(Activity.timeSpentOnResourceByUser, { query, signal }).then((r) => r.data),
    learningDays: (signal) => client.call(Activity.learningDays, { signal }).then((r) => r.data),
    topics: (range, signal) =>
      client.call(Activity.timeSpentByTopic, { query: range, signal }).then((r) => r.data),
  };
}
