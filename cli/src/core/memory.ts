/**
 * Keeping a long import's memory bounded. A bank is read and handled in windows (cli/src/commands/questions/
 * import.tsx), and what a window leaves behind — its text, records, checks, request bodies — is garbage
 * once the next one starts: about 19 MB stays live. V8 does not collect it fully until its heap has grown
 * well past that, so the CLI's peak memory followed V8's growth heuristics rather than the work (146–158 MB
 * for 10,000 GIFT questions). A full collection between windows, once the heap holds more than a bound,
 * keeps it near what is live (122 MB, seven collections of about 40 ms on that bank: bench/import.ts).
 */
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** The heap in use past which a window's end collects: about the live set plus one window's work. */
export const HEAP_BOUND_BYTES = 32 * 1024 * 1024;

let collect: (() => void) | null = null;

/** V8's full collection: `gc` of a context made after --expose-gc is set (the process's own is not). */
function collector(): () => void {
  const own = (globalThis as { gc?: () => void }).gc;
  if (own) return own;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/** Collects fully when the heap holds more than `bound` bytes; says whether it did. */
export function reclaim(bound = HEAP_BOUND_BYTES): boolean {
  if (getHeapStatistics().used_heap_size < bound) return false;
  collect ??= collector();
  collect();
  return true;
}
