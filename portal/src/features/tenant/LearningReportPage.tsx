/**
 * /portal/average-learning-time (mentor §2.4): the Learning Report — per learner, Name, Email, Mobile, Joined
 * At, Total Spent Days, Total Spent Time and Average Learning Time (per day of learning): the columns of
 * its file (shared/reports/columns.ts), the times shown as durations.
 */
import { tenantExportLearningReport, tenantLearningReport } from '@shared/contract/tenant';
import { LEARNING_REPORT } from '@shared/reports/columns';
import { formatDateTime } from '@shared/rules/format-date';
import { DurationCell } from '@widgets/assessments/cells';
import { client } from '@widgets/core/api';
import { useCall } from '@widgets/core/useCall';
import { DownloadCsv } from '../../components/DownloadCsv';
import { ReportPage } from './ui';

const { mobile, joinedAt, days, time, average } = LEARNING_REPORT;

export default function LearningReportPage() {
  const report = useCall(
    (signal) => client.call(tenantLearningReport, { query: {}, signal }).then((r) => r.data),
    [],
  );
  return (
    <ReportPage
      title="Learning Report"
      download={
        <DownloadCsv call={tenantExportLearningReport} args={{ query: {} }} what="the Learning Report" />
      }
      report={report}
      head={[mobile, joinedAt, days, time, average].map((c) => (
        <th key={c.title} scope="col">
          {c.title}
        </th>
      ))}
      columns={7}
      rowKey={(r) => r.email}
      cells={(r) => (
        <>
          <td className="nowrap" data-label={mobile.title}>
            {r.phoneNumber ? `${r.countrycode ?? ''} ${r.phoneNumber}`.trim() : '—'}
          </td>
          <td className="nowrap" data-label={joinedAt.title}>
            {formatDateTime(r.createdAt)}
          </td>
          <td data-label={days.title}>{r.TotalDayReports}</td>
          <td data-label={time.title}>
            <DurationCell seconds={r.TotalTimeSpent} />
          </td>
          <td data-label={average.title}>
            <DurationCell seconds={r.averageTimeSpent} />
          </td>
        </>
      )}
    />
  );
}
