import { pagerItems } from '@shared/rules/pager';
import { useI18n } from '../core/i18n';

export interface PagerProps {
  page: number;
  totalPages: number;
  onChange: (page: number) => void;
  label?: string;
}

/** First, previous, numbered pages with ellipses, next, last. */
export function Pager({ page, totalPages, onChange, label }: PagerProps) {
  const { t } = useI18n();
  if (totalPages <= 1) return null;
  const items = pagerItems(page, totalPages);
  return (
    <nav aria-label={label ?? t('pager.pages')}>
      <ul className="pager">
        <li>
          <button
            type="button"
            onClick={() => onChange(1)}
            disabled={page === 1}
            aria-label={t('pager.first')}
          >
            «
          </button>
        </li>
        <li>
          <button
            type="button"
            onClick={() => onChange(page - 1)}
            disabled={page === 1}
            aria-label={t('pager.previous')}
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
                aria-label={t('pager.page', { page: item })}
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
            aria-label={t('pager.next')}
          >
            ›
          </button>
        </li>
        <li>
          <button
            type="button"
            onClick={() => onChange(totalPages)}
            disabled={page === totalPages}
            aria-label={t('pager.last')}
          >
            »
          </button>
        </li>
      </ul>
    </nav>
  );
}
