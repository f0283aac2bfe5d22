/**
 * /portal/users (mentor §2.3): the statistics cards, the learner seats (search on Enter or Search, from
 * page 1; 5, 10 or 15 a page), each row's actions (Analytics, Assigned Roadmap, Remove learner), Add User
 * with the subscription flow, and the Payment Status toast when the checkout sends the browser back with
 * ?stripe-status=success or failed.
 */
import { tenantDashboardStats, tenantRemoveUser, tenantUsersList } from '@shared/contract/tenant';
import { tenantExportUsers } from '@shared/contract/tenant-exports';
import { USERS_REPORT } from '@shared/reports/columns';
import { formatDate } from '@shared/rules/format-date';
import { totalPages } from '@shared/rules/pager';
import type { TenantUserEntry } from '@shared/schemas/tenant';
import { client } from '@widgets/core/api';
import { useI18n } from '@widgets/core/i18n';
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
import { StatCards } from './StatCards';
import { Tip } from './ui';
import { AddUserDialog, type PaymentRequest } from './users/AddUserDialog';
import { PaymentDialog } from './users/PaymentDialog';

type Row = z.infer<typeof TenantUserEntry>;

export const PAGE_SIZES = [5, 10, 15] as const;

const displayName = (r: Row) => r.learnerId.name || r.learnerId.email;

/** The Payment Status toast (mentor §2.3): once per return from the checkout, then the query is dropped. */
function usePaymentStatus() {
  const { t } = useI18n();
  const [params, setParams] = useSearchParams();
  const status = params.get('stripe-status');
  const shown = useRef<string | null>(null);
  useEffect(() => {
    if (status !== 'success' && status !== 'failed') return;
    if (shown.current !== status) {
      shown.current = status;
      if (status === 'success') {
        toast(t('payment.paid'), { kind: 'success', title: t('payment.status'), ms: 6000 });
      } else toast(t('payment.failed'), { kind: 'error', title: t('payment.status'), ms: 6000 });
    }
    const next = new URLSearchParams(params);
    next.delete('stripe-status');
    next.delete('session_id');
    setParams(next, { replace: true });
  }, [status, params, setParams, t]);
}

export default function UsersPage() {
  usePaymentStatus();
  const { t, locale } = useI18n();
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
          ? t('users.removed', { name: displayName(removing) })
          : res.accessUntil
            ? t('users.staysUntil', {
                name: displayName(removing),
                date: formatDate(res.accessUntil, undefined, locale),
              })
            : t('users.staysUntilCycleEnd', { name: displayName(removing) }),
        { kind: 'success', ms: 6000 },
      );
      setRemoving(null);
      reload();
    } catch (err) {
      toast(messageOf(err, t('users.removeFailed')), { kind: 'error' });
    } finally {
      setRemoveBusy(false);
    }
  };

  const menu = (r: Row): MenuItem[] => [
    { kind: 'link', label: t('users.analytics'), to: `/portal/users/${r.learnerId._id}/analytics` },
    {
      kind: 'link',
      label: t('users.assignedRoadmap'),
      to: `/portal/users/${r.learnerId._id}/assigned-roadmaps`,
    },
    ...(r.isDisabled
      ? []
      : [
          {
            kind: 'button' as const,
            label: t('users.removeLearner'),
            danger: true,
            onSelect: () => setRemoving(r),
          },
        ]),
  ];

  return (
    <div className="page">
      <h1>{t('nav.users')}</h1>
      <StatCards stats={stats} />

      <section aria-labelledby={`${ids}-users`}>
        <h2 id={`${ids}-users`} className="visually-hidden">
          {t('users.yours')}
        </h2>
        <div className="row toolbar">
          <form
            className="row search-form"
            aria-label={t('users.search')}
            onSubmit={(e) => {
              e.preventDefault();
              setPage(1);
              setSearchText(search.trim());
            }}
          >
            <label htmlFor={`${ids}-search`} className="visually-hidden">
              {t('users.searchUsers')}
            </label>
            <input
              id={`${ids}-search`}
              className="input"
              type="search"
              placeholder={t('users.searchPlaceholder')}
              maxLength={100}
              value={search}
              onChange={(e) => setSearch(e.target.value)}
            />
            <button type="submit" className="btn btn-secondary">
              {t('users.searchButton')}
            </button>
          </form>
          <div className="spacer" />
          <label htmlFor={`${ids}-size`}>{t('users.rowsPerPage')}</label>
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
                {n.toLocaleString(locale)}
              </option>
            ))}
          </select>
          <DownloadCsv
            call={tenantExportUsers}
            args={{ query: { searchText: searchText || undefined } }}
            what={searchText ? t('users.matching', { text: searchText }) : t('users.all')}
          />
          <button type="button" className="btn" onClick={() => setAdding(true)}>
            {t('users.add')}
          </button>
        </div>

        {list.error ? <TableFailure /> : null}
        {list.loading && !list.data ? <Loader /> : null}
        {list.data ? (
          <div className="card table-wrap">
            <table className="table" aria-busy={list.loading}>
              <caption className="visually-hidden">{t('users.yours')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t(USERS_REPORT.name.key)}</th>
                  <th scope="col">{t(USERS_REPORT.mobile.key)}</th>
                  <th scope="col">{t(USERS_REPORT.email.key)}</th>
                  <th scope="col">{t('column.action')}</th>
                </tr>
              </thead>
              <tbody>
                {list.data.tenantUserList.length === 0 ? (
                  <tr>
                    <td colSpan={4} className="empty">
                      {t('tenant.noData')}
                    </td>
                  </tr>
                ) : (
                  list.data.tenantUserList.map((r) => (
                    <tr
                      key={r._id}
                      className={r.isDisabled ? 'disabled' : undefined}
                      title={r.isDisabled ? t('tenant.disabledTip') : undefined}
                    >
                      <th scope="row" className="cell-name" data-label={t(USERS_REPORT.name.key)}>
                        {r.learnerId.name ?? '—'}
                      </th>
                      <td data-label={t(USERS_REPORT.mobile.key)}>
                        {r.learnerId.phoneNumber
                          ? `${r.learnerId.countrycode ?? ''} ${r.learnerId.phoneNumber}`.trim()
                          : '—'}
                      </td>
                      <td data-label={t(USERS_REPORT.email.key)} className="cell-wrap">
                        {r.learnerId.email}
                      </td>
                      <td data-label={t('column.action')}>
                        <div className="user-actions">
                          <ActionMenu about={displayName(r)} items={menu(r)} />
                          {r.isDisabled ? (
                            <Tip
                              label={t('tenant.disabled')}
                              tip={t('tenant.disabledTip')}
                              className="badge"
                            />
                          ) : (
                            <span className="badge badge-success">{t('users.active')}</span>
                          )}
                        </div>
                      </td>
                    </tr>
                  ))
                )}
              </tbody>
            </table>
            <Pager
              page={Math.min(page, pages)}
              totalPages={pages}
              onChange={setPage}
              label={t('users.pages')}
            />
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
        title={t('users.removeLearner')}
        onClose={() => setRemoving(null)}
        actions={
          <>
            <button type="button" className="btn btn-secondary" onClick={() => setRemoving(null)}>
              {t('common.cancel')}
            </button>
            <button
              type="button"
              className="btn btn-danger"
              onClick={() => void remove()}
              disabled={removeBusy}
            >
              {removeBusy ? <Spinner /> : null} {t('users.remove')}
            </button>
          </>
        }
      >
        {removing ? <p>{t('users.removeQuestion', { name: displayName(removing) })}</p> : null}
      </Dialog>
    </div>
  );
}
