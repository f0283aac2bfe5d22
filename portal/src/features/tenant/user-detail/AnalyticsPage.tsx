/**
 * /portal/users/{userId}/analytics (mentor §2.5): 'Analytics Report' of one learner — the date ranges, the
 * average learning time, the counts FEATHER, BADGE and CERTIFICATE, the daily chart, the Resource-wise
 * Report (5 a page) whose 'View report' opens the resource's assessments, and the Assessment table whose
 * 'View Answers' opens /portal/users/{userId}/testlink/{linkId}. The learning-time pieces are the learner
 * dashboard's, reading the tenant's reports of this learner.
 */
import type { Client } from '@shared/client/client';
import {
  tenantGetResource,
  tenantLearningDays,
  tenantTestlinkList,
  tenantTimeSpentByTopic,
  tenantTimeSpentDaywise,
  tenantTimeSpentOnResource,
  tenantUserAchievements,
} from '@shared/contract/tenant';
import { tenantExportResourceReport, tenantExportTestlinks } from '@shared/contract/tenant-exports';
import type { MessageKey } from '@shared/i18n/keys';
import { type DateRangeName, DEFAULT_DATE_RANGE, dateRange } from '@shared/rules/date-ranges';
import { viewAnswersPath } from '@shared/rules/test-status';
import type { TestLink } from '@shared/schemas/assessment';
import { TestLinksTable } from '@widgets/assessments/TestLinksTable';
import { client } from '@widgets/core/api';
import { useI18n } from '@widgets/core/i18n';
import { useCall } from '@widgets/core/useCall';
import { LearningDaysCard, TopicTimeCard } from '@widgets/dashboard/LearningDays';
import {
  AverageLearningTime,
  DailyChartCard,
  type LearningTimeSource,
  RangeSelect,
  ResourceReport,
  type ResourceTimeRow,
  useLearningTime,
} from '@widgets/dashboard/LearningTime';
import '@widgets/dashboard/dashboard.css';
import { Dialog } from '@widgets/ui/Dialog';
import { Loader } from '@widgets/ui/Loader';
import { LoadFailed } from '@widgets/ui/LoadFailed';
import { useId, useMemo, useState } from 'react';
import { DownloadCsv } from '../../../components/DownloadCsv';
import { routerLink } from '../../../components/routerLink';
import { TableFailure } from '../../../components/TableFailure';
import { Counter } from '../ui';
import { useUserId } from './LearnerLayout';

/** The tenant's reports of one learner, in the shape the dashboard's pieces read. */
export function tenantSource(api: Client, userId: string): LearningTimeSource {
  return {
    daily: (range, signal) =>
      api.call(tenantTimeSpentDaywise, { params: { userId }, query: range, signal }).then((r) => r.data),
    report: (query, signal) =>
      api.call(tenantTimeSpentOnResource, { params: { userId }, query, signal }).then((r) => r.data),
    learningDays: (signal) =>
      api.call(tenantLearningDays, { params: { userId }, signal }).then((r) => r.data),
    topics: (range, signal) =>
      api.call(tenantTimeSpentByTopic, { params: { userId }, query: range, signal }).then((r) => r.data),
  };
}

export const ACHIEVEMENT_CARDS: readonly { id: 'RESOURCE' | 'SECTION' | 'ROADMAP'; label: MessageKey }[] = [
  { id: 'RESOURCE', label: 'tenant.counter.feather' },
  { id: 'SECTION', label: 'tenant.counter.badge' },
  { id: 'ROADMAP', label: 'tenant.counter.certificate' },
];

/** The test links table with the tenant's 'View Answers' destination, or 'No data found'. */
export function LearnerTestLinks({
  links,
  userId,
  caption,
}: {
  links: readonly TestLink[];
  userId: string;
  caption: string;
}) {
  const { t } = useI18n();
  if (links.length === 0) return <p className="empty">{t('tenant.noData')}</p>;
  return (
    <TestLinksTable
      links={links}
      caption={caption}
      renderLink={routerLink}
      viewAnswersHref={(link) => viewAnswersPath(link.linkId, { userId })}
      canTakeTest={false}
      showFocusRecord
    />
  );
}

