/** Small pieces the mentor portal's pages share. */
import { LEARNING_REPORT } from '@shared/reports/columns';
import { useI18n } from '@widgets/core/i18n';
import type { CallState } from '@widgets/core/useCall';
import { Arrow } from '@widgets/ui/Arrow';
import { Loader } from '@widgets/ui/Loader';
import { type ReactNode, useId } from 'react';
import { Link } from 'react-router';
import { TableFailure } from '../../components/TableFailure';
import './tenant.css';

/** The columns every report of learners starts with (the same in each report's file). */
const NAME = LEARNING_REPORT.name.key;
const EMAIL = LEARNING_REPORT.email.key;

/** A word with a tooltip shown on hover and on keyboard focus, and read as the word's description. */
export function Tip({ label, tip, className }: { label: string; tip: string; className?: string }) {
  const id = useId();
  return (
    <span className="tip-wrap">
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: focusable so keyboard users get the tooltip too */}
      <span className={className} tabIndex={0} aria-describedby={id}>
        {label}
      </span>
      <span role="tooltip" id={id} className="tip">
        {tip}
      </span>
    </span>
  );
}

/** The way back to the page a mentor's page belongs to (Users, Cohorts). */
export function BackTo({ to, label }: { to: string; label: string }) {
  return (
    <p>
      <Link to={to}>
        <Arrow to="back" /> {label}
      </Link>
    </p>
  );
}

/** A figure of one kind (FEATHER, BADGE, CERTIFICATE) for counter rows. */
export function Counter({ label, value }: { label: string; value: number | string }) {
  return (
    <li className="counter">
      <strong>{value}</strong> <span>{label}</span>
    </li>
  );
}

/**
 * A mentor's report of learners (the Learning Report, the award tables): the way back to Users, the title
 * with its 'Download CSV', then the table once loaded — 'No data found' when it has no rows, the failure
 * notice when it could not be loaded. Each row starts with the learner's name and e-mail address, titled as
 * the report's file is (shared/reports/columns.ts); `head` and `cells` are the report's own columns after
 * them, `columns` how many there are in all; `children` follow the table (a dialog).
 */
export function ReportPage<T extends { name?: string | null; email: string }>({
  title,
  download,
  report,
  head,
  columns,
  rowKey,
  cells,
  children,
}: {
  title: string;
  download: ReactNode;
  report: CallState<T[]>;
  head: ReactNode;
  columns: number;
  rowKey: (r: T) => string;
  cells: (r: T) => ReactNode;
  children?: ReactNode;
}) {
  const { t } = useI18n();
  return (
    <div className="page">
      <BackTo to="/portal/users" label={t('nav.users')} />
      <div className="page-head">
        <h1>{title}</h1>
        {download}
      </div>
      {report.error ? <TableFailure /> : null}
      {report.loading && !report.data ? <Loader /> : null}
      {report.data ? (
        <div className="card table-wrap">
          <table className="table">
            <caption className="visually-hidden">{title}</caption>
            <thead>
              <tr>
                <th scope="col">{t(NAME)}</th>
                <th scope="col">{t(EMAIL)}</th>
                {head}
              </tr>
            </thead>
            <tbody>
              {report.data.length === 0 ? (
                <tr>
                  <td colSpan={columns} className="empty">
                    {t('tenant.noData')}
                  </td>
                </tr>
              ) : (
                report.data.map((r) => (
                  <tr key={rowKey(r)}>
                    <th scope="row" className="cell-name" data-label={t(NAME)}>
                      {r.name ?? '—'}
                    </th>
                    <td className="cell-wrap" data-label={t(EMAIL)}>
                      {r.email}
                    </td>
                    {cells(r)}
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
      ) : null}
      {children}
    </div>
  );
}
