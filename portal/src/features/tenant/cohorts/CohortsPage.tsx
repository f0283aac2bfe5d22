/**
 * /portal/cohorts (issue 28; decisions 043, 050): the mentor's cohorts — named groups of learners made here
 * or pushed by the organisation's directory over SCIM — with their members, roadmaps and who manages each,
 * and a form to make one. Each name leads to the cohort's page.
 */
import { cohortList, createCohort } from '@shared/contract/cohorts';
import { client } from '@widgets/core/api';
import { useI18n } from '@widgets/core/i18n';
import { messageOf, useCall } from '@widgets/core/useCall';
import { Loader, Spinner } from '@widgets/ui/Loader';
import { toast } from '@widgets/ui/Toast';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { TableFailure } from '../../../components/TableFailure';
import { BackTo } from '../ui';
import { CohortNameField, FormError } from './parts';

function CreateCohort({ onCreated }: { onCreated: () => void }) {
  const { t } = useI18n();
  const ids = useId();
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const submit = async () => {
    setBusy(true);
    setError('');
    try {
      const { data } = await client.call(createCohort, { body: { name } });
      toast(t('cohorts.created', { name: data.name }), { kind: 'success' });
      setName('');
      onCreated();
    } catch (err) {
      setError(messageOf(err, t('cohorts.failed')));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      className="row toolbar"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <CohortNameField id={ids} label={t('cohorts.newName')} value={name} onChange={setName} error={error} />
      <button type="submit" className="btn" disabled={busy || !name.trim()}>
        {busy ? <Spinner /> : null} {t('cohorts.create')}
      </button>
      <FormError id={ids} error={error} />
    </form>
  );
}

export default function CohortsPage() {
  const { t } = useI18n();
  const list = useCall((signal) => client.call(cohortList, { signal }).then((r) => r.data), []);
  return (
    <div className="page">
      <BackTo to="/portal/users" label={t('nav.users')} />
      <h1>{t('nav.cohorts')}</h1>
      <p className="muted">{t('cohorts.intro')}</p>
      <CreateCohort onCreated={list.reload} />
      {list.error ? <TableFailure /> : null}
      {list.loading && !list.data ? <Loader /> : null}
      {list.data ? (
        <div className="card table-wrap">
          <table className="table" aria-busy={list.loading}>
            <caption className="visually-hidden">{t('cohorts.yours')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('cohorts.name')}</th>
                <th scope="col">{t('cohorts.members')}</th>
                <th scope="col">{t('cohorts.roadmaps')}</th>
                <th scope="col">{t('cohorts.source')}</th>
              </tr>
            </thead>
            <tbody>
              {list.data.length === 0 ? (
                <tr>
                  <td colSpan={4} className="empty">
                    {t('cohorts.none')}
                  </td>
                </tr>
              ) : (
                list.data.map((c) => (
                  <tr key={c._id}>
                    <th scope="row" className="cell-name" data-label={t('cohorts.name')}>
                      <Link to={`/portal/cohorts/${c._id}`}>{c.name}</Link>
                    </th>
                    <td data-label={t('cohorts.members')}>
                      {t('cohorts.memberCount', { count: c.memberCount })}
                    </td>
                    <td data-label={t('cohorts.roadmaps')} className="cell-wrap">
                      {c.roadmaps.map((r) => r.name).join(', ') || '—'}
                    </td>
                    <td data-label={t('cohorts.source')}>
                      {c.scimManaged ? (
                        <span className="badge badge-primary">{t('cohorts.byScim')}</span>
                      ) : (
                        t('cohorts.byPortal')
                      )}
                    </td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
      ) : null}
    </div>
  );
}
