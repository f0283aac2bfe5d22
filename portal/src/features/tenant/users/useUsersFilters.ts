/**
 * The Users page's filters, kept in the address (`?q=…&cohort=…&size=10&page=2`) so that a reload, Back and
 * a shared link show the same learners: the search, the cohort, the rows per page and the page. A value
 * left at its default is not written; one that is not valid is read as the default.
 */
import { useSearchParams } from 'react-router';

export const PAGE_SIZES = [5, 10, 15] as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface UsersFilters {
  page: number;
  limit: number;
  searchText: string;
  cohortId: string | undefined;
}

export function useUsersFilters() {
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Math.floor(Number(params.get('page'))) || 1);
  const size = Number(params.get('size'));
  const limit = (PAGE_SIZES as readonly number[]).includes(size) ? size : PAGE_SIZES[0];
  const searchText = (params.get('q') ?? '').trim().slice(0, 100);
  const cohort = params.get('cohort') ?? '';
  const cohortId = UUID.test(cohort) ? cohort.toLowerCase() : undefined;

  /** Sets some filters; any change but the page's goes back to page 1. */
  const change = (next: Partial<UsersFilters>) => {
    const merged = { page, limit, searchText, cohortId, ...next };
    if (!('page' in next)) merged.page = 1;
    setParams((current) => {
      const out = new URLSearchParams(current);
      const put = (key: string, value: string | undefined, fallback = '') =>
        value && value !== fallback ? out.set(key, value) : out.delete(key);
      put('q', merged.searchText);
      put('cohort', merged.cohortId);
      put('size', String(merged.limit), String(PAGE_SIZES[0]));
      put('page', String(merged.page), '1');
      return out;
    });
  };
  return { page, limit, searchText, cohortId, change };
}
