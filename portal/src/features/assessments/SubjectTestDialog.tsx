/**
 * The subject test creator (learner §2, §5): a subject ('Please select a subject') and 'Are you currently
 * looking for job?' (Yes, No, In Future; required). POST /testlink/create {type: SUBJECT, subject,
 * lookingForJob}; the new link opens /test/{testLinkId} in a new tab — opened inside the submit, so pop-up
 * blockers let it through — and the links table reloads. A subject whose test was failed within the retake
 * cool-down says when it can be taken again, as soon as it is chosen (and the server refuses it until then).
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { ApiError } from '@shared/client/client';
import { createTestLink } from '@shared/contract/assessments';
import { subjectList } from '@shared/contract/lists';
import { fieldText } from '@shared/i18n/form-words';
import type { MessageKey } from '@shared/i18n/keys';
import { type ListedAttempt, retakeNotice, retakeOpensFor } from '@shared/rules/retakes';
import { LOOKING_FOR_JOB, LOOKING_FOR_JOB_LABELS, SubjectTestForm } from '@shared/schemas/assessment';
import { openTestInNewTab } from '@widgets/assessments/open-test';
import { startFailureMessage } from '@widgets/assessments/retake';
import { client } from '@widgets/core/api';
import { useFormWords } from '@widgets/core/form-words';
import { useI18n } from '@widgets/core/i18n';
import { useCall } from '@widgets/core/useCall';
import { Dialog } from '@widgets/ui/Dialog';
import { Field } from '@widgets/ui/Field';
import { LoadFailed } from '@widgets/ui/LoadFailed';
import { toast } from '@widgets/ui/Toast';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { type UseFormRegister, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { FormDialogActions } from '../../components/FormDialogActions';

type Input = z.input<typeof SubjectTestForm>;
type Output = z.output<typeof SubjectTestForm>;

export const LOOKING_FOR_JOB_QUESTION = 'subjectTest.lookingForJob' satisfies MessageKey;

export interface SubjectTestDialogProps {
  open: boolean;
  onClose: () => void;
  /** A link was created (and its test opened). */
  onCreated: (testLinkId: string) => void;
  /** The learner's links, to say beforehand when a failed subject test can be retaken. */
  links?: readonly ListedAttempt[];
}

export function SubjectTestDialog({ open, onClose, onCreated, links = [] }: SubjectTestDialogProps) {
  const formId = useId();
  const i18n = useI18n();
  const formWords = useFormWords();
  const { t } = i18n;
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const subjects = useCall(
    (signal) => (open ? client.call(subjectList, { signal }).then((r) => r.data) : Promise.resolve(null)),
    [open],
  );
  const form = useForm<Input, unknown, Output>({
    resolver: zodResolver(SubjectTestForm, formWords),
    mode: 'onSubmit',
    defaultValues: { subject: '', lookingForJob: undefined },
  });
  const { register, formState, reset, setError } = form;
  const chosen = form.watch('subject');
  const retakeAt = chosen ? retakeOpensFor(links, { type: 'SUBJECT', subjectId: chosen }) : null;

  useEffect(() => {
    if (open) {
      reset({ subject: '', lookingForJob: undefined });
      setFailure(null);
    }
  }, [open, reset]);

  const create = async (body: Output) => {
    setBusy(true);
    setFailure(null);
    try {
      const id = await openTestInNewTab(
        () =>
          client.call(createTestLink, { body: { type: 'SUBJECT', ...body } }).then((r) => r.data.testLinkId),
        '',
        t('test.preparing'),
      );
      toast(t('subjectTest.opened'), { kind: 'success' });
      onCreated(id);
      onClose();
    } catch (err) {
      const message = startFailureMessage(err, t('subjectTest.failed'), i18n);
      if (err instanceof ApiError && (err.field === 'subject' || err.field === 'lookingForJob')) {
        setError(err.field, { message });
      } else setFailure(message);
    } finally {
      setBusy(false);
    }
  };

  // validated here, in the submit itself: the test's tab must be opened before anything is awaited
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const parsed = SubjectTestForm.safeParse(form.getValues(), formWords);
    if (!parsed.success) {
      void form.handleSubmit(() => undefined)();
      return;
    }
    void create(parsed.data);
  };

  return (
    <Dialog
      open={open}
      title={t('subjectTest.title')}
      onClose={onClose}
      actions={
        <FormDialogActions formId={formId} busy={busy} onCancel={onClose} submit={t('subjectTest.create')} />
      }
    >
      <form id={formId} noValidate onSubmit={submit}>
        <p className="muted">{t('subjectTest.intro')}</p>
        <Field
          label={t('column.subject')}
          required
          error={formState.errors.subject?.message}
          hint={retakeAt && !formState.errors.subject ? retakeNotice(retakeAt, i18n) : undefined}
        >
          <select className="input" {...register('subject')} disabled={!subjects.data}>
            <option value="">
              {subjects.data ? t('subjectTest.selectSubject') : t('subjectTest.loadingSubjects')}
            </option>
            {(subjects.data ?? []).map((s) => (
              <option key={s._id} value={s._id}>
                {s.name}
              </option>
            ))}
          </select>
        </Field>
        {subjects.error ? (
          <LoadFailed error={subjects.error} fallback={t('subjectTest.subjectsFailed')} />
        ) : null}
        <LookingForJobField register={register} error={formState.errors.lookingForJob?.message} />
        {failure ? (
          <p className="alert alert-error" role="alert">
            {failure}
          </p>
        ) : null}
      </form>
    </Dialog>
  );
}

/** 'Are you currently looking for job?': three radios under one legend, required, with its error. */
function LookingForJobField({ register, error }: { register: UseFormRegister<Input>; error?: string }) {
  const i18n = useI18n();
  const { t } = i18n;
  const errorId = useId();
  return (
    <fieldset aria-describedby={error ? errorId : undefined}>
      <legend>
        {t(LOOKING_FOR_JOB_QUESTION)}
        <span aria-hidden="true"> *</span>
      </legend>
      <div className="row">
        {LOOKING_FOR_JOB.map((value) => (
          <label key={value} className="check">
            <input type="radio" value={value} {...register('lookingForJob')} />
            <span>{t(LOOKING_FOR_JOB_LABELS[value])}</span>
          </label>
        ))}
      </div>
      {error ? (
        <p id={errorId} className="field-error" role="alert">
          {fieldText(i18n, error)}
        </p>
      ) : null}
    </fieldset>
  );
}
