/**
 * /portal/users (mentor §2.3): the statistics cards, the learner seats (search on Enter or Search, from
 * page 1; a cohort; 5, 10 or 15 a page — all kept in the address), each row's cohorts and actions
 * (Analytics, Assigned Roadmap, Remove learner), Add User with the subscription flow, and the Payment Status
 * toast when the checkout sends the browser back with ?stripe-status=success or failed.
 */

import { cohortList } from '@shared/contract/cohorts';
import { tenantDashboardStats, tenantUsersList } from '@shared/contract/tenant';
import { totalPages } from '@shared/rules/pager';
import { client } from '@widgets/core/api';
import { useI18n } from '@widgets/core/i18n';
import { useCall } from '@widgets/core/useCall';
import { Loader } from '@widgets/ui/Loader';
import { toast } from '@widgets/ui/Toast';
import { useEffect, useId, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { TableFailure } from '../../components/TableFailure';
import { StatCards } from './StatCards';
import { AddUserDialog, type PaymentRequest } from './users/AddUserDialog';
import { PaymentDialog } from './users/PaymentDialog';
import { RemoveLearnerDialog } from './users/RemoveLearnerDialog';
import { type Row, UsersTable } from './users/UsersTable';
import { UsersToolbar } from './users/UsersToolbar';
import { useUsersFilters } from './users/useUsersFilters';

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
  const { t } = useI18n();
  const filters = useUsersFilters();
  const { page, limit, searchText, cohortId, change } = filters;
  const [adding, setAdding] = useState(false);
  const [payment, setPayment] = useState<PaymentRequest | null>(null);
  const [removing, setRemoving] = useState<Row | null>(null);
  const ids = useId();

  const stats = useCall((signal) => client.call(tenantDashboardStats, { signal }).then((r) => r.data), []);
  const cohorts = useCall((signal) => client.call(cohortList, { signal }).then((r) => r.data), []);
  const list = useCall(
    (signal) =>
      client
        .call(tenantUsersList, {
          query: { page, limit, searchText: searchText || undefined, cohortId },
          signal,
        })
        .then((r) => r.data),
    [page, limit, searchText, cohortId],
  );
  const reload = () => {
    list.reload();
    stats.reload();
  };

  const pages = totalPages(list.data?.totalUserCount ?? 0, limit);
  useEffect(() => {
    // the last row of the last page was removed: show the page before
    if (list.data && page > pages) change({ page: pages });
  }, [list.data, page, pages, change]);

  return (
    <div className="page">
      <h1>{t('nav.users')}</h1>
      <StatCards stats={stats} />

      <section aria-labelledby={`${ids}-users`}>
        <h2 id={`${ids}-users`} className="visually-hidden">
          {t('users.yours')}
        </h2>
        <UsersToolbar filters={filters} cohorts={cohorts.data ?? []} onAdd={() => setAdding(true)} />
        {list.error ? <TableFailure /> : null}
        {list.loading && !list.data ? <Loader /> : null}
        <UsersTable
          list={list}
          page={page}
          pages={pages}
          onPage={(p) => change({ page: p })}
          onRemove={setRemoving}
        />
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
      <RemoveLearnerDialog removing={removing} onClose={() => setRemoving(null)} onRemoved={reload} />
    </div>
  );
}
