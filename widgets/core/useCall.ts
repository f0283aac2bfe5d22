import { ApiError } from '@shared/client/client';
import { useCallback, useEffect, useRef, useState } from 'react';

export interface CallState<T> {
  data: T | null;
  error: ApiError | Error | null;
  loading: boolean;
  reload: () => void;
}

/** Runs a request when its dependencies change; keeps the last data while reloading. */
export function useCall<T>(run: (signal: AbortSignal) => Promise<T>, deps: readonly unknown[]): CallState<T> {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<ApiError | Error | null>(null);
  const [loading, setLoading] = useState(true);
  const [tick, setTick] = useState(0);
  const runRef = useRef(run);
  runRef.current = run;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller lists the dependencies
  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    setError(null);
    runRef
      .current(controller.signal)
      .then((d) => {
        if (!controller.signal.aborted) setData(d);
      })
      .catch((err: unknown) => {
        if (!controller.signal.aborted && (err as Error)?.name !== 'AbortError') setError(err as Error);
      })
      .finally(() => {
        if (!controller.signal.aborted) setLoading(false);
      });
    return () => controller.abort();
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { data, error, loading, reload };
}

/** The server's message of a refusal (in the interface's language, decision 040), else `fallback`. */
export const messageOf = (err: unknown, fallback: string) =>
  err instanceof ApiError ? err.message : fallback;