/** 'View report': the learner's assessments of one resource. */
function ResourceAssessmentsDialog({
  userId,
  resource,
  onClose,
}: {
  userId: string;
  resource: ResourceTimeRow['resource'] | null;
  onClose: () => void;
}) {
  const { t } = useI18n();
  const tests = useCall(
    (signal) =>
      resource
        ? client
            .call(tenantGetResource, { params: { userId, resourceId: resource._id }, signal })
            .then((r) => r.data.testLinks)
        : Promise.resolve(null),
    [userId, resource?._id],
  );
  return (
    <Dialog
      open={Boolean(resource)}
      title={t('myRoadmap.assessments')}
      onClose={onClose}
      actions={
        <button type="button" className="btn" onClick={onClose}>
          {t('common.close')}
        </button>
      }
    >
      {resource ? <p className="muted wide-dialog">{resource.userTitle}</p> : null}
      {tests.error ? (
        <LoadFailed error={tests.error} />
      ) : !tests.data ? (
        <Loader />
      ) : (
        <LearnerTestLinks
          links={tests.data}
          userId={userId}
          caption={t('myRoadmap.assessmentsOf', { name: resource?.userTitle ?? '' })}
        />
      )}
    </Dialog>
  );
}

export default function AnalyticsPage() {
  const userId = useUserId();
  const { t } = useI18n();
  const ids = useId();
  const [range, setRange] = useState<DateRangeName>(DEFAULT_DATE_RANGE);
  const [page, setPage] = useState(1);
  const [viewing, setViewing] = useState<ResourceTimeRow['resource'] | null>(null);
  const source = useMemo(() => tenantSource(client, userId), [userId]);
  const times = dateRange(range);
  const { daily, report, days, topics } = useLearningTime(source, times, page);
  const achievements = useCall(
    (signal) =>
      client.call(tenantUserAchievements, { params: { userId }, query: times, signal }).then((r) => r.data),
    [userId, times.startTime, times.endTime],
  );
  const links = useCall(
    (signal) =>
      client.call(tenantTestlinkList, { params: { userId }, query: times, signal }).then((r) => r.data),
    [userId, times.startTime, times.endTime],
  );
  const count = (id: (typeof ACHIEVEMENT_CARDS)[number]['id']) =>
    achievements.data?.find((a) => a._id === id)?.count ?? 0;

  return (
    <div className="wm-dashboard">
      <div className="wm-dashboard-head">
        <h1>{t('tenant.analyticsReport')}</h1>
        <RangeSelect
          id={`${ids}-range`}
          value={range}
          onChange={(r) => {
            setRange(r);
            setPage(1);
          }}
        />
      </div>

      <AverageLearningTime daily={daily} range={range} />

      <section aria-labelledby={`${ids}-awards`}>
        <h2 id={`${ids}-awards`} className="visually-hidden">
          {t('tenant.awardsEarned')}
        </h2>
        {achievements.error ? (
          <TableFailure />
        ) : (
          <ul className="counters" aria-busy={achievements.loading}>
            {ACHIEVEMENT_CARDS.map((c) => (
              <Counter key={c.id} label={t(c.label)} value={achievements.data ? count(c.id) : '…'} />
            ))}
          </ul>
        )}
      </section>

      <DailyChartCard daily={daily} />
      <LearningDaysCard state={days} />
      <TopicTimeCard state={topics} range={range} />
      <ResourceReport
        id={`${ids}-report`}
        report={report}
        page={page}
        onPage={setPage}
        toolbar={
          <DownloadCsv
            call={tenantExportResourceReport}
            args={{ params: { userId }, query: times }}
            what={t('report.title')}
          />
        }
        action={{
          header: t('column.action'),
          render: (row) => (
            <button
              type="button"
              className="btn btn-secondary"
              onClick={() => setViewing(row.resource)}
              aria-label={t('tenant.viewReportOf', { name: row.resource.userTitle })}
            >
              {t('tenant.viewReport')}
            </button>
          ),
        }}
      />

      <section className="card" aria-labelledby={`${ids}-tests`}>
        <div className="card-head">
          <h2 id={`${ids}-tests`}>{t('dashboard.assessment')}</h2>
          <DownloadCsv
            call={tenantExportTestlinks}
            args={{ params: { userId }, query: times }}
            what={t('tenant.assessmentTable')}
          />
        </div>
        {links.error ? (
          <TableFailure />
        ) : !links.data ? (
          <Loader />
        ) : (
          <LearnerTestLinks links={links.data} userId={userId} caption={t('tenant.assessmentsOfLearner')} />
        )}
      </section>

      <ResourceAssessmentsDialog userId={userId} resource={viewing} onClose={() => setViewing(null)} />
    </div>
  );
}
