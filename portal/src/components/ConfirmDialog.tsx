/**
 * "Are you sure?" before something that cannot be undone (revoking an API key or a SCIM token, removing an LMS
 * platform, a learner's seat, tracked time): Cancel, and the dangerous action, which runs once, busy while it
 * runs, then says how it went — in words that may depend on what it answered.
 */
import { useI18n } from '@widgets/core/i18n';
import { messageOf } from '@widgets/core/useCall';
import { Dialog } from '@widgets/ui/Dialog';
import { Spinner } from '@widgets/ui/Loader';
import { toast } from '@widgets/ui/Toast';
import { type ReactNode, useState } from 'react';

export function ConfirmDialog<T>({
  open,
  title,
  action,
  run,
  done,
  doneMs = 4000,
  failed,
  onClose,
  onDone,
  children,
}: {
  open: boolean;
  title: string;
  /** The dangerous button's word ('Revoke', 'Remove'). */
  action: string;
  run: () => Promise<T>;
  /** The success toast, or how to say it from what `run` answered. */
  done: string | ((result: T) => string);
  /** How long the success toast stays. */
  doneMs?: number;
  /** The failure toast when the server gives no message. */
  failed: string;
  onClose: () => void;
  onDone: () => void;
  children: ReactNode;
}) {
  const { t } = useI18n();
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    try {
      const result = await run();
      toast(typeof done === 'function' ? done(result) : done, { kind: 'success', ms: doneMs });
      onDone();
    } catch (err) {
      toast(messageOf(err, failed), { kind: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog
      open={open}
      title={title}
      role="alertdialog"
      onClose={onClose}
      actions={
        <>
          <button type="button" className="btn btn-secondary" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="button" className="btn btn-danger" disabled={busy} onClick={confirm}>
            {busy ? <Spinner /> : null} {action}
          </button>
        </>
      }
    >
      {children}
    </Dialog>
  );
}
