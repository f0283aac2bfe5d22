/**
 * The statistics view of an assessment (the builder's 'Statistics'): the test's figures, then its questions
 * with their figures and flags — which to fix and why — and the question table as a CSV file.
 */
import { assessmentStats, assessmentStatsExport } from '@shared/contract/analysis';
import { formatDateTime } from '@shared/rules/format-date';
import { client } from '@widgets/core/api';
import { useI18n } from '@widgets/core/i18n';
import { useCall } from '@widgets/core/useCall';
import { Loader } from '@widgets/ui/Loader';
import { DownloadCsv } from '../../../components/DownloadCsv';
import { TableFailure } from '../../../components/TableFailure';
import { StatsTable } from './StatsTable';
import { TestSummary } from './TestSummary';

export function AssessmentStats({ assessmentId }: { assessmentId: string }) {
  const stats = useCall(
    (signal) => client.call(assessmentStats, { params: { assessmentId }, signal }).then((r) => r.data),
    [assessmentId],
  );
  const { t, locale } = useI18n();
  const s = stats.data;
  const flagged = s?.questions.filter((q) => q.figures.flags.length > 0).length ?? 0;
  return (
    <div className="stack">
      <div className="page-head">
        <h2>{t('stats.title')}</h2>
        <DownloadCsv
          call={assessmentStatsExport}
          args={{ params: { assessmentId }, query: { format: 'csv' } }}
          what={t('stats.csvWhat')}
        />
      </div>
      {stats.error ? <TableFailure /> : null}
      {stats.loading && !s ? <Loader text={t('stats.fetching')} /> : null}
      {s ? (
        <>
          {s.summary.attempts === 0 ? (
            <p className="card empty">{t('stats.noAttempts')}</p>
          ) : (
            <>
              <TestSummary figures={s.summary} />
              <p className="muted" aria-live="polite">
                {t('stats.flagged', { count: flagged })}
                {s.summary.lastEvaluatedAt
                  ? ` ${t('stats.lastEvaluated', { time: formatDateTime(s.summary.lastEvaluatedAt, undefined, locale) })}`
                  : ''}
              </p>
            </>
          )}
          <StatsTable rows={s.questions} caption={t('stats.captionOf', { name: s.assessment.name })} />
        </>
      ) : null}
    </div>
  );
}
