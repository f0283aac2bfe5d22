/** Small pieces the mentor portal's pages share. */
import type { CallArgs } from '@shared/client/client';
import type { CallDef } from '@shared/contract/define';
import { client } from '@widgets/core/api';
import { downloadFile } from '@widgets/core/download';
import { messageOf } from '@widgets/core/useCall';
import { Spinner } from '@widgets/ui/Loader';
import { toast } from '@widgets/ui/Toast';
import { useId, useState } from 'react';
import './tenant.css';

/** A word with a tooltip shown on hover and on keyboard focus, and read as the word's description. */
export function Tip({ label, tip, className }: { label: string; tip: string; className?: string }) {
  const id = useId();
  return (
    <span className="tip-wrap">
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: focusable so keyboard users get the tooltip too */}
      <span className={className} tabIndex={0} aria-describedby={id}>
        {label}
      </span>
      <span role="tooltip" id={id} className="tip">
        {tip}
      </span>
    </span>
  );
}

/** A figure of one kind (FEATHER, BADGE, CERTIFICATE) for counter rows. */
export function Counter({ label, value }: { label: string; value: number | string }) {
  return (
    <li className="counter">
      <strong>{value}</strong> <span>{label}</span>
    </li>
  );
}

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
