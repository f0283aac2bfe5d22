/**
 * Remove learner (mentor §2.3): the billing-cycle confirmation, then the seat removed at once (not
 * subscribed) or kept until the end of the cycle, said in a toast.
 */
import { tenantRemoveUser } from '@shared/contract/tenant';
import { formatDate } from '@shared/rules/format-date';
import { client } from '@widgets/core/api';
import { useI18n } from '@widgets/core/i18n';
import { messageOf } from '@widgets/core/useCall';
import { Dialog } from '@widgets/ui/Dialog';
import { Spinner } from '@widgets/ui/Loader';
import { toast } from '@widgets/ui/Toast';
import { useState } from 'react';
import { displayName, type Row } from './UsersTable';

export function RemoveLearnerDialog({
  removing,
  onClose,
  onRemoved,
}: {
  removing: Row | null;
  onClose: () => void;
  onRemoved: () => void;
}) {
  const { t, locale } = useI18n();
  const [busy, setBusy] = useState(false);
  const remove = async () => {
    if (!removing) return;
    setBusy(true);
    try {
      const res = (await client.call(tenantRemoveUser, { params: { learnerId: removing.learnerId._id } }))
        .data;
      const name = displayName(removing);
      toast(
        res.removed
          ? t('users.removed', { name })
          : res.accessUntil
            ? t('users.staysUntil', { name, date: formatDate(res.accessUntil, undefined, locale) })
            : t('users.staysUntilCycleEnd', { name }),
        { kind: 'success', ms: 6000 },
      );
      onClose();
      onRemoved();
    } catch (err) {
      toast(messageOf(err, t('users.removeFailed')), { kind: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog
      open={Boolean(removing)}
      role="alertdialog"
      title={t('users.removeLearner')}
      onClose={onClose}
      actions={
        <>
          <button type="button" className="btn btn-secondary" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="button" className="btn btn-danger" onClick={() => void remove()} disabled={busy}>
            {busy ? <Spinner /> : null} {t('users.remove')}
          </button>
        </>
      }
    >
      {removing ? <p>{t('users.removeQuestion', { name: displayName(removing) })}</p> : null}
    </Dialog>
  );
}
