/**
 * /portal/users (mentor §2.3): the statistics cards, the learner seats (search on Enter or Search, from
 * page 1; 5, 10 or 15 a page), each row's actions (Analytics, Assigned Roadmap, Remove learner), Add User
 * with the subscription flow, and the Payment Status toast when the checkout sends the browser back with
 * ?stripe-status=success or failed.
 */
import {
  tenantDashboardStats,
  tenantExportUsers,
  tenantRemoveUser,
  tenantUsersList,
} from '@shared/contract/tenant';
import { USERS_REPORT } from '@shared/reports/columns';
import { formatDate } from '@shared/rules/format-date';
import { totalPages } from '@shared/rules/pager';
import type { TenantUserEntry } from '@shared/schemas/tenant';
import { client } from '@widgets/core/api';
import { messageOf, useCall } from '@widgets/core/useCall';
import { Dialog } from '@widgets/ui/Dialog';
import { Loader, Spinner } from '@widgets/ui/Loader';
import { Pager } from '@widgets/ui/Pager';
import { toast } from '@widgets/ui/Toast';
import { useEffect, useId, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { z } from 'zod';
import { DownloadCsv } from '../../components/DownloadCsv';
import { TableFailure } from '../../components/TableFailure';
import { ActionMenu, type MenuItem } from './ActionMenu';
import { TENANT_COPY } from './copy';
import { StatCards } from './StatCards';
import { Tip } from './ui';
import { AddUserDialog, type PaymentRequest } from './users/AddUserDialog';
import { PaymentDialog } from './users/PaymentDialog';

type Row = z.infer<typeof TenantUserEntry>;

export const PAGE_SIZES = [5, 10, 15] as const;

const displayName = (r: Row) => r.learnerId.name || r.learnerId.email;

/** The Payment Status toast (mentor §2.3): once per return from the checkout, then the query is dropped. */
function usePaymentStatus() {
  const [params, setParams] = useSearchParams();
  const status = params.get('stripe-status');
  const shown = useRef<string | null>(null);
  useEffect(() => {
    if (status !== 'success' && status !== 'failed') return;
    if (shown.current !== status) {
      shown.current = status;
      if (status === 'success') {
        toast(TENANT_COPY.paymentPaid, { kind: 'success', title: 'Payment Status', ms: 6000 });
      } else toast(TENANT_COPY.paymentFailed, { kind: 'error', title: 'Payment Status', ms: 6000 });
    }
    const next = new URLSearchParams(params);
    next.delete('stripe-status');
    next.delete('session_id');
    setParams(next, { replace: true });
  }, [status, params, setParams]);
}

export default function UsersPage() {
  usePaymentStatus();
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState<number>(5);
  const [search, setSearch] = useState('');
  const [searchText, setSearchText] = useState('');
  const [adding, setAdding] = useState(false);
  const [payment, setPayment] = useState<PaymentRequest | null>(null);
  const [removing, setRemoving] = useState<Row | null>(null);
  const [removeBusy, setRemoveBusy] = useState(false);
  const ids = useId();

  const stats = useCall((signal) => client.call(tenantDashboardStats, { signal }).then((r) => r.data), []);
  const list = useCall(
    (signal) =>
      client
        .call(tenantUsersList, { query: { page, limit, searchText: searchText || undefined }, signal })
        .then((r) => r.data),
    [page, limit, searchText],
  );
  const reload = () => {
    list.reload();
    stats.reload();
  };

  const pages = totalPages(list.data?.totalUserCount ?? 0, limit);
  useEffect(() => {
    // the last row of the last page was removed: show the page before
    if (list.data && page > pages) setPage(pages);
  }, [list.data, page, pages]);

  const remove = async () => {
    if (!removing) return;
    setRemoveBusy(true);
    try {
      const res = (await client.call(tenantRemoveUser, { params: { learnerId: removing.learnerId._id } }))
        .data;
      toast(
        res.removed
          ? `${displayName(removing)} was removed.`
          : `${displayName(removing)} stays with you until ${
              res.accessUntil ? formatDate(res.accessUntil) : 'the end of this billing cycle'
            }, then is removed.`,
        { kind: 'success', ms: 6000 },
      );
      setRemoving(null);
      reload();
    } catch (err) {
      toast(messageOf(err, 'The learner could not be removed. Please try again later.'), { kind: 'error' });
    } finally {
      setRemoveBusy(false);
    }
  };

  const menu = (r: Row): MenuItem[] => [
    { kind: 'link', label: 'Analytics', to: `/portal/users/${r.learnerId._id}/analytics` },
    { kind: 'link', label: 'Assigned Roadmap', to: `/portal/users/${r.learnerId._id}/assigned-roadmaps` },
    ...(r.isDisabled
      ? []
      : [{ kind: 'button' as const, label: 'Remove learner', danger: true, onSelect: () => setRemoving(r) }]),
  ];

  return (
    <div className="page">
      <h1>Users</h1>
      <StatCards stats={stats} />

      <section aria-labelledby={`${ids}-users`}>
        <h2 id={`${ids}-users`} className="visually-hidden">
          Your users
        </h2>
        <div className="row toolbar">
          <form
            className="row search-form"
            aria-label="User search"
            onSubmit={(e) => {
              e.preventDefault();
              setPage(1);
              setSearchText(search.trim());
            }}
          >
            <label htmlFor={`${ids}-search`} className="visually-hidden">
              Search users
            </label>
            <input
              id={`${ids}-search`}
              className="input"
              type="search"
              placeholder="Name or e-mail"
              maxLength={100}
              value={search}
              onChange={(e) => setSearch(e.target.value)}
            />
            <button type="submit" className="btn btn-secondary">
              Search
            </button>
          </form>
          <div className="spacer" />
          <label htmlFor={`${ids}-size`}>Rows per page</label>
          <select
            id={`${ids}-size`}
            className="input"
            value={limit}
            onChange={(e) => {
              setLimit(Number(e.target.value));
              setPage(1);
            }}
          >
            {PAGE_SIZES.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
          <DownloadCsv
            call={tenantExportUsers}
            args={{ query: { searchText: searchText || undefined } }}
            what={searchText ? `the users matching ${searchText}` : 'all your users'}
          />
          <button type="button" className="btn" onClick={() => setAdding(true)}>
            Add User
          </button>
        </div>

        {list.error ? <TableFailure /> : null}
        {list.loading && !list.data ? <Loader /> : null}
        {list.data ? (
          <div className="card table-wrap">
            <table className="table" aria-busy={list.loading}>
              <caption className="visually-hidden">Your users</caption>
              <thead>
                <tr>
                  <th scope="col">{USERS_REPORT.name.title}</th>
                  <th scope="col">{USERS_REPORT.mobile.title}</th>
                  <th scope="col">{USERS_REPORT.email.title}</th>
                  <th scope="col">Action</th>
                </tr>
              </thead>
              <tbody>
                {list.data.tenantUserList.length === 0 ? (
                  <tr>
                    <td colSpan={4} className="empty">
                      No data found
                    </td>
                  </tr>
                ) : (
                  list.data.tenantUserList.map((r) => (
                    <tr
                      key={r._id}
                      className={r.isDisabled ? 'disabled' : undefined}
                      title={r.isDisabled ? TENANT_COPY.disabledTip : undefined}
                    >
                      <th scope="row" className="cell-name" data-label={USERS_REPORT.name.title}>
                        {r.learnerId.name ?? '—'}
                      </th>
                      <td data-label={USERS_REPORT.mobile.title}>
                        {r.learnerId.phoneNumber
                          ? `${r.learnerId.countrycode ?? ''} ${r.learnerId.phoneNumber}`.trim()
                          : '—'}
                      </td>
                      <td data-label={USERS_REPORT.email.title} className="cell-wrap">
                        {r.learnerId.email}
                      </td>
                      <td data-label="Action">
                        <div className="user-actions">
                          <ActionMenu about={displayName(r)} items={menu(r)} />
                          {r.isDisabled ? (
                            <Tip label="Disabled" tip={TENANT_COPY.disabledTip} className="badge" />
                          ) : (
                            <span className="badge badge-success">Active</span>
                          )}
                        </div>
                      </td>
                    </tr>
                  ))
                )}
              </tbody>
            </table>
            <Pager page={Math.min(page, pages)} totalPages={pages} onChange={setPage} label="User pages" />
          </div>
        ) : null}
      </section>

      <AddUserDialog
        open={adding}
        onClose={() => setAdding(false)}
        onAdded={reload}
        onPaymentRequired={(request) => {
          setAdding(false);
          setPayment(request);
        }}
      />
      <PaymentDialog request={payment} onCancel={() => setPayment(null)} />
      <Dialog
        open={Boolean(removing)}
        role="alertdialog"
        title="Remove learner"
        onClose={() => setRemoving(null)}
        actions={
          <>
            <button type="button" className="btn btn-secondary" onClick={() => setRemoving(null)}>
              Cancel
            </button>
            <button
              type="button"
              className="btn btn-danger"
              onClick={() => void remove()}
              disabled={removeBusy}
            >
              {removeBusy ? <Spinner /> : null} Remove
            </button>
          </>
        }
      >
        {removing ? <p>{TENANT_COPY.removeQuestion(displayName(removing))}</p> : null}
      </Dialog>
    </div>
  );
}
