/** 'Download CSV' of a mentor table: the file the table's export call answers. */
import type { CallArgs } from '@shared/client/client';
import type { CallDef } from '@shared/contract/define';
import { client } from '@widgets/core/api';
import { downloadFile } from '@widgets/core/download';
import { useI18n } from '@widgets/core/i18n';
import { messageOf } from '@widgets/core/useCall';
import { Spinner } from '@widgets/ui/Loader';
import { toast } from '@widgets/ui/Toast';
import { useState } from 'react';

/**
 * 'Download CSV': every row of the table under its current filter (not only the page shown), as a file
 * that opens in Excel and LibreOffice. `what` names the table for screen readers.
 */
export function DownloadCsv<C extends CallDef>({
  call,
  args,
  what,
}: {
  call: C;
  args: CallArgs<C>;
  what: string;
}) {
  const { t } = useI18n();
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      className="btn btn-secondary download-csv"
      disabled={busy}
      aria-busy={busy}
      onClick={async () => {
        setBusy(true);
        try {
          const name = await downloadFile(client, call, args, 'waymark-report.csv');
          toast(t('tenant.downloaded', { name }), { kind: 'success', ms: 4000 });
        } catch (err) {
          toast(messageOf(err, t('tenant.downloadFailed')), {
            kind: 'error',
          });
        } finally {
          setBusy(false);
        }
      }}
    >
      {busy ? <Spinner /> : null} {t('common.downloadCsv')}
      <span className="visually-hidden">{t('common.about', { name: what })}</span>
    </button>
  );
}
