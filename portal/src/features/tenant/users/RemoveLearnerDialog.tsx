/**
 * Remove learner (mentor §2.3): the billing-cycle confirmation, then the seat removed at once (not
 * subscribed) or kept until the end of the cycle, said in a toast.
 */
import { tenantRemoveUser } from '@shared/contract/tenant';
import { formatDate } from '@shared/rules/format-date';
import { client } from '@widgets/core/api';
import { useI18n } from '@widgets/core/i18n';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
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
  const name = removing ? displayName(removing) : '';
  return (
    <ConfirmDialog
      open={Boolean(removing)}
      title={t('users.removeLearner')}
      action={t('users.remove')}
      run={async () =>
        (await client.call(tenantRemoveUser, { params: { learnerId: removing!.learnerId._id } })).data
      }
      done={(res) =>
        res.removed
          ? t('users.removed', { name })
          : res.accessUntil
            ? t('users.staysUntil', { name, date: formatDate(res.accessUntil, undefined, locale) })
            : t('users.staysUntilCycleEnd', { name })
      }
      doneMs={6000}
      failed={t('users.removeFailed')}
      onClose={onClose}
      onDone={() => {
        onClose();
        onRemoved();
      }}
    >
      {removing ? <p>{t('users.removeQuestion', { name })}</p> : null}
    </ConfirmDialog>
  );
}
