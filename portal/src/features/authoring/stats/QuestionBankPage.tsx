/**
 * /portal/question-bank: the mentor's question bank with its figures — every question they wrote or use in an
 * assessment, over the attempts of their own assessments — sortable, the flagged first, and as a CSV file.
 */
import { questionBankStats, questionBankStatsExport } from '@shared/contract/analysis';
import { client } from '@widgets/core/api';
import { useI18n } from '@widgets/core/i18n';
import { useCall } from '@widgets/core/useCall';
import { Loader } from '@widgets/ui/Loader';
import { DownloadCsv } from '../../../components/DownloadCsv';
import { TableFailure } from '../../../components/TableFailure';
import { StatsTable } from './StatsTable';

export default function QuestionBankPage() {
  const bank = useCall((signal) => client.call(questionBankStats, { signal }).then((r) => r.data), []);
  const { t } = useI18n();
  const b = bank.data;
  return (
    <div className="page">
      <div className="page-head">
        <h1>{t('stats.bankTitle')}</h1>
        <DownloadCsv
          call={questionBankStatsExport}
          args={{ query: { format: 'csv' } }}
          what={t('stats.bankCsvWhat')}
        />
      </div>
      <p className="muted">
        {b ? t('stats.bankIntro', { attempts: b.attempts }) : t('stats.bankIntroLoading')}
      </p>
      {bank.error ? <TableFailure /> : null}
      {bank.loading && !b ? <Loader text={t('stats.fetching')} /> : null}
      {b ? <StatsTable rows={b.questions} caption={t('stats.bankCaption')} positions={false} /> : null}
    </div>
  );
}
