import type { ReadonlySignal } from '@preact/signals-react';
import { useSyncExternalStore } from 'react';

/** Reads a signal in a component and re-renders when it changes (no compiler transform needed). */
export function useSignalValue<T>(s: ReadonlySignal<T>): T {
  return useSyncExternalStore(
    (onChange) => s.subscribe(() => onChange()),
    () => s.peek(),
    () => s.peek(),
  );
}
