/**
 * Which page buttons a pager shows: all pages when there are 5 or fewer; near either end 5 pages with an
 * ellipsis; otherwise the current page plus or minus one, with ellipses. First/last pages are reachable
 * through the first and last buttons.
 */
export type PagerItem = number | 'ellipsis-start' | 'ellipsis-end';

export function pagerItems(current: number, totalPages: number): PagerItem[] {
  if (totalPages <= 0) return [];
  const page = Math.min(Math.max(1, current), totalPages);
  if (totalPages <= 5) return Array.from({ length: totalPages }, (_, i) => i + 1);
  if (page <= 3) return [1, 2, 3, 4, 5, 'ellipsis-end'];
  if (page >= totalPages - 2)
    return ['ellipsis-start', ...Array.from({ length: 5 }, (_, i) => totalPages - 4 + i)];
  return ['ellipsis-start', page - 1, page, page + 1, 'ellipsis-end'];
}

export const totalPages = (count: number, pageSize: number) => Math.max(1, Math.ceil(count / pageSize));
