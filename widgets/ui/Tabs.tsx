import { type ReactNode, useId, useRef } from 'react';
import { useI18n } from '../core/i18n';

export interface TabItem {
  id: string;
  label: ReactNode;
  content: ReactNode;
}

/** Accessible tabs: arrow keys move between tabs (mirrored right to left), the panel is labelled by its tab. */
export function Tabs({
  items,
  selected,
  onSelect,
  label,
}: {
  items: TabItem[];
  selected: string;
  onSelect: (id: string) => void;
  label: string;
}) {
  const base = useId();
  // the arrow towards the next tab: right in a left-to-right language, left in Arabic
  const { dir } = useI18n();
  const forward = dir === 'rtl' ? 'ArrowLeft' : 'ArrowRight';
  const back = dir === 'rtl' ? 'ArrowRight' : 'ArrowLeft';
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const index = Math.max(
    0,
    items.findIndex((t) => t.id === selected),
  );
  const move = (to: number) => {
    const next = (to + items.length) % items.length;
    onSelect(items[next]!.id);
    refs.current[next]?.focus();
  };
  return (
    <div>
      <div className="tabs" role="tablist" aria-label={label}>
        {items.map((t, i) => (
          <button
            key={t.id}
            ref={(el) => {
              refs.current[i] = el;
            }}
            type="button"
            role="tab"
            id={`${base}-tab-${t.id}`}
            aria-selected={i === index}
            aria-controls={`${base}-panel-${t.id}`}
            tabIndex={i === index ? 0 : -1}
            onClick={() => onSelect(t.id)}
            onKeyDown={(e) => {
              if (e.key === forward) move(i + 1);
              else if (e.key === back) move(i - 1);
              else if (e.key === 'Home') move(0);
              else if (e.key === 'End') move(items.length - 1);
            }}
          >
            {t.label}
          </button>
        ))}
      </div>
      {items.map((t, i) => (
        <div
          key={t.id}
          role="tabpanel"
          id={`${base}-panel-${t.id}`}
          aria-labelledby={`${base}-tab-${t.id}`}
          hidden={i !== index}
        >
          {i === index ? t.content : null}
        </div>
      ))}
    </div>
  );
}
