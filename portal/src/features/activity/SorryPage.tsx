/**
 * /sorry-to-see-you-go: the uninstall feedback (learner §5), opened by the browser when the extension is
 * removed. Reasons (at least one), 'other' needs its text, the e-mail is required and valid, the message is
 * optional; sent to POST /feedback/create, then /thanks.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { createFeedback } from '@shared/contract/activity';
import { UNINSTALL_REASONS, UninstallFeedbackInput, uninstallMessages } from '@shared/schemas/activity';
import { client } from '@widgets/core/api';
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

const LABELS: Record<(typeof UNINSTALL_REASONS)[number], string> = {
  'I need more info about my activity on web': 'I need more info about my activity on web',
  "It doesn't work": "It doesn't work",
  'I use other extension for time tracker in web': 'I use other extension for time tracker in web',
  "I don't use it anymore": "I don't use it anymore",
  "It's not what I was looking for (please describe what was it)":
    "It's not what I was looking for (please describe what was it)",
  other: 'Other',
};

export default function SorryPage() {
  const navigate = useNavigate();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<Input, unknown, Output>({
    resolver: zodResolver(UninstallFeedbackInput),
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
      setFailure(messageOf(err, 'Your feedback could not be sent. Please try again.'));
    }
  });

  return (
    <div className="page-narrow">
      <h1>Sorry to see you go</h1>
      <p className="muted">
        You removed the Waymark extension. Tell us why, so we can make Waymark better for the next learner.
      </p>
      <form className="card stack" noValidate onSubmit={submit}>
        <fieldset aria-describedby={formState.errors.reason ? 'reason-error' : undefined}>
          <legend>Why did you remove it?</legend>
          {UNINSTALL_REASONS.map((r) => (
            <label key={r} className="check">
              <input type="checkbox" value={r} {...register('reason')} />
              <span>{LABELS[r]}</span>
            </label>
          ))}
          {formState.errors.reason ? (
            <p id="reason-error" className="field-error" role="alert">
              {uninstallMessages.reasonRequired}
            </p>
          ) : null}
        </fieldset>
        {reasons.includes('other') ? (
          <Field label="Other" error={formState.errors.other?.message} required>
            <textarea {...register('other')} maxLength={500} rows={3} />
          </Field>
        ) : null}
        <Field label="Email" error={formState.errors.emailId?.message} required>
          <input className="input" type="email" autoComplete="email" {...register('emailId')} />
        </Field>
        <Field label="Message" error={formState.errors.message?.message} hint="Optional">
          <textarea {...register('message')} maxLength={2000} rows={4} />
        </Field>
        {failure ? (
          <p className="alert alert-error" role="alert">
            {failure}
          </p>
        ) : null}
        <div className="form-actions">
          <button type="submit" className="btn" disabled={formState.isSubmitting}>
            {formState.isSubmitting ? <Spinner /> : null} Submit
          </button>
        </div>
      </form>
    </div>
  );
}
