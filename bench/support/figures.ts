/**
 * What every bench shares around its measuring: its command line's help (the file's header comment), the
 * progress log, rounding, load averages, latency percentiles, and running `main` to its exit code.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

/** With `--help`: prints the bench's header comment (its documentation) and exits. */
export function helpOnRequest(help: boolean | undefined, moduleUrl: string) {
  if (!help) return;
  console.log(readFileSync(fileURLToPath(moduleUrl), 'utf8').split('*/')[0]);
  process.exit(0);
}

/** Progress on standard error, kept quiet when the figures go out as JSON (`quiet`). */
export const progressLog =
  (quiet = false) =>
  (...a: unknown[]) => {
    if (!quiet) console.error(...a);
  };

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const round1 = (v: number) => Math.round(v * 10) / 10;
export const round2 = (v: number) => Math.round((v + Number.EPSILON) * 100) / 100;

/** The load averages (1, 5, 15 minutes) as `uptime` prints them. */
export const loadNow = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** The value at percentile `p` of ascending `sorted` (nearest rank), NaN for none. */
export function percentile(sorted: readonly number[], p: number) {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Median, 95th, 99th percentile and maximum of latencies in ms, to 0.1 ms. */
export function latency(values: readonly number[]) {
  const s = [...values].sort((a, b) => a - b);
  return {
    p50: round1(percentile(s, 50)),
    p95: round1(percentile(s, 95)),
    p99: round1(percentile(s, 99)),
    max: round1(s.at(-1) ?? Number.NaN),
  };
}

/** Runs a bench's `main`; a failure is printed and ends the process with 1. */
export function runBench(main: () => Promise<void>) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
