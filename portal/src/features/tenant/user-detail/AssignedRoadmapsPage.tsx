/**
 * /portal/users/{userId}/assigned-roadmaps (mentor §2.6): the learner's roadmaps (#, Name, Status, Action
 * View) with Select Roadmaps; empty: 'No Roadmaps found, Take one now' with Select a Roadmap.
 */
import { tenantAssignedRoadmaps } from '@shared/contract/tenant';
import { assignedRoadmapColumns } from '@widgets/catalogue/columns';
import { client } from '@widgets/core/api';
import { useI18n } from '@widgets/core/i18n';
import { useCall } from '@widgets/core/useCall';
import { DataTable } from '@widgets/ui/DataTable';
import { Loader } from '@widgets/ui/Loader';
import { Link } from 'react-router';
import { TableFailure } from '../../../components/TableFailure';
import { useLearner, useUserId } from './LearnerLayout';

export default function AssignedRoadmapsPage() {
  const userId = useUserId();
  const { t } = useI18n();
  const learner = useLearner();
  const list = useCall(
    (signal) => client.call(tenantAssignedRoadmaps, { params: { userId }, signal }).then((r) => r.data),
    [userId],
  );
  const base = `/portal/users/${userId}`;
  return (
    <div>
      <div className="page-head">
        <h1>{t('tenant.assignedRoadmaps')}</h1>
        {list.data?.length && !learner.isDisabled ? (
          <Link className="btn" to={`${base}/all-roadmaps`}>
            {t('tenant.selectRoadmaps')}
          </Link>
        ) : null}
      </div>
      {list.error ? <TableFailure /> : null}
      {list.loading && !list.data ? <Loader /> : null}
      {list.data?.length === 0 ? (
        <div className="card empty">
          <p>{t('myRoadmaps.empty')}</p>
          {learner.isDisabled ? null : (
            <Link className="btn" to={`${base}/all-roadmaps`}>
              {t('myRoadmaps.select')}
            </Link>
          )}
        </div>
      ) : null}
      {list.data?.length ? (
        <DataTable
          caption={t('tenant.roadmapsOf', { name: learner.name || learner.email })}
          rows={list.data}
          rowKey={(r) => r._id}
          columns={[
            ...assignedRoadmapColumns(t),
            {
              header: t('column.action'),
              cell: (r) => (
                <Link
                  className="btn btn-secondary"
                  to={`${base}/assigned-roadmaps/${r._id}`}
                  aria-label={t('roadmaps.actionOf', { action: t('roadmaps.view'), name: r.name })}
                >
                  {t('roadmaps.view')}
                </Link>
              ),
            },
          ]}
        />
      ) : null}
    </div>
  );
}
