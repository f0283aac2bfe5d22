import { zodResolver } from '@hookform/resolvers/zod';
import { type AssessmentSummary, assessmentList, createAssessment } from '@shared/contract/authoring';
import { formatDateTime } from '@shared/rules/format-date';
import { AssessmentNameInput } from '@shared/schemas/authoring';
import { client } from '@widgets/core/api';
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
import { ShareDialog } from './ShareDialog';

type Summary = z.infer<typeof AssessmentSummary>;

/** /portal/manage-assessment: the tenant's assessments, create one, share one, open the builder. */
export default function ManageAssessmentPage() {
  const navigate = useNavigate();
  const list = useCall((signal) => client.call(assessmentList, { signal }).then((r) => r.data), []);
  const [creating, setCreating] = useState(false);
  const [sharing, setSharing] = useState<Summary | null>(null);
  const form = useForm<z.input<typeof AssessmentNameInput>, unknown, z.output<typeof AssessmentNameInput>>({
    resolver: zodResolver(AssessmentNameInput),
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
        message: messageOf(err, 'The assessment could not be created.'),
      });
    }
  });

  return (
    <div className="page">
      <div className="row">
        <h1>Manage Assessment</h1>
        <div className="spacer" />
        <button
          type="button"
          className="btn"
          onClick={() => {
            form.reset({ name: '' });
            setCreating(true);
          }}
        >
          Create Assessment
        </button>
      </div>
      {list.error ? <TableFailure /> : null}
      {list.loading && !list.data ? <Loader text="Fetching data..." /> : null}
      {list.data ? (
        <DataTable
          caption="Your assessments"
          rows={list.data}
          rowKey={(a) => a._id}
          empty="No data found"
          columns={[
            { header: 'Assessment name', cell: (a) => a.name },
            { header: 'Created by', cell: (a) => a.tenantId.name },
            { header: 'Created at', cell: (a) => formatDateTime(a.createdAt) },
            { header: 'Questions', cell: (a) => a.questionCount },
            {
              header: 'Action',
              cell: (a) => (
                <div className="row">
                  <button
                    type="button"
                    className="btn btn-secondary"
                    onClick={() => setSharing(a)}
                    aria-label={`Share ${a.name}`}
                  >
                    Share
                  </button>
                  <Link
                    className="btn btn-secondary"
                    to={`/portal/create-assessment/${a._id}`}
                    aria-label={`Manage ${a.name}`}
                  >
                    Manage
                  </Link>
                </div>
              ),
            },
          ]}
        />
      ) : null}
      <Dialog
        open={creating}
        title="Assessment Form"
        onClose={() => setCreating(false)}
        actions={
          <>
            <button type="button" className="btn btn-secondary" onClick={() => setCreating(false)}>
              Cancel
            </button>
            <button
              type="submit"
              form="assessment-form"
              className="btn"
              disabled={form.formState.isSubmitting}
            >
              {form.formState.isSubmitting ? <Spinner /> : null} Create
            </button>
          </>
        }
      >
        <form id="assessment-form" onSubmit={submit} noValidate>
          <Field label="Assessment name" error={form.formState.errors.name?.message} required>
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
