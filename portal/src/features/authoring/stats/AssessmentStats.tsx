/**
 * The statistics view of an assessment (the builder's 'Statistics'): the test's figures, then its questions
 * with their figures and flags — which to fix and why — and the question table as a CSV file.
 */
import { assessmentStats, assessmentStatsExport } from '@shared/contract/analysis';
import { formatDateTime } from '@shared/rules/format-date';
import { client } from '@widgets/core/api';
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
  const s = stats.data;
  const flagged = s?.questions.filter((q) => q.figures.flags.length > 0).length ?? 0;
  return (
    <div className="stack">
      <div className="page-head">
        <h2>Statistics</h2>
        <DownloadCsv
          call={assessmentStatsExport}
          args={{ params: { assessmentId }, query: { format: 'csv' } }}
          what="the question statistics"
        />
      </div>
      {stats.error ? <TableFailure /> : null}
      {stats.loading && !s ? <Loader text="Fetching data..." /> : null}
      {s ? (
        <>
          {s.summary.attempts === 0 ? (
            <p className="card empty">No attempts yet: the figures appear once learners have taken it.</p>
          ) : (
            <>
              <TestSummary figures={s.summary} />
              <p className="muted" aria-live="polite">
                {flagged === 0
                  ? 'No question is flagged.'
                  : `${flagged} question${flagged === 1 ? '' : 's'} flagged: open a question to see why.`}
                {s.summary.lastEvaluatedAt
                  ? ` Last attempt evaluated ${formatDateTime(s.summary.lastEvaluatedAt)}.`
                  : ''}
              </p>
            </>
          )}
          <StatsTable rows={s.questions} caption={`Question statistics of ${s.assessment.name}`} />
        </>
      ) : null}
    </div>
  );
}
