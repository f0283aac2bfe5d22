/**
 * /portal/roadmaps (mentor §2.6): 'Roadmap List' — Name, Language, Subject, Topic, Action Manage (to
 * /portal/roadmaps/{id}/roadmap). Failure: "Couldn't fetch the Roadmap please try later."
 */
import { tenantRoadmapList } from '@shared/contract/tenant';
import { client } from '@widgets/core/api';
import { messageOf, useCall } from '@widgets/core/useCall';
import { Loader } from '@widgets/ui/Loader';
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
        <p className="alert alert-error" role="alert">
          {messageOf(list.error, "Couldn't fetch the Roadmap please try later.")}
        </p>
      ) : null}
      {list.loading && !list.data ? <Loader /> : null}
      {list.data ? (
        <div className="card table-wrap">
          <table className="table">
            <caption className="visually-hidden">Roadmap List</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Language</th>
                <th scope="col">Subject</th>
                <th scope="col">Topic</th>
                <th scope="col">Action</th>
              </tr>
            </thead>
            <tbody>
              {list.data.length === 0 ? (
                <tr>
                  <td colSpan={5} className="empty">
                    No data found
                  </td>
                </tr>
              ) : (
                list.data.map((r) => (
                  <tr key={r._id}>
                    <td>{r.name}</td>
                    <td>{r.language.name}</td>
                    <td>{r.subject.name}</td>
                    <td>{r.topic?.name ?? '—'}</td>
                    <td>
                      <Link
                        className="btn btn-secondary"
                        to={`/portal/roadmaps/${r._id}/roadmap`}
                        aria-label={`Manage ${r.name}`}
                      >
                        Manage
                      </Link>
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
