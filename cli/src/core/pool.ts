/**
 * Bounded concurrency for bulk work: at most `concurrency` items in flight, each item's outcome reported as
 * it settles. One item failing does not stop the others; a fatal failure (the session expired, the server
 * went away, Ctrl+C) stops starting new items and is thrown once those in flight have settled.
 */

export interface PoolOptions<T, R> {
  concurrency: number;
  signal?: AbortSignal;
  /** Told of each item's outcome as soon as it settles (in completion order). */
  onSettled?: (item: T, index: number, outcome: PoolOutcome<R>) => void;
  /** Whether an error stops the whole run rather than failing one item. */
  isFatal?: (error: unknown) => boolean;
  /** Whether an outcome means no further item can succeed: start no more (those in flight finish). */
  halts?: (outcome: PoolOutcome<R>) => boolean;
  /**
   * Items that still run after a halt: those the halt's cause does not touch (a roster line whose outcome
   * is known already, or that needs no seat). The others are not started.
   */
  runsAfterHalt?: (item: T) => boolean;
}

export type PoolOutcome<R> = { ok: true; value: R } | { ok: false; error: unknown };

export interface PoolResult<R> {
  /** Outcomes in input order; undefined for items never started (after a fatal error or an abort). */
  outcomes: (PoolOutcome<R> | undefined)[];
  fatal: unknown;
  /** An outcome said no further item could succeed (`halts`): the rest were not started. */
  halted: boolean;
}

export async function runPool<T, R>(
  items: readonly T[],
  worker: (item: T, index: number) => Promise<R>,
  options: PoolOptions<T, R>,
): Promise<PoolResult<R>> {
  const outcomes: (PoolOutcome<R> | undefined)[] = new Array(items.length).fill(undefined);
  const limit = Math.max(1, Math.floor(options.concurrency));
  let next = 0;
  let fatal: unknown;
  let halted = false;
  const stopped = () => fatal !== undefined || options.signal?.aborted === true;
  const skipped = (item: T) => halted && !options.runsAfterHalt?.(item);

  const lane = async () => {
    while (!stopped() && next < items.length) {
      const index = next++;
      const item = items[index]!;
      if (skipped(item)) continue;
      let outcome: PoolOutcome<R>;
      try {
        outcome = { ok: true, value: await worker(item, index) };
      } catch (error) {
        if (options.signal?.aborted || options.isFatal?.(error)) {
          fatal ??= error;
          continue;
        }
        outcome = { ok: false, error };
      }
      outcomes[index] = outcome;
      if (options.halts?.(outcome)) halted = true;
      options.onSettled?.(item, index, outcome);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  if (fatal === undefined && options.signal?.aborted) fatal = options.signal.reason;
  return { outcomes, fatal, halted: halted && fatal === undefined };
}

/**
 * runPool over items that are produced as they are needed (an async iterable, read by every lane in turn):
 * a bulk command over a large file holds only the items in flight and the producer's window, never all of
 * them. Outcomes go to onSettled only (none are kept).
 */
export async function runPoolStream<T, R>(
  source: AsyncIterable<T>,
  worker: (item: T, index: number) => Promise<R>,
  options: PoolOptions<T, R>,
): Promise<Omit<PoolResult<R>, 'outcomes'>> {
  const limit = Math.max(1, Math.floor(options.concurrency));
  const iterator = source[Symbol.asyncIterator]();
  let next = 0;
  let fatal: unknown;
  let halted = false;
  let exhausted = false;
  const stopped = () =>
    exhausted ||
    (halted && !options.runsAfterHalt) ||
    fatal !== undefined ||
    options.signal?.aborted === true;

  const lane = async () => {
    while (!stopped()) {
      let step: IteratorResult<T>;
      try {
        step = await iterator.next();
      } catch (error) {
        // the producer failed (the server's check of a window): the run ends with its error
        fatal ??= error;
        return;
      }
      if (step.done) {
        exhausted = true;
        return;
      }
      const index = next++;
      if (halted && !options.runsAfterHalt?.(step.value)) continue;
      let outcome: PoolOutcome<R>;
      try {
        outcome = { ok: true, value: await worker(step.value, index) };
      } catch (error) {
        if (options.signal?.aborted || options.isFatal?.(error)) {
          fatal ??= error;
          continue;
        }
        outcome = { ok: false, error };
      }
      if (options.halts?.(outcome)) halted = true;
      options.onSettled?.(step.value, index, outcome);
    }
  };
  try {
    await Promise.all(Array.from({ length: limit }, lane));
  } finally {
    if (!exhausted) await iterator.return?.();
  }
  if (fatal === undefined && options.signal?.aborted) fatal = options.signal.reason;
  return { fatal, halted: halted && fatal === undefined };
}
