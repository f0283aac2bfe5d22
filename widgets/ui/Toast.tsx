import { signal } from '@preact/signals-react';
import { useSignalValue } from '../core/useSignal';

export interface ToastItem {
  id: number;
  kind: 'info' | 'success' | 'error';
  title?: string;
  message: string;
}

export const toasts = signal<ToastItem[]>([]);
let next = 1;

/** Shows a message for `ms` milliseconds (default 6 s); returns a function that closes it. */
export function toast(message: string, opts: { kind?: ToastItem['kind']; title?: string; ms?: number } = {}) {
  const id = next++;
  toasts.value = [...toasts.value, { id, kind: opts.kind ?? 'info', title: opts.title, message }];
  const close = () => {
    toasts.value = toasts.value.filter((t) => t.id !== id);
  };
  if (opts.ms !== 0) setTimeout(close, opts.ms ?? 6000);
  return close;
}

export function Toasts() {
  const items = useSignalValue(toasts);
  return (
    <div className="toasts" aria-live="polite" aria-atomic="false">
      {items.map((t) => (
        <div key={t.id} className={`toast toast-${t.kind}`} role={t.kind === 'error' ? 'alert' : 'status'}>
          <div style={{ flex: 1 }}>
            {t.title ? <strong style={{ display: 'block' }}>{t.title}</strong> : null}
            {t.message}
          </div>
          <button
            type="button"
            aria-label="Dismiss"
            onClick={() => (toasts.value = toasts.value.filter((x) => x.id !== t.id))}
          >
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
