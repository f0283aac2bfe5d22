import { useI18n } from '@widgets/core/i18n';
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';

export type MenuItem =
  | { kind: 'link'; label: string; to: string }
  | { kind: 'button'; label: string; onSelect: () => void; danger?: boolean };

/**
 * A row's action menu (WAI-ARIA menu button): Enter, Space or ArrowDown open it on the first item, ArrowUp
 * on the last; arrows, Home and End move; Escape closes and returns to the button; Tab or a click outside
 * closes it.
 */
export function ActionMenu({
  about,
  items,
  label,
}: {
  /** Whose actions, for the accessible names: 'Action for Asha'. */
  about: string;
  items: MenuItem[];
  /** The button's visible text ('Action'). */
  label?: string;
}) {
  const { t } = useI18n();
  const text = label ?? t('column.action');
  const [open, setOpen] = useState(false);
  const id = useId();
  const button = useRef<HTMLButtonElement>(null);
  const wrap = useRef<HTMLDivElement>(null);
  const itemRefs = useRef<(HTMLElement | null)[]>([]);
  const [focusIndex, setFocusIndex] = useState(0);

  useEffect(() => {
    if (open) itemRefs.current[focusIndex]?.focus();
  }, [open, focusIndex]);

  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (!wrap.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open]);

  const openAt = (index: number) => {
    setFocusIndex((index + items.length) % items.length);
    setOpen(true);
  };
  const close = (refocus = true) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  };

  const onButtonKey = (e: KeyboardEvent) => {
    if (e.key === 'ArrowDown' || e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      openAt(0);
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      openAt(items.length - 1);
    }
  };
  const onMenuKey = (e: KeyboardEvent) => {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      openAt(focusIndex + 1);
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      openAt(focusIndex - 1);
    } else if (e.key === 'Home') {
      e.preventDefault();
      openAt(0);
    } else if (e.key === 'End') {
      e.preventDefault();
      openAt(items.length - 1);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      close();
    } else if (e.key === 'Tab') {
      close(false);
    }
  };

  return (
    <div className="action-menu" ref={wrap}>
      <button
        ref={button}
        type="button"
        className="btn btn-secondary"
        aria-haspopup="menu"
        aria-label={t('tenant.actionFor', { action: text, name: about })}
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        onClick={() => (open ? close(false) : openAt(0))}
        onKeyDown={onButtonKey}
      >
        {text} <span aria-hidden="true">▾</span>
      </button>
      {open ? (
        <div
          id={id}
          role="menu"
          aria-label={t('tenant.actionFor', { action: text, name: about })}
          className="action-menu-list"
          onKeyDown={onMenuKey}
        >
          {items.map((item, i) =>
            item.kind === 'link' ? (
              <Link
                key={item.label}
                role="menuitem"
                tabIndex={-1}
                to={item.to}
                ref={(el) => {
                  itemRefs.current[i] = el;
                }}
                onClick={() => setOpen(false)}
              >
                {item.label}
              </Link>
            ) : (
              <button
                key={item.label}
                type="button"
                role="menuitem"
                tabIndex={-1}
                className={item.danger ? 'danger' : undefined}
                ref={(el) => {
                  itemRefs.current[i] = el;
                }}
                onClick={() => {
                  setOpen(false);
                  item.onSelect();
                }}
              >
                {item.label}
              </button>
            ),
          )}
        </div>
      ) : null}
    </div>
  );
}
