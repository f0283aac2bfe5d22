import { pagerItems } from '@shared/rules/pager';

export interface PagerProps {
  page: number;
  totalPages: number;
  onChange: (page: number) => void;
  label?: string;
}

/** First, previous, numbered pages with ellipses, next, last. */
export function Pager({ page, totalPages, onChange, label = 'Pages' }: PagerProps) {
  if (totalPages <= 1) return null;
  const items = pagerItems(page, totalPages);
  return (
    <nav aria-label={label}>
      <ul className="pager">
        <li>
          <button type="button" onClick={() => onChange(1)} disabled={page === 1} aria-label="First page">
            «
          </button>
        </li>
        <li>
          <button
            type="button"
            onClick={() => onChange(page - 1)}
            disabled={page === 1}
            aria-label="Previous page"
          >
            ‹
          </button>
        </li>
        {items.map((item) =>
          typeof item === 'number' ? (
            <li key={item}>
              <button
                type="button"
                onClick={() => onChange(item)}
                aria-current={item === page ? 'page' : undefined}
                aria-label={`Page ${item}`}
              >
                {item}
              </button>
            </li>
          ) : (
            <li key={item} aria-hidden="true">
              …
            </li>
          ),
        )}
        <li>
          <button
            type="button"
            onClick={() => onChange(page + 1)}
            disabled={page === totalPages}
            aria-label="Next page"
          >
            ›
          </button>
        </li>
        <li>
          <button
            type="button"
            onClick={() => onChange(totalPages)}
            disabled={page === totalPages}
            aria-label="Last page"
          >
            »
          </button>
        </li>
      </ul>
    </nav>
  );
}
