/**
 * /portal/average-learning-time (mentor §2.4): the Learning Report — per learner, Name, Email, Mobile, Join
 * At, Total Spent Day, Total Spent Time and Average learning Time (per day of learning).
 */
import { tenantExportLearningReport, tenantLearningReport } from '@shared/contract/tenant';
import { formatDuration, spokenDuration } from '@shared/rules/durations';
import { formatDateTime } from '@shared/rules/format-date';
import { client } from '@widgets/core/api';
import { useCall } from '@widgets/core/useCall';
import { DownloadCsv } from '../../components/DownloadCsv';
import { ReportPage } from './ui';

const duration = (seconds: number) => <span title={spokenDuration(seconds)}>{formatDuration(seconds)}</span>;

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
      nameHeader="Name"
      head={
        <>
          <th scope="col">Mobile</th>
          <th scope="col">Join At</th>
          <th scope="col">Total Spent Day</th>
          <th scope="col">Total Spent Time</th>
          <th scope="col">Average learning Time</th>
        </>
      }
      columns={7}
      rowKey={(r) => r.email}
      cells={(r) => (
        <>
          <td className="nowrap" data-label="Mobile">
            {r.phoneNumber ? `${r.countrycode ?? ''} ${r.phoneNumber}`.trim() : '—'}
          </td>
          <td className="nowrap" data-label="Join At">
            {formatDateTime(r.createdAt)}
          </td>
          <td data-label="Total Spent Day">{r.TotalDayReports}</td>
          <td data-label="Total Spent Time">{duration(r.TotalTimeSpent)}</td>
          <td data-label="Average learning Time">{duration(r.averageTimeSpent)}</td>
        </>
      )}
    />
  );
}
