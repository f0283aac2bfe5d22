/**
 * Running an Ink view to completion. The view calls exit() from an effect once its last state is on
 * screen (earlier and Ink loses the final frame); waitUntilExit() then settles with the view's result or
 * rejects with its error.
 */
import { render, useApp } from 'ink';
import { type ReactElement, type ReactNode, useEffect } from 'react';
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
