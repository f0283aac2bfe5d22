#!/usr/bin/env node
/**
 * Where a V8 CPU profile (.cpuprofile, written by a bench's --profile) spends its time: the functions with
 * the most self time, and the packages and folders they belong to. bench/assessments.ts puts the same
 * summary in its results; from a terminal:
 *
 *   node bench/support/profile-top.mjs FILE [--top 25]
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');

/** The functions (and, up to 15, the packages) where `profile` spent its self time, largest first. */
export function topOfProfile(profile, n = 25) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map();
  const packages = new Map();
  for (let k = 0; k < profile.samples.length; k++) {
    const f = byId.get(profile.samples[k]).callFrame;
    const dt = profile.timeDeltas[k] ?? 0;
    const where = f.url
      ? `${f.url.replace(`file://${root}/`, '').replace(/.*node_modules\//, '')}:${f.lineNumber + 1}`
      : '';
    const key = `${f.functionName || '(anonymous)'} ${where}`.trim();
    self.set(key, (self.get(key) ?? 0) + dt);
    const pkg = !f.url
      ? f.functionName || '(native)'
      : f.url.includes('node_modules/')
        ? f.url.replace(/.*node_modules\/((@[^/]+\/)?[^/]+).*/, '$1')
        : f.url.startsWith('node:')
          ? 'node:*'
          : f.url.replace(`file://${root}/`, '').replace(/\/[^/]+$/, '/');
    packages.set(pkg, (packages.get(pkg) ?? 0) + dt);
  }
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const top = (m, k) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, k)
      .map(([name, us]) => ({ name, share: `${((us / total) * 100).toFixed(1)}%` }));
  return { sampledMs: Math.round(total / 1000), functions: top(self, n), packages: top(packages, 15) };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { top: { type: 'string', default: '25' } },
  });
  if (!positionals[0]) {
    console.error('usage: node bench/support/profile-top.mjs FILE [--top 25]');
    process.exit(2);
  }
  const summary = topOfProfile(JSON.parse(readFileSync(positionals[0], 'utf8')), Number(values.top));
  console.log(`${summary.sampledMs} ms sampled\n\nfunctions by self time:`);
  for (const f of summary.functions) console.log(`${f.share.padStart(6)}  ${f.name}`);
  console.log('\nby package or folder:');
  for (const p of summary.packages) console.log(`${p.share.padStart(6)}  ${p.name}`);
}
