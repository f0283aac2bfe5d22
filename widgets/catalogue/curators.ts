/** Who curated a roadmap, as the catalogue card and the course page show it (mentor §2.9, §2.10, §9). */
import { PRODUCT_NAME } from '../embed/placeholder';

export interface CuratorLike {
  authorId: { name: string; profilePath: string | null };
}

/** 'Curated By' on a card: the first author's name, '...' appended when there are more; the product's name when none. */
export function curatedBy(authors: readonly CuratorLike[]): string {
  const first = authors[0]?.authorId.name;
  if (!first) return PRODUCT_NAME;
  return authors.length > 1 ? `${first}...` : first;
}

export const MAX_CURATORS_SHOWN = 3;

/** The course page's curators: up to three names, then '...'. */
export function curatorNames(authors: readonly CuratorLike[]): string {
  if (authors.length === 0) return PRODUCT_NAME;
  const names = authors.slice(0, MAX_CURATORS_SHOWN).map((a) => a.authorId.name);
  return names.join(', ') + (authors.length > MAX_CURATORS_SHOWN ? '...' : '');
}
