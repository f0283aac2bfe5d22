/**
 * When a build is out of date: the newest source file (tests and generated folders left out), for
 * scripts/build.mjs (`--if-stale`) and the benches that measure a built artefact (bench/import.ts).
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The latest modification time (ms) of any source file under `paths` (absolute). */
export function newest(paths) {
  let max = 0;
  const walk = (p) => {
    let st;
    try {
      st = statSync(p);
    } catch {
      return;
    }
    if (st.isDirectory()) {
      const base = p.split('/').pop();
      if (['node_modules', 'dist', 'test-results', '.tmp', 'data'].includes(base)) return;
      for (const e of readdirSync(p)) walk(join(p, e));
    } else if (!/\.test\.[tj]sx?$/.test(p)) {
      max = Math.max(max, st.mtimeMs);
    }
  };
  for (const p of paths) walk(p);
  return max;
}

/** Whether `output` is missing or older than any source under `paths`. */
export function isStale(output, paths) {
  let built;
  try {
    built = statSync(output).mtimeMs;
  } catch {
    return true;
  }
  return built < newest(paths);
}
