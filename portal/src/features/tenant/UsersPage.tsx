import { tenantUsersList } from '@shared/contract/tenant';
import { totalPages } from '@shared/rules/pager';
import type { TenantUserEntry } from '@shared/schemas/tenant';
import { client } from '@widgets/core/api';
import { Loader } from '@widgets/ui/Loader';
import { Pager } from '@widgets/ui/Pager';
import { useEffect, useState } from 'react';
import type { z } from 'zod';

type Row = z.infer<typeof TenantUserEntry>;

/** /portal/users: the tenant's learner seats. */
export default function UsersPage() {
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState(5);
  const [search, setSearch] = useState('');
  const [searchText, setSearchText] = useState('');
  const [data, setData] = useState<{ rows: Row[]; total: number } | null>(null);
  const [error, setError] = useState('');

  useEffect(() => {
    let alive = true;
    setData(null);
    client
      .call(tenantUsersList, { query: { page, limit, searchText: searchText || undefined } })
      .then((r) => alive && setData({ rows: r.data.tenantUserList, total: r.data.totalUserCount }))
      .catch(
        () =>
          alive &&
          setError('At this time, we are unable to obtain the data. Please consider trying again later.'),
      );
    return () => {
      alive = false;
    };
  }, [page, limit, searchText]);

  return (
    <div className="page">
      <h1>Users</h1>
      <form
        className="row toolbar"
        onSubmit={(e) => {
          e.preventDefault();
          setPage(1);
          setSearchText(search.trim());
        }}
      >
        <label htmlFor="user-search" className="visually-hidden">
          Search users
        </label>
        <input
          id="user-search"
          className="input"
          type="search"
          placeholder="Search by name or e-mail"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
        <button type="submit" className="btn btn-secondary">
          Search
        </button>
        <div className="spacer" />
        <label htmlFor="page-size">Rows per page</label>
        <select
          id="page-size"
          className="input"
          value={limit}
          onChange={(e) => {
            setLimit(Number(e.target.value));
            setPage(1);
          }}
        >
          {[5, 10, 15].map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </form>
      {error ? (
        <div className="alert alert-error" role="alert">
          <strong>Failed</strong> {error}
        </div>
      ) : null}
      {!data && !error ? <Loader /> : null}
      {data ? (
        <div className="card table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Mobile</th>
                <th scope="col">email</th>
                <th scope="col">Action</th>
              </tr>
            </thead>
            <tbody>
              {data.rows.length === 0 ? (
                <tr>
                  <td colSpan={4} className="empty">
                    No data found
                  </td>
                </tr>
              ) : (
                data.rows.map((r) => (
                  <tr key={r._id} className={r.isDisabled ? 'disabled' : undefined}>
                    <td>{r.learnerId.name ?? '—'}</td>
                    <td>
                      {r.learnerId.phoneNumber
                        ? `${r.learnerId.countrycode ?? ''} ${r.learnerId.phoneNumber}`
                        : '—'}
                    </td>
                    <td>{r.learnerId.email}</td>
                    <td>
                      {r.isDisabled ? (
                        <span className="badge">Disabled</span>
                      ) : (
                        <span className="badge badge-success">Active</span>
                      )}
                    </td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
          <Pager
            page={page}
            totalPages={totalPages(data.total, limit)}
            onChange={setPage}
            label="User pages"
          />
        </div>
      ) : null}
    </div>
  );
}
