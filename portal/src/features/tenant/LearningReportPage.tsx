/**
 * /portal/average-learning-time (mentor §2.4): the Learning Report — per learner, Name, Email, Mobile, Joined
 * At, Total Spent Days, Total Spent Time and Average Learning Time (per day of learning): the columns of
 * its file (shared/reports/columns.ts), the times shown as durations.
 */
import { tenantLearningReport } from '@shared/contract/tenant';
import { tenantExportLearningReport } from '@shared/contract/tenant-exports';
import { LEARNING_REPORT } from '@shared/reports/columns';
import { formatDuration, spokenDuration } from '@shared/rules/durations';
import { formatDateTime } from '@shared/rules/format-date';
import { client } from '@widgets/core/api';
import { useI18n } from '@widgets/core/i18n';
import { useCall } from '@widgets/core/useCall';
import { DownloadCsv } from '../../components/DownloadCsv';
import { ReportPage } from './ui';

const { mobile, joinedAt, days, time, average } = LEARNING_REPORT;

export default function LearningReportPage() {
  const { t, locale, number } = useI18n();
  const duration = (seconds: number) => (
    <span title={spokenDuration(seconds, locale)}>{formatDuration(seconds, locale)}</span>
  );
  const report = useCall(
    (signal) => client.call(tenantLearningReport, { query: {}, signal }).then((r) => r.data),
    [],
  );
  return (
    <ReportPage
      title={t('report.learningReport')}
      download={
        <DownloadCsv
          call={tenantExportLearningReport}
          args={{ query: {} }}
          what={t('report.learningReport')}
        />
      }
      report={report}
      head={[mobile, joinedAt, days, time, average].map((c) => (
        <th key={c.title} scope="col">
          {t(c.key)}
        </th>
      ))}
      columns={7}
      rowKey={(r) => r.email}
      cells={(r) => (
        <>
          <td className="nowrap" data-label={t(mobile.key)}>
            {r.phoneNumber ? `${r.countrycode ?? ''} ${r.phoneNumber}`.trim() : '—'}
          </td>
          <td className="nowrap" data-label={t(joinedAt.key)}>
            {formatDateTime(r.createdAt, undefined, locale)}
          </td>
          <td data-label={t(days.key)}>{number(r.TotalDayReports)}</td>
          <td data-label={t(time.key)}>{duration(r.TotalTimeSpent)}</td>
          <td data-label={t(average.key)}>{duration(r.averageTimeSpent)}</td>
        </>
      )}
    />
  );
}
