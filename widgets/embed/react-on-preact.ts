/**
 * What the lean widgets import as 'react', in the embed build (widgets.json `"lean": true`): Preact's
 * own functions under React's names, without preact/compat (3.8 KB gzip per file). It offers only what
 * those widgets use — a widget that needs more (react-hook-form, useSyncExternalStore, forwardRef)
 * fails to build here and stays on preact/compat. useSyncExternalStore is written here (compat's is one
 * function among 3.8 KB). The differences of Preact without compat that matter
 * to components shared with the portal: `onChange` of a text field fires on commit, not per keystroke
 * (use onInput there), and SVG attributes must be written as in SVG (stroke-width, not strokeWidth).
 */
import { useLayoutEffect, useReducer, useRef } from 'preact/hooks';

export { cloneElement, createContext, createElement, Fragment } from 'preact';
export {
  useCallback,
  useContext,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useReducer,
  useRef,
  useState,
} from 'preact/hooks';

/** React's useSyncExternalStore on Preact's hooks: renders the snapshot, re-renders when it changes. */
export function useSyncExternalStore<T>(
  subscribe: (onChange: () => void) => () => void,
  getSnapshot: () => T,
): T {
  const value = getSnapshot();
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const shown = useRef(value);
  shown.current = value;
  useLayoutEffect(() => {
    const check = () => {
      if (!Object.is(shown.current, getSnapshot())) rerender(0);
    };
    check(); // a change between the render and the subscription
    return subscribe(check);
  }, [subscribe, getSnapshot]);
  return value;
}
