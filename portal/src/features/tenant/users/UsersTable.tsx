/**
 * The Users page's table of learner seats (mentor §2.3): name, mobile, e-mail, the cohorts each learner is
 * in (links to the cohort), and each row's actions (Analytics, Assigned Roadmap, Remove learner) with the
 * seat's state; a disabled seat is greyed with its billing-cycle tooltip. The pager below it.
 */
import { USERS_REPORT } from '@shared/reports/columns';
import type { TenantUserRow } from '@shared/schemas/tenant';
import { useI18n } from '@widgets/core/i18n';
import type { CallState } from '@widgets/core/useCall';
import { Pager } from '@widgets/ui/Pager';
import { Fragment } from 'react';
import { Link } from 'react-router';
import type { z } from 'zod';
import { ActionMenu, type MenuItem } from '../ActionMenu';
import { Tip } from '../ui';

export type Row = z.infer<typeof TenantUserRow>;

export const displayName = (r: Row) => r.learnerId.name || r.learnerId.email;

function Cohorts({ row }: { row: Row }) {
  if (!row.cohorts.length) return <>—</>;
  return (
    <>
      {row.cohorts.map((c, i) => (
        <Fragment key={c._id}>
          {i > 0 ? ', ' : null}
          <Link to={`/portal/cohorts/${c._id}`}>{c.name}</Link>
        </Fragment>
      ))}
    </>
  );
}

export function UsersTable({
  list,
  page,
  pages,
  onPage,
  onRemove,
}: {
  list: CallState<{ tenantUserList: Row[]; totalUserCount: number }>;
  page: number;
  pages: number;
  onPage: (page: number) => void;
  onRemove: (row: Row) => void;
}) {
  const { t } = useI18n();
  if (!list.data) return null;
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
            onSelect: () => onRemove(r),
          },
        ]),
  ];
  return (
    <div className="card table-wrap">
      <table className="table" aria-busy={list.loading}>
        <caption className="visually-hidden">{t('users.yours')}</caption>
        <thead>
          <tr>
            <th scope="col">{t(USERS_REPORT.name.key)}</th>
            <th scope="col">{t(USERS_REPORT.mobile.key)}</th>
            <th scope="col">{t(USERS_REPORT.email.key)}</th>
            <th scope="col">{t('users.cohort')}</th>
            <th scope="col">{t('column.action')}</th>
          </tr>
        </thead>
        <tbody>
          {list.data.tenantUserList.length === 0 ? (
            <tr>
              <td colSpan={5} className="empty">
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
                <td data-label={t('users.cohort')} className="cell-wrap">
                  <Cohorts row={r} />
                </td>
                <td data-label={t('column.action')}>
                  <div className="user-actions">
                    <ActionMenu about={displayName(r)} items={menu(r)} />
                    {r.isDisabled ? (
                      <Tip label={t('tenant.disabled')} tip={t('tenant.disabledTip')} className="badge" />
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
      <Pager page={Math.min(page, pages)} totalPages={pages} onChange={onPage} label={t('users.pages')} />
    </div>
  );
}
