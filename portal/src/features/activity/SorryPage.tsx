/**
 * /sorry-to-see-you-go: the uninstall feedback (learner §5), opened by the browser when the extension is
 * removed. Reasons (at least one), 'other' needs its text, the e-mail is required and valid, the message is
 * optional; sent to POST /feedback/create, then /thanks.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { createFeedback } from '@shared/contract/activity';
import type { MessageKey } from '@shared/i18n/keys';
import { UNINSTALL_REASONS, UninstallFeedbackInput, uninstallMessages } from '@shared/schemas/activity';
import { client } from '@widgets/core/api';
import { useFormWords } from '@widgets/core/form-words';
import { useI18n } from '@widgets/core/i18n';
import { session } from '@widgets/core/session';
import { messageOf } from '@widgets/core/useCall';
import { Field } from '@widgets/ui/Field';
import { Spinner } from '@widgets/ui/Loader';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import type { z } from 'zod';

type Input = z.input<typeof UninstallFeedbackInput>;
type Output = z.output<typeof UninstallFeedbackInput>;

/** Each reason (its API value) in words. */
const LABELS: Record<(typeof UNINSTALL_REASONS)[number], MessageKey> = {
  'I need more info about my activity on web': 'uninstall.reason.moreInfo',
  "It doesn't work": 'uninstall.reason.notWorking',
  'I use other extension for time tracker in web': 'uninstall.reason.otherExtension',
  "I don't use it anymore": 'uninstall.reason.notUsing',
  "It's not what I was looking for (please describe what was it)": 'uninstall.reason.notWanted',
  other: 'uninstall.reason.other',
};

export default function SorryPage() {
  const navigate = useNavigate();
  const { t } = useI18n();
  const formWords = useFormWords();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<Input, unknown, Output>({
    resolver: zodResolver(UninstallFeedbackInput, formWords),
    // checked on Submit (then as the learner corrects): an error appearing on blur would move the button
    // away from under the pointer
    mode: 'onSubmit',
    defaultValues: { emailId: session.peek()?.user.email ?? '', reason: [], other: '', message: '' },
  });
  const { register, handleSubmit, formState, watch } = form;
  const reasons = watch('reason') ?? [];

  const submit = handleSubmit(async (body) => {
    setFailure(null);
    try {
      await client.call(createFeedback, { body });
      navigate('/thanks');
    } catch (err) {
      setFailure(messageOf(err, t('feedback.failed')));
    }
  });

  return (
    <div className="page-narrow">
      <h1>{t('uninstall.title')}</h1>
      <p className="muted">{t('uninstall.intro')}</p>
      <form className="card stack" noValidate onSubmit={submit}>
        <fieldset aria-describedby={formState.errors.reason ? 'reason-error' : undefined}>
          <legend>{t('uninstall.why')}</legend>
          {UNINSTALL_REASONS.map((r) => (
            <label key={r} className="check">
              <input type="checkbox" value={r} {...register('reason')} />
              <span>{t(LABELS[r])}</span>
            </label>
          ))}
          {formState.errors.reason ? (
            <p id="reason-error" className="field-error" role="alert">
              {t(uninstallMessages.reasonRequired)}
            </p>
          ) : null}
        </fieldset>
        {reasons.includes('other') ? (
          <Field label={t('uninstall.reason.other')} error={formState.errors.other?.message} required>
            <textarea {...register('other')} maxLength={500} rows={3} />
          </Field>
        ) : null}
        <Field label={t('column.email')} error={formState.errors.emailId?.message} required>
          <input className="input" type="email" autoComplete="email" {...register('emailId')} />
        </Field>
        <Field
          label={t('uninstall.message')}
          error={formState.errors.message?.message}
          hint={t('common.optional')}
        >
          <textarea {...register('message')} maxLength={2000} rows={4} />
        </Field>
        {failure ? (
          <p className="alert alert-error" role="alert">
            {failure}
          </p>
        ) : null}
        <div className="form-actions">
          <button type="submit" className="btn" disabled={formState.isSubmitting}>
            {formState.isSubmitting ? <Spinner /> : null} {t('common.submit')}
          </button>
        </div>
      </form>
    </div>
  );
}
