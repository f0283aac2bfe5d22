/**
 * /portal/roadmaps (mentor §2.6): 'Roadmap List' — Name, Language, Subject, Topic, Action Manage (to
 * /portal/roadmaps/{id}/roadmap). Failure: "Couldn't fetch the Roadmap please try later."
 */
import { tenantRoadmapList } from '@shared/contract/tenant';
import { client } from '@widgets/core/api';
import { useI18n } from '@widgets/core/i18n';
import { useCall } from '@widgets/core/useCall';
import { RoadmapTable } from '../../../components/RoadmapTable';

export default function RoadmapListPage() {
  const { t } = useI18n();
  const list = useCall(
    (signal) => client.call(tenantRoadmapList, { query: {}, signal }).then((r) => r.data),
    [],
  );
  return (
    <div className="page">
      <h1>{t('tenant.roadmapList')}</h1>
      <RoadmapTable
        list={list}
        caption={t('tenant.roadmapList')}
        empty={t('tenant.noData')}
        action={{
          header: t('column.action'),
          label: t('tenant.manage'),
          to: (r) => `/portal/roadmaps/${r._id}/roadmap`,
        }}
      />
    </div>
  );
}
