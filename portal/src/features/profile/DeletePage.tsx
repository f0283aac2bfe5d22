import { zodResolver } from '@hookform/resolvers/zod';
import { deleteAccount } from '@shared/contract/profile';
import type { MessageKey } from '@shared/i18n/keys';
import { DeleteForm, deleteMessages } from '@shared/schemas/user';
import { client } from '@widgets/core/api';
import { useFormWords } from '@widgets/core/form-words';
import { useI18n } from '@widgets/core/i18n';
import { session } from '@widgets/core/session';
import { Dialog } from '@widgets/ui/Dialog';
import { Field } from '@widgets/ui/Field';
import { Spinner } from '@widgets/ui/Loader';
import { dismissToasts, toast } from '@widgets/ui/Toast';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { signOutEverywhere } from '../../lib/auth';

type Input = z.input<typeof DeleteForm>;
type Output = z.output<typeof DeleteForm>;

const REASON_LABELS = {
  'Not useful': 'delete.notUseful',
  other: 'uninstall.reason.other',
} as const satisfies Record<string, MessageKey>;

/** The messages about this deletion: 'Account Deletion Canceled' stops holding once it is asked for again. */
const TOPIC = 'account-deletion';

/** /delete: why, a last confirmation, the request, then 'scheduled for deletion' and sign-out. */
export default function DeletePage() {
  const { t } = useI18n();
  const formWords = useFormWords();
  const form = useForm<Input, unknown, Output>({
    resolver: zodResolver(DeleteForm, formWords),
    mode: 'onTouched',
  });
  const { register, handleSubmit, formState, watch } = form;
  const [pending, setPending] = useState<Output | null>(null);
  const [busy, setBusy] = useState(false);
  const [scheduled, setScheduled] = useState(false);
  const reason = watch('reason');

  const submit = async () => {
    if (!pending) return;
    const userId = session.peek()?.user._id;
    if (!userId) return;
    setBusy(true);
    dismissToasts(TOPIC);
    try {
      const deleteReason = pending.reason === 'other' ? `other: ${pending.other ?? ''}` : pending.reason;
      await client.call(deleteAccount, { params: { userId }, body: { deleteReason, isDeleted: true } });
      setPending(null);
      setScheduled(true);
    } catch (err) {
      console.error('Account deletion failed', err);
      toast(t('delete.failed'), {
        kind: 'error',
        topic: TOPIC,
      });
      setPending(null);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="page-narrow">
      <h1>{t('delete.title')}</h1>
      <form
        className="card"
        noValidate
        onSubmit={handleSubmit((v) => {
          dismissToasts(TOPIC);
          setPending(v);
        })}
      >
        <fieldset aria-describedby={formState.errors.reason ? 'reason-error' : undefined}>
          <legend>{t('delete.why')}</legend>
          {(Object.keys(REASON_LABELS) as (keyof typeof REASON_LABELS)[]).map((r) => (
            <label key={r} className="check">
              <input type="radio" value={r} {...register('reason')} />
              <span>{t(REASON_LABELS[r])}</span>
            </label>
          ))}
          {formState.errors.reason ? (
            <p id="reason-error" className="field-error" role="alert">
              {t(deleteMessages.reasonRequired)}
            </p>
          ) : null}
        </fieldset>
        {reason === 'other' ? (
          <Field label={t('delete.tellMore')} error={formState.errors.other?.message} required>
            <textarea {...register('other')} maxLength={500} />
          </Field>
        ) : null}
        <button type="submit" className="btn btn-danger" disabled={busy}>
          {busy ? <Spinner /> : null} {t('delete.submit')}
        </button>
      </form>
      <Dialog
        open={Boolean(pending)}
        title={t('delete.question')}
        role="alertdialog"
        onClose={() => {
          setPending(null);
          toast(t(deleteMessages.canceled), { kind: 'info', topic: TOPIC });
        }}
        actions={
          <>
            <button
              type="button"
              className="btn btn-secondary"
              onClick={() => {
                setPending(null);
                toast(t(deleteMessages.canceled), { kind: 'info', topic: TOPIC });
              }}
            >
              {t('common.cancel')}
            </button>
            <button type="button" className="btn btn-danger" disabled={busy} onClick={() => void submit()}>
              {busy ? <Spinner /> : null} {t('delete.yes')}
            </button>
          </>
        }
      >
        <p>{t('delete.within90')}</p>
      </Dialog>
      <Dialog
        open={scheduled}
        title={t('delete.scheduledTitle')}
        modalOnly
        onClose={() => undefined}
        actions={
          <button type="button" className="btn" onClick={() => void signOutEverywhere()}>
            {t('common.ok')}
          </button>
        }
      >
        <p>{t(deleteMessages.scheduled)}</p>
      </Dialog>
    </div>
  );
}
