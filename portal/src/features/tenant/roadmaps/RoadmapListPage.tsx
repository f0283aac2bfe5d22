/**
 * /portal/roadmaps (mentor §2.6): 'Roadmap List' — Name, Language, Subject, Topic, Action Manage (to
 * /portal/roadmaps/{id}/roadmap). Failure: "Couldn't fetch the Roadmap please try later."
 */
import { tenantRoadmapList } from '@shared/contract/tenant';
import { client } from '@widgets/core/api';
import { useCall } from '@widgets/core/useCall';
import { RoadmapTable } from '../../../components/RoadmapTable';

export default function RoadmapListPage() {
  const list = useCall(
    (signal) => client.call(tenantRoadmapList, { query: {}, signal }).then((r) => r.data),
    [],
  );
  return (
    <div className="page">
      <h1>Roadmap List</h1>
      <RoadmapTable
        list={list}
        caption="Roadmap List"
        empty="No data found"
        action={{ header: 'Action', label: 'Manage', to: (r) => `/portal/roadmaps/${r._id}/roadmap` }}
      />
    </div>
  );
}
