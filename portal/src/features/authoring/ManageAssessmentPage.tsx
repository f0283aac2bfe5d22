import { zodResolver } from '@hookform/resolvers/zod';
import { type AssessmentSummary, assessmentList, createAssessment } from '@shared/contract/authoring';
import type { Translator } from '@shared/i18n/translator';
import { formatDateTime } from '@shared/rules/format-date';
import { AssessmentNameInput } from '@shared/schemas/authoring';
import { client } from '@widgets/core/api';
import { useFormWords } from '@widgets/core/form-words';
import { useI18n } from '@widgets/core/i18n';
import { messageOf, useCall } from '@widgets/core/useCall';
import { DataTable } from '@widgets/ui/DataTable';
import { Dialog } from '@widgets/ui/Dialog';
import { Field } from '@widgets/ui/Field';
import { Loader, Spinner } from '@widgets/ui/Loader';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import type { z } from 'zod';
import { TableFailure } from '../../components/TableFailure';
import { editorText } from './editorText';
import { ShareDialog } from './ShareDialog';

type Summary = z.infer<typeof AssessmentSummary>;

/** The name's complaint (the editor's rule) in the reader's language. */
const nameSaid = (t: Translator['t'], message?: string) => (message ? editorText({ t }, message) : undefined);

/** /portal/manage-assessment: the tenant's assessments, create one, share one, open the builder. */
export default function ManageAssessmentPage() {
  const navigate = useNavigate();
  const { t, locale, number } = useI18n();
  const formWords = useFormWords();
  const list = useCall((signal) => client.call(assessmentList, { signal }).then((r) => r.data), []);
  const [creating, setCreating] = useState(false);
  const [sharing, setSharing] = useState<Summary | null>(null);
  const form = useForm<z.input<typeof AssessmentNameInput>, unknown, z.output<typeof AssessmentNameInput>>({
    resolver: zodResolver(AssessmentNameInput, formWords),
    defaultValues: { name: '' },
  });

  const submit = form.handleSubmit(async ({ name }) => {
    try {
      const res = await client.call(createAssessment, { body: { name } });
      setCreating(false);
      navigate(`/portal/create-assessment/${res.data._id}`);
    } catch (err) {
      form.setError('name', {
        type: 'server',
        message: messageOf(err, t('manage.createFailed')),
      });
    }
  });

  return (
    <div className="page">
      <div className="row">
        <h1>{t('nav.manageAssessment')}</h1>
        <div className="spacer" />
        <button
          type="button"
          className="btn"
          onClick={() => {
            form.reset({ name: '' });
            setCreating(true);
          }}
        >
          {t('manage.create')}
        </button>
      </div>
      {list.error ? <TableFailure /> : null}
      {list.loading && !list.data ? <Loader text={t('manage.fetching')} /> : null}
      {list.data ? (
        <DataTable
          caption={t('manage.yours')}
          rows={list.data}
          rowKey={(a) => a._id}
          empty={t('tenant.noData')}
          columns={[
            { header: t('manage.name'), cell: (a) => a.name },
            { header: t('manage.createdBy'), cell: (a) => a.tenantId.name },
            { header: t('manage.createdAt'), cell: (a) => formatDateTime(a.createdAt, undefined, locale) },
            { header: t('manage.questions'), cell: (a) => number(a.questionCount) },
            {
              header: t('column.action'),
              cell: (a) => (
                <div className="row">
                  <button
                    type="button"
                    className="btn btn-secondary"
                    onClick={() => setSharing(a)}
                    aria-label={t('manage.shareNamed', { name: a.name })}
                  >
                    {t('manage.share')}
                  </button>
                  <Link
                    className="btn btn-secondary"
                    to={`/portal/create-assessment/${a._id}`}
                    aria-label={t('manage.manageNamed', { name: a.name })}
                  >
                    {t('tenant.manage')}
                  </Link>
                </div>
              ),
            },
          ]}
        />
      ) : null}
      <Dialog
        open={creating}
        title={t('manage.form')}
        onClose={() => setCreating(false)}
        actions={
          <>
            <button type="button" className="btn btn-secondary" onClick={() => setCreating(false)}>
              {t('common.cancel')}
            </button>
            <button
              type="submit"
              form="assessment-form"
              className="btn"
              disabled={form.formState.isSubmitting}
            >
              {form.formState.isSubmitting ? <Spinner /> : null} {t('manage.createButton')}
            </button>
          </>
        }
      >
        <form id="assessment-form" onSubmit={submit} noValidate>
          <Field label={t('manage.name')} error={nameSaid(t, form.formState.errors.name?.message)} required>
            <input type="text" maxLength={120} {...form.register('name')} />
          </Field>
        </form>
      </Dialog>
      <ShareDialog
        assessment={sharing}
        onClose={(shared) => {
          setSharing(null);
          if (shared) list.reload();
        }}
      />
    </div>
  );
}
