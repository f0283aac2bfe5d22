/**
 * Parts of the test taker fetched when they are about to be needed, not in its first file (the elements'
 * 15 KB budget, decision 040): the running test once the Ready screen shows, the score once the test
 * starts. A part is fetched once; a failed fetch may be tried again.
 */
import { useEffect, useState } from 'react';

/** `importer` once: the same promise each time, forgotten when it fails. */
export function lazyModule<M>(importer: () => Promise<M>): () => Promise<M> {
  let pending: Promise<M> | null = null;
  return () => {
    pending ??= importer().catch((err: unknown) => {
      pending = null;
      throw err;
    });
    return pending;
  };
}

/** A part fetched when it is needed: null until it is there; `failed`, with `retry`, when it could not be. */
export interface LazyPart<P> {
  part: P | null;
  failed: boolean;
  retry: () => void;
}

/** The part `pick` takes from the module, fetched once `wanted`; `failed` with `retry` when it could not be. */
export function useLazyPart<M, P>(load: () => Promise<M>, pick: (m: M) => P, wanted: boolean): LazyPart<P> {
  const [part, setPart] = useState<P | null>(null);
  const [failed, setFailed] = useState(false);
  const [tries, setTries] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `load` and `pick` are module-level; `tries` asks again
  useEffect(() => {
    if (!wanted || part) return;
    let live = true;
    load().then(
      (mod) => live && setPart(() => pick(mod)),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [wanted, part, tries]);
  const retry = () => {
    setFailed(false);
    setTries((n) => n + 1);
  };
  return { part, failed, retry };
}
