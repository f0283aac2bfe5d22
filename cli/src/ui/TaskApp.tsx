/**
 * One piece of work at a terminal: a spinner with what is being done, then the result (or a failure
 * line). Ctrl+C cancels. Exits once the last frame is drawn.
 */
import { Text } from 'ink';
import { type ReactNode, useEffect, useState } from 'react';
import { useCtrlC, useExitWhenDone } from './render';
import { Spinner } from './Spinner';

export interface TaskAppProps {
  label: string;
  /** Does the work; resolves with what to show. */
  run: () => Promise<ReactNode>;
  /** Shown when run rejects (the error itself goes to standard error). */
  failure?: string;
  onCancel: () => void;
}

export function TaskApp({ label, run, failure, onCancel }: TaskAppProps) {
  const [result, setResult] = useState<{ node: ReactNode } | { error: unknown } | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the work runs once, when the view mounts
  useEffect(() => {
    let live = true;
    run().then(
      (node) => live && setResult({ node }),
      (error: unknown) => live && setResult({ error }),
    );
    return () => {
      live = false;
    };
  }, []);

  useExitWhenDone(result && ('error' in result ? result : { ok: true }));
  useCtrlC(onCancel, result === null);

  if (!result) return <Spinner label={label} />;
  if ('error' in result)
    return failure ? (
      <Text>
        <Text color="red">✖</Text> {failure}
      </Text>
    ) : null;
  return <>{result.node}</>;
}

/** A line that says something was done. */
export function Done({ children }: { children: ReactNode }) {
  return (
    <Text>
      <Text color="green">✔</Text> {children}
    </Text>
  );
}
