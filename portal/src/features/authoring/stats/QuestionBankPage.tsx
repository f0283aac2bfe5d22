/**
 * /portal/question-bank: the mentor's question bank with its figures — every question they wrote or use in an
 * assessment, over the attempts of their own assessments — sortable, the flagged first, and as a CSV file.
 */
import { questionBankStats, questionBankStatsExport } from '@shared/contract/analysis';
import { client } from '@widgets/core/api';
import { useCall } from '@widgets/core/useCall';
import { Loader } from '@widgets/ui/Loader';
import { DownloadCsv } from '../../../components/DownloadCsv';
import { TableFailure } from '../../../components/TableFailure';
import { StatsTable } from './StatsTable';

export default function QuestionBankPage() {
  const bank = useCall((signal) => client.call(questionBankStats, { signal }).then((r) => r.data), []);
  const b = bank.data;
  return (
    <div className="page">
      <div className="page-head">
        <h1>Question Bank</h1>
        <DownloadCsv
          call={questionBankStatsExport}
          args={{ query: { format: 'csv' } }}
          what="the question bank"
        />
      </div>
      <p className="muted">
        Every question you wrote or use in an assessment, with how it did in your assessments
        {b ? ` (${b.attempts} attempt${b.attempts === 1 ? '' : 's'})` : ''}. Open a question to see why it is
        flagged and how its options were chosen.
      </p>
      {bank.error ? <TableFailure /> : null}
      {bank.loading && !b ? <Loader text="Fetching data..." /> : null}
      {b ? <StatsTable rows={b.questions} caption="Your question bank" positions={false} /> : null}
    </div>
  );
}
