import { signal } from '@preact/signals-react';
import { useI18n } from '../core/i18n';
import { useSignalValue } from '../core/useSignal';

export interface ToastItem {
  id: number;
  kind: 'info' | 'success' | 'error';
  title?: string;
  message: string;
  /** What the message is about; a later message about the same thing replaces it. */
  topic?: string;
}

export const toasts = signal<ToastItem[]>([]);
let next = 1;

/**
 * Shows a message for `ms` milliseconds (default 6 s); returns a function that closes it. A message with a
 * `topic` replaces any earlier one about the same topic, and `dismissToasts(topic)` takes it away when
 * what it said stops being true (a cancellation, once the thing is done after all).
 */
export function toast(
  message: string,
  opts: { kind?: ToastItem['kind']; title?: string; ms?: number; topic?: string } = {},
) {
  const id = next++;
  const kept = opts.topic ? toasts.value.filter((t) => t.topic !== opts.topic) : toasts.value;
  toasts.value = [...kept, { id, kind: opts.kind ?? 'info', title: opts.title, message, topic: opts.topic }];
  const close = () => {
    toasts.value = toasts.value.filter((t) => t.id !== id);
  };
  if (opts.ms !== 0) setTimeout(close, opts.ms ?? 6000);
  return close;
}

/** Takes away the messages about `topic` (they no longer hold). */
export function dismissToasts(topic: string) {
  if (toasts.value.some((t) => t.topic === topic)) {
    toasts.value = toasts.value.filter((t) => t.topic !== topic);
  }
}

export function Toasts() {
  const items = useSignalValue(toasts);
  const { t: tr } = useI18n();
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
            aria-label={tr('common.dismiss')}
            onClick={() => (toasts.value = toasts.value.filter((x) => x.id !== t.id))}
          >
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
