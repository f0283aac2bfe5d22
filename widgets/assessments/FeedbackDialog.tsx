/**
 * Feedback on one question of an evaluated test (learner §5): required ('Please enter your feedback'), 10 to
 * 500 characters ('Feedback at least 10 characters', 'Feedback maximum 500 characters'), checked with the
 * contract's schema (QuestionFeedbackInput) and sent by `onSend` (POST /feedback-question/create).
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { QuestionFeedbackInput } from '@shared/schemas/assessment';
import { messageOf } from '@widgets/core/useCall';
import { Dialog } from '@widgets/ui/Dialog';
import { Field } from '@widgets/ui/Field';
import { Spinner } from '@widgets/ui/Loader';
import { toast } from '@widgets/ui/Toast';
import { useEffect, useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { useFormWords } from '../core/form-words';
import { useI18n } from '../core/i18n';

export const FeedbackForm = QuestionFeedbackInput.pick({ feedback: true });
export const FEEDBACK_MAX = 500;
type Input = z.input<typeof FeedbackForm>;
type Output = z.output<typeof FeedbackForm>;

export interface FeedbackDialogProps {
  open: boolean;
  /** 'question 3', for the title. */
  about: string;
  onClose: () => void;
  /** Sends the feedback; resolves to the server's thank-you message, if any. */
  onSend: (feedback: string) => Promise<string | undefined>;
}

export function FeedbackDialog({ open, about, onClose, onSend }: FeedbackDialogProps) {
  const formId = useId();
  const { t } = useI18n();
  const formWords = useFormWords();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<Input, unknown, Output>({
    resolver: zodResolver(FeedbackForm, formWords),
    mode: 'onSubmit',
    defaultValues: { feedback: '' },
  });
  const { register, handleSubmit, formState, watch, reset } = form;
  const length = (watch('feedback') ?? '').length;

  useEffect(() => {
    if (open) {
      reset({ feedback: '' });
      setFailure(null);
    }
  }, [open, reset]);

  const submit = handleSubmit(async ({ feedback }) => {
    setFailure(null);
    try {
      const message = await onSend(feedback);
      toast(message || t('feedback.thanks'), { kind: 'success' });
      onClose();
    } catch (err) {
      setFailure(messageOf(err, t('feedback.failed')));
    }
  });

  return (
    <Dialog
      open={open}
      title={t('feedback.titleOn', { about })}
      onClose={onClose}
      actions={
        <>
          <button type="button" className="btn btn-secondary" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" form={formId} className="btn" disabled={formState.isSubmitting}>
            {formState.isSubmitting ? <Spinner /> : null} {t('feedback.send')}
          </button>
        </>
      }
    >
      <form id={formId} noValidate onSubmit={submit}>
        <p className="muted">{t('feedback.intro')}</p>
        <Field
          label={t('feedback.label')}
          required
          error={formState.errors.feedback?.message}
          hint={
            <span className={`wm-qa-counter${length > FEEDBACK_MAX ? ' is-over' : ''}`}>
              {t('feedback.counter', { length, max: FEEDBACK_MAX })}
            </span>
          }
        >
          <textarea rows={5} {...register('feedback')} />
        </Field>
        {failure ? (
          <p className="alert alert-error" role="alert">
            {failure}
          </p>
        ) : null}
      </form>
    </Dialog>
  );
}
