/** Types of stale.mjs for the TypeScript that imports it (benches). */

/** The latest modification time (ms) of any source file under `paths` (absolute). */
export function newest(paths: string[]): number;
/** Whether `output` is missing or older than any source under `paths`. */
export function isStale(output: string, paths: string[]): boolean;
