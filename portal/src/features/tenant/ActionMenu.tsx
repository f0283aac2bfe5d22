import { useI18n } from '@widgets/core/i18n';
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';

export type MenuItem =
  | { kind: 'link'; label: string; to: string }
  | { kind: 'button'; label: string; onSelect: () => void; danger?: boolean };

/**
 * What a key in the open menu does: the index of the item to focus (arrows wrap, Home, End), 'close'
 * (Escape: back to the button), 'leave' (Tab: the focus moves on), or null (nothing).
 */
function menuKeyMove(key: string, focusIndex: number, count: number): number | 'close' | 'leave' | null {
  if (key === 'ArrowDown') return focusIndex + 1;
  if (key === 'ArrowUp') return focusIndex - 1;
  if (key === 'Home') return 0;
  if (key === 'End') return count - 1;
  if (key === 'Escape') return 'close';
  if (key === 'Tab') return 'leave';
  return null;
}

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
    const move = menuKeyMove(e.key, focusIndex, items.length);
    if (move === null) return;
    if (move === 'leave') return close(false);
    e.preventDefault();
    if (move === 'close') close();
    else openAt(move);
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
          {items.map((item, i) => (
            <MenuEntry
              key={item.label}
              item={item}
              itemRef={(el) => {
                itemRefs.current[i] = el;
              }}
              onChosen={() => setOpen(false)}
            />
          ))}
        </div>
      ) : null}
    </div>
  );
}

/** One item of the menu: a link, or a button that runs its action; either closes the menu. */
function MenuEntry({
  item,
  itemRef,
  onChosen,
}: {
  item: MenuItem;
  itemRef: (el: HTMLElement | null) => void;
  onChosen: () => void;
}) {
  return item.kind === 'link' ? (
    <Link role="menuitem" tabIndex={-1} to={item.to} ref={itemRef} onClick={onChosen}>
      {item.label}
    </Link>
  ) : (
    <button
      type="button"
      role="menuitem"
      tabIndex={-1}
      className={item.danger ? 'danger' : undefined}
      ref={itemRef}
      onClick={() => {
        onChosen();
        item.onSelect();
      }}
    >
      {item.label}
    </button>
  );
}
