/**
 * What the lean widgets import as 'react', in the embed build (widgets.json `"lean": true`): Preact's
 * own functions under React's names, without preact/compat (3.8 KB gzip per file). It offers only what
 * those widgets use — a widget that needs more (react-hook-form, useSyncExternalStore, forwardRef)
 * fails to build here and stays on preact/compat. The differences of Preact without compat that matter
 * to components shared with the portal: `onChange` of a text field fires on commit, not per keystroke
 * (use onInput there), and SVG attributes must be written as in SVG (stroke-width, not strokeWidth).
 */
export { createContext, createElement, Fragment } from 'preact';
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
