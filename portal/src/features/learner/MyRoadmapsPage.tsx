import { assignUserToRoadmap, myRoadmaps } from '@shared/contract/catalogue';
import { assignedRoadmapColumns } from '@widgets/catalogue/columns';
import { client } from '@widgets/core/api';
import { useI18n } from '@widgets/core/i18n';
import { ASSESSED_ROADMAP_KEY, pending, RESOURCE_SHORT_ID_KEY } from '@widgets/core/pending';
import { messageOf, useCall } from '@widgets/core/useCall';
import { DataTable } from '@widgets/ui/DataTable';
import { Loader } from '@widgets/ui/Loader';
import { LoadFailed } from '@widgets/ui/LoadFailed';
import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { currentTranslator } from '../../lib/i18n';

/**
 * /my-roadmaps. Finishes what was started before sign-in first: a pending assessed or selected roadmap is
 * claimed (201 clears it and opens it), a pending resource short link is opened.
 */
export default function MyRoadmapsPage() {
  const navigate = useNavigate();
  const { t } = useI18n();
  const [claimError, setClaimError] = useState('');
  const [claiming, setClaiming] = useState(() => Boolean(pending.get(ASSESSED_ROADMAP_KEY)));
  const list = useCall((signal) => client.call(myRoadmaps, { signal }).then((r) => r.data), [claiming]);

  useEffect(() => {
    const shortId = pending.get(RESOURCE_SHORT_ID_KEY);
    const assessed = pending.get(ASSESSED_ROADMAP_KEY);
    if (assessed) {
      client
        .call(assignUserToRoadmap, { params: { id: assessed } })
        .then((res) => {
          pending.clear(ASSESSED_ROADMAP_KEY);
          navigate(`/my-roadmap/${res.data._id}`, { replace: true });
        })
        .catch((err) => {
          pending.clear(ASSESSED_ROADMAP_KEY);
          setClaimError(messageOf(err, currentTranslator().t('myRoadmaps.claimFailed')));
          setClaiming(false);
        });
      return;
    }
    if (shortId) {
      pending.clear(RESOURCE_SHORT_ID_KEY);
      navigate(`/resource/${shortId}`, { replace: true });
    }
  }, [navigate]);

  return (
    <div className="page">
      <h1>{t('myRoadmaps.title')}</h1>
      {claimError ? (
        <p className="alert alert-error" role="alert">
          {claimError}
        </p>
      ) : null}
      {list.error ? <LoadFailed error={list.error} fallback={t('catalogue.listFailed')} /> : null}
      {claiming || (list.loading && !list.data) ? <Loader /> : null}
      {!claiming && list.data?.length === 0 ? (
        <div className="card empty">
          <p>{t('myRoadmaps.empty')}</p>
          <Link className="btn" to="/all-roadmaps">
            {t('myRoadmaps.select')}
          </Link>
        </div>
      ) : null}
      {!claiming && list.data?.length ? (
        <DataTable
          caption={t('myRoadmaps.caption')}
          rows={list.data}
          rowKey={(r) => r._id}
          columns={[
            ...assignedRoadmapColumns(t),
            {
              header: t('roadmaps.view'),
              cell: (r) => (
                <Link
                  className="btn btn-secondary"
                  to={`/my-roadmap/${r._id}`}
                  aria-label={t('roadmaps.actionOf', { action: t('roadmaps.view'), name: r.name })}
                >
                  {t('roadmaps.view')}
                </Link>
              ),
            },
          ]}
        >
          <p className="muted table-note">
            <Link to="/all-roadmaps">{t('myRoadmaps.browse')}</Link>
          </p>
        </DataTable>
      ) : null}
    </div>
  );
}
