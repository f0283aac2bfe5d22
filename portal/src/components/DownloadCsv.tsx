/** 'Download CSV' of a mentor table: the file the table's export call answers. */
import type { CallArgs } from '@shared/client/client';
import type { CallDef } from '@shared/contract/define';
import { client } from '@widgets/core/api';
import { downloadFile } from '@widgets/core/download';
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
          toast(`Downloaded ${name}.`, { kind: 'success', ms: 4000 });
        } catch (err) {
          toast(messageOf(err, 'The file could not be downloaded. Please try again later.'), {
            kind: 'error',
          });
        } finally {
          setBusy(false);
        }
      }}
    >
      {busy ? <Spinner /> : null} Download CSV<span className="visually-hidden"> of {what}</span>
    </button>
  );
}
