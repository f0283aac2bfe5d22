/**
 * /portal/cohorts/:cohortId (issue 28; decisions 043, 050): one cohort — its name (rename, delete), its
 * members (add the tenant's learners, take them out) and the roadmaps every member gets. A cohort the
 * organisation's directory manages over SCIM says so, and its name and members are read-only here (the
 * directory would push them again); roadmaps may still be given to it.
 */
import { cohortShow, deleteCohort, renameCohort } from '@shared/contract/cohorts';
import type { CohortDetail } from '@shared/schemas/tenant';
import { client } from '@widgets/core/api';
import { useI18n } from '@widgets/core/i18n';
import { messageOf, useCall } from '@widgets/core/useCall';
import { Dialog } from '@widgets/ui/Dialog';
import { Loader, Spinner } from '@widgets/ui/Loader';
import { LoadFailed } from '@widgets/ui/LoadFailed';
import { toast } from '@widgets/ui/Toast';
import { useId, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import type { z } from 'zod';
import { BackTo } from '../ui';
import { CohortMembers } from './CohortMembers';
import { CohortRoadmaps } from './CohortRoadmaps';
import { CohortNameField, FormError } from './parts';

export type Detail = z.infer<typeof CohortDetail>;

/** Rename and Delete, for a cohort made here. */
function CohortSettings({ cohort, onChanged }: { cohort: Detail; onChanged: () => void }) {
  const { t } = useI18n();
  const ids = useId();
  const navigate = useNavigate();
  const [name, setName] = useState(cohort.name);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [deleting, setDeleting] = useState(false);
  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError('');
    try {
      await work();
    } catch (err) {
      setError(messageOf(err, t('cohorts.failed')));
      setDeleting(false);
    } finally {
      setBusy(false);
    }
  };
  const rename = () =>
    run(async () => {
      const { data } = await client.call(renameCohort, { params: { id: cohort._id }, body: { name } });
      toast(t('cohorts.renamed', { name: data.name }), { kind: 'success' });
      onChanged();
    });
  const remove = () =>
    run(async () => {
      await client.call(deleteCohort, { params: { id: cohort._id } });
      toast(t('cohorts.deleted', { name: cohort.name }), { kind: 'success' });
      navigate('/portal/cohorts');
    });
  return (
    <>
      <form
        className="row toolbar"
        onSubmit={(e) => {
          e.preventDefault();
          void rename();
        }}
      >
        <CohortNameField id={ids} label={t('cohorts.name')} value={name} onChange={setName} error={error} />
        <button
          type="submit"
          className="btn btn-secondary"
          disabled={busy || !name.trim() || name.trim() === cohort.name}
        >
          {t('cohorts.rename')}
        </button>
        <div className="spacer" />
        <button type="button" className="btn btn-danger" onClick={() => setDeleting(true)}>
          {t('cohorts.delete')}
        </button>
      </form>
      <FormError id={ids} error={error} />
      <Dialog
        open={deleting}
        role="alertdialog"
        title={t('cohorts.delete')}
        onClose={() => setDeleting(false)}
        actions={
          <>
            <button type="button" className="btn btn-secondary" onClick={() => setDeleting(false)}>
              {t('common.cancel')}
            </button>
            <button type="button" className="btn btn-danger" disabled={busy} onClick={() => void remove()}>
              {busy ? <Spinner /> : null} {t('cohorts.deleteConfirm')}
            </button>
          </>
        }
      >
        <p>{t('cohorts.deleteQuestion', { name: cohort.name })}</p>
      </Dialog>
    </>
  );
}

export default function CohortPage() {
  const { t } = useI18n();
  const { cohortId = '' } = useParams();
  const cohort = useCall(
    (signal) => client.call(cohortShow, { params: { id: cohortId }, signal }).then((r) => r.data),
    [cohortId],
  );
  const c = cohort.data;
  return (
    <div className="page">
      <BackTo to="/portal/cohorts" label={t('nav.cohorts')} />
      {cohort.error ? <LoadFailed error={cohort.error} /> : null}
      {cohort.loading && !c ? <Loader /> : null}
      {c ? (
        <>
          <h1>{c.name}</h1>
          {c.scimManaged ? (
            <p className="alert alert-info">{t('cohorts.scimNotice')}</p>
          ) : (
            <CohortSettings key={c.name} cohort={c} onChanged={cohort.reload} />
          )}
          <CohortMembers cohort={c} onChanged={cohort.reload} />
          <CohortRoadmaps cohort={c} onChanged={cohort.reload} />
        </>
      ) : null}
    </div>
  );
}
