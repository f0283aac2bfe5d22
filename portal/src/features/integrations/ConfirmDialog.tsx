/**
 * The integrations pages' "are you sure?" for revoking or removing something (an API key, a SCIM token, an
 * LMS platform): Cancel, and the dangerous action, which runs once, busy while it runs, then says how it went.
 */
import { useI18n } from '@widgets/core/i18n';
import { messageOf } from '@widgets/core/useCall';
import { Dialog } from '@widgets/ui/Dialog';
import { Spinner } from '@widgets/ui/Loader';
import { toast } from '@widgets/ui/Toast';
import { type ReactNode, useState } from 'react';

export function ConfirmDialog({
  open,
  title,
  action,
  run,
  done,
  failed,
  onClose,
  onDone,
  children,
}: {
  open: boolean;
  title: string;
  /** The dangerous button's word ('Revoke', 'Remove'). */
  action: string;
  run: () => Promise<unknown>;
  /** The success toast. */
  done: string;
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
      await run();
      toast(done, { kind: 'success', ms: 4000 });
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
