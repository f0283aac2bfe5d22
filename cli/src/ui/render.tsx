/**
 * Running an Ink view to completion. The view calls exit() from an effect once its last state is on
 * screen (earlier and Ink loses the final frame); waitUntilExit() then settles with the view's result or
 * rejects with its error.
 */
import { render, useApp, useInput, useStdin } from 'ink';
import { type ComponentType, createElement, type ReactElement, type ReactNode, useEffect } from 'react';
import type { Io } from '../core/context';

export async function runInk<T = unknown>(element: ReactElement, io: Io): Promise<T> {
  const app = render(element, {
    stdout: io.stdout,
    stdin: io.stdin,
    stderr: io.stderr,
    // Ctrl+C is the view's to handle (it cancels the work), not Ink's
    exitOnCtrlC: false,
    patchConsole: false,
  });
  try {
    return (await app.waitUntilExit()) as T;
  } finally {
    app.cleanup();
  }
}

/** Renders its children once and exits: for results that do not change. */
export function Once({ children }: { children: ReactNode }) {
  const { exit } = useApp();
  useEffect(() => {
    exit();
  }, [exit]);
  return <>{children}</>;
}

/**
 * Draws a view of a result that does not change, once. For commands that draw only at a terminal: they
 * import() this and the view, and call it without JSX of their own, so their module (and their plain and
 * JSON output) loads neither Ink nor React (cli/src/bundle.test.ts).
 */
export function drawOnce<P extends object>(View: ComponentType<P>, props: P, io: Io): Promise<unknown> {
  return runInk(<Once>{createElement(View, props)}</Once>, io);
}

/** How a view's work ended: null while it runs. */
export type Outcome = { error: unknown } | { ok: true } | null;

/**
 * Exits once the work has ended and its last state is on screen (this effect runs after that render;
 * exiting earlier loses the final frame): with the error, which waitUntilExit() rejects with, or cleanly.
 */
export function useExitWhenDone(outcome: Outcome) {
  const { exit } = useApp();
  useEffect(() => {
    if (!outcome) return;
    if ('error' in outcome)
      exit(outcome.error instanceof Error ? outcome.error : new Error(String(outcome.error)));
    else exit();
  }, [outcome, exit]);
}

/** Ctrl+C while the work runs (Ink's own handling is off: the view decides what cancelling means). */
export function useCtrlC(onCancel: () => void, active: boolean) {
  const { isRawModeSupported } = useStdin();
  useInput(
    (input, key) => {
      if (key.ctrl && input === 'c') onCancel();
    },
    { isActive: Boolean(isRawModeSupported) && active },
  );
}
