/**
 * The Users page's toolbar (mentor §2.3): the search (on Enter or Search, from page 1), the cohort filter,
 * rows per page (5, 10 or 15), the CSV of what the table shows, Add User, and the way to the cohorts.
 */
import { tenantExportUsers } from '@shared/contract/tenant-exports';
import type { Cohort } from '@shared/schemas/tenant';
import { useI18n } from '@widgets/core/i18n';
import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import { DownloadCsv } from '../../../components/DownloadCsv';
import { PAGE_SIZES, type useUsersFilters } from './useUsersFilters';

export function UsersToolbar({
  filters,
  cohorts,
  onAdd,
}: {
  filters: ReturnType<typeof useUsersFilters>;
  cohorts: readonly Cohort[];
  onAdd: () => void;
}) {
  const { t, locale } = useI18n();
  const ids = useId();
  const { searchText, cohortId, limit, change } = filters;
  const [search, setSearch] = useState(searchText);
  // the address changed (Back, a link): the box shows its search
  useEffect(() => setSearch(searchText), [searchText]);
  const cohort = cohorts.find((c) => c._id === cohortId);
  const what = cohort
    ? searchText
      ? t('users.inCohortMatching', { cohort: cohort.name, text: searchText })
      : t('users.inCohort', { cohort: cohort.name })
    : searchText
      ? t('users.matching', { text: searchText })
      : t('users.all');
  return (
    <div className="row toolbar">
      <form
        className="row search-form"
        aria-label={t('users.search')}
        onSubmit={(e) => {
          e.preventDefault();
          change({ searchText: search.trim() });
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
      <label htmlFor={`${ids}-cohort`}>{t('users.cohort')}</label>
      <select
        id={`${ids}-cohort`}
        className="input"
        value={cohort ? cohort._id : ''}
        onChange={(e) => change({ cohortId: e.target.value || undefined })}
      >
        <option value="">{t('users.allCohorts')}</option>
        {cohorts.map((c) => (
          <option key={c._id} value={c._id}>
            {c.name}
          </option>
        ))}
      </select>
      <Link to="/portal/cohorts">{t('users.manageCohorts')}</Link>
      <div className="spacer" />
      <label htmlFor={`${ids}-size`}>{t('users.rowsPerPage')}</label>
      <select
        id={`${ids}-size`}
        className="input"
        value={limit}
        onChange={(e) => change({ limit: Number(e.target.value) })}
      >
        {PAGE_SIZES.map((n) => (
          <option key={n} value={n}>
            {n.toLocaleString(locale)}
          </option>
        ))}
      </select>
      <DownloadCsv
        call={tenantExportUsers}
        args={{ query: { searchText: searchText || undefined, cohortId } }}
        what={what}
      />
      <button type="button" className="btn" onClick={onAdd}>
        {t('users.add')}
      </button>
    </div>
  );
}
