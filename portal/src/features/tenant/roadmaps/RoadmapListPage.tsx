/**
 * /portal/roadmaps (mentor §2.6): 'Roadmap List' — Name, Language, Subject, Topic, Action Manage (to
 * /portal/roadmaps/{id}/roadmap). Failure: "Couldn't fetch the Roadmap please try later."
 */
import { tenantRoadmapList } from '@shared/contract/tenant';
import { roadmapColumns } from '@widgets/catalogue/columns';
import { client } from '@widgets/core/api';
import { useCall } from '@widgets/core/useCall';
import { DataTable } from '@widgets/ui/DataTable';
import { Loader } from '@widgets/ui/Loader';
import { LoadFailed } from '@widgets/ui/LoadFailed';
import { Link } from 'react-router';

export default function RoadmapListPage() {
  const list = useCall(
    (signal) => client.call(tenantRoadmapList, { query: {}, signal }).then((r) => r.data),
    [],
  );
  return (
    <div className="page">
      <h1>Roadmap List</h1>
      {list.error ? (
        <LoadFailed error={list.error} fallback="Couldn't fetch the Roadmap please try later." />
      ) : null}
      {list.loading && !list.data ? <Loader /> : null}
      {list.data ? (
        <DataTable
          caption="Roadmap List"
          rows={list.data}
          rowKey={(r) => r._id}
          empty="No data found"
          columns={[
            ...roadmapColumns,
            {
              header: 'Action',
              cell: (r) => (
                <Link
                  className="btn btn-secondary"
                  to={`/portal/roadmaps/${r._id}/roadmap`}
                  aria-label={`Manage ${r.name}`}
                >
                  Manage
                </Link>
              ),
            },
          ]}
        />
      ) : null}
    </div>
  );
}
