/**
 * /portal/average-learning-time (mentor §2.4): the Learning Report — per learner, Name, Email, Mobile, Join
 * At, Total Spent Day, Total Spent Time and Average learning Time (per day of learning).
 */
import { tenantExportLearningReport, tenantLearningReport } from '@shared/contract/tenant';
import { formatDuration, spokenDuration } from '@shared/rules/durations';
import { formatDateTime } from '@shared/rules/format-date';
import { client } from '@widgets/core/api';
import { useCall } from '@widgets/core/useCall';
import { Loader } from '@widgets/ui/Loader';
import { Link } from 'react-router';
import { TableFailure } from '../../components/TableFailure';
import { DownloadCsv } from './ui';

const duration = (seconds: number) => <span title={spokenDuration(seconds)}>{formatDuration(seconds)}</span>;

export default function LearningReportPage() {
  const report = useCall(
    (signal) => client.call(tenantLearningReport, { query: {}, signal }).then((r) => r.data),
    [],
  );
  return (
    <div className="page">
      <p>
        <Link to="/portal/users">← Users</Link>
      </p>
      <div className="page-head">
        <h1>Learning Report</h1>
        <DownloadCsv call={tenantExportLearningReport} args={{ query: {} }} what="the Learning Report" />
      </div>
      {report.error ? <TableFailure /> : null}
      {report.loading && !report.data ? <Loader /> : null}
      {report.data ? (
        <div className="card table-wrap">
          <table className="table">
            <caption className="visually-hidden">Learning Report</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Email</th>
                <th scope="col">Mobile</th>
                <th scope="col">Join At</th>
                <th scope="col">Total Spent Day</th>
                <th scope="col">Total Spent Time</th>
                <th scope="col">Average learning Time</th>
              </tr>
            </thead>
            <tbody>
              {report.data.length === 0 ? (
                <tr>
                  <td colSpan={7} className="empty">
                    No data found
                  </td>
                </tr>
              ) : (
                report.data.map((r) => (
                  <tr key={r.email}>
                    <th scope="row" className="cell-name" data-label="Name">
                      {r.name ?? '—'}
                    </th>
                    <td className="cell-wrap" data-label="Email">
                      {r.email}
                    </td>
                    <td className="nowrap" data-label="Mobile">
                      {r.phoneNumber ? `${r.countrycode ?? ''} ${r.phoneNumber}`.trim() : '—'}
                    </td>
                    <td className="nowrap" data-label="Join At">
                      {formatDateTime(r.createdAt)}
                    </td>
                    <td data-label="Total Spent Day">{r.TotalDayReports}</td>
                    <td data-label="Total Spent Time">{duration(r.TotalTimeSpent)}</td>
                    <td data-label="Average learning Time">{duration(r.averageTimeSpent)}</td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
      ) : null}
    </div>
  );
}
