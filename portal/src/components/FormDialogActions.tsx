import { useI18n } from '@widgets/core/i18n';
import { Spinner } from '@widgets/ui/Loader';
import type { ReactNode } from 'react';

/**
 * The actions of a dialog holding a form: Cancel, and the button that submits the form `formId` (disabled,
 * with a spinner, while it is being sent). `danger` for a submit that removes or revokes something.
 */
export function FormDialogActions({
  formId,
  busy,
  onCancel,
  submit,
  danger = false,
}: {
  formId: string;
  busy: boolean;
  onCancel: () => void;
  submit: ReactNode;
  danger?: boolean;
}) {
  const { t } = useI18n();
  return (
    <>
      <button type="button" className="btn btn-secondary" onClick={onCancel}>
        {t('common.cancel')}
      </button>
      <button type="submit" form={formId} className={danger ? 'btn btn-danger' : 'btn'} disabled={busy}>
        {busy ? <Spinner /> : null} {submit}
      </button>
    </>
  );
}
