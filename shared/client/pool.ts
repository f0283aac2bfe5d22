/**
 * Bulk work with bounded concurrency, through p-limit: at most `concurrency` items in flight, each item's
 * outcome told as it settles. The items may be an array or produced as the run needs them (an iterable or
 * an async iterable, read only when an item may start), so a run over a large file holds only the items in
 * flight. One item failing does not stop the others; a fatal failure (the session expired, the server went
 * away, Ctrl+C) stops starting new items and is returned once those in flight have settled.
 *
 * The question import (question-import.ts `runQuestionImport`, the CLI's and the portal's) and the CLI's
 * bulk commands run through it.
 */
import pLimit from 'p-limit';

export type PoolOutcome<R> = { ok: true; value: R } | { ok: false; error: unknown };

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

export interface EachResult {
  /** What stopped the run: a fatal error, the producer's, or the signal's reason; undefined otherwise. */
  fatal: unknown;
  /** An outcome said no further item could succeed (`halts`): the rest were not started. */
  halted: boolean;
}

/** Runs `worker` over the items, `concurrency` at a time; outcomes go to onSettled only (none are kept). */
export async function runEach<T, R>(
  items: Iterable<T> | AsyncIterable<T>,
  worker: (item: T, index: number) => Promise<R>,
  options: PoolOptions<T, R>,
): Promise<EachResult> {
  const limit = pLimit(Math.max(1, Math.floor(options.concurrency)));
  const { signal } = options;
  const iterator =
    Symbol.asyncIterator in items ? items[Symbol.asyncIterator]() : (items as Iterable<T>)[Symbol.iterator]();
  let fatal: unknown;
  let halted = false;
  let exhausted = false;
  // after a halt the run goes on only for the items runsAfterHalt lets through (none without it)
  const stopped = () => (halted && !options.runsAfterHalt) || fatal !== undefined || signal?.aborted === true;

  const settle = async (item: T, index: number) => {
    let outcome: PoolOutcome<R>;
    try {
      outcome = { ok: true, value: await worker(item, index) };
    } catch (error) {
      if (signal?.aborted || options.isFatal?.(error)) {
        fatal ??= error;
        return;
      }
      outcome = { ok: false, error };
    }
    if (options.halts?.(outcome)) halted = true;
    options.onSettled?.(item, index, outcome);
  };

  // items started and not settled, counted here (p-limit's own count drops a moment later), and a wake-up
  // when one settles: one promise at a time, where racing those in flight would leave a reaction on each
  let inFlight = 0;
  let wake: (() => void) | undefined;
  const oneSettles = () =>
    new Promise<void>((resolve) => {
      wake = resolve;
    });

  try {
    for (let index = 0; !stopped(); index++) {
      // the next item is read only when it can start: a stream is never read ahead of the work
      while (inFlight >= limit.concurrency) await oneSettles();
      if (stopped()) break;
      let step: IteratorResult<T>;
      try {
        step = await iterator.next();
      } catch (error) {
        // the producer failed (the server's check of a window): the run ends with its error
        fatal ??= error;
        break;
      }
      if (step.done) {
        exhausted = true;
        break;
      }
      if (halted && !options.runsAfterHalt?.(step.value)) continue;
      inFlight++;
      limit(settle, step.value, index)
        // what throws outside the worker (an onSettled) ends the run as a fatal error would
        .catch((error: unknown) => {
          fatal ??= error;
        })
        .finally(() => {
          inFlight--;
          wake?.();
        });
    }
  } finally {
    while (inFlight > 0) await oneSettles();
    if (!exhausted) await iterator.return?.();
  }
  if (fatal === undefined && signal?.aborted) fatal = signal.reason;
  return { fatal, halted: halted && fatal === undefined };
}

export interface PoolResult<R> extends EachResult {
  /** Outcomes in input order; undefined for items never started (after a fatal error or an abort). */
  outcomes: (PoolOutcome<R> | undefined)[];
}

/** runEach over an array, keeping every outcome in the order of the items. */
export async function runPool<T, R>(
  items: readonly T[],
  worker: (item: T, index: number) => Promise<R>,
  options: PoolOptions<T, R>,
): Promise<PoolResult<R>> {
  const outcomes: (PoolOutcome<R> | undefined)[] = new Array(items.length).fill(undefined);
  const result = await runEach(items, worker, {
    ...options,
    onSettled: (item, index, outcome) => {
      outcomes[index] = outcome;
      options.onSettled?.(item, index, outcome);
    },
  });
  return { ...result, outcomes };
}
