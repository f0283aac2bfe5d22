#!/usr/bin/env node
/**
 * Where a V8 CPU profile (.cpuprofile, written by a bench's --profile) spends its time: the functions with
 * the most self time, and the packages and files they belong to.
 *
 *   node bench/support/profile-top.mjs FILE [--top 25]
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { top: { type: 'string', default: '25' } },
});
if (!positionals[0]) {
  console.error('usage: node bench/support/profile-top.mjs FILE [--top 25]');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(positionals[0], 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map();
profile.samples.forEach((id, i) => {
  self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
});
const total = [...self.values()].reduce((a, b) => a + b, 0);
const where = (url) => {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return m[1];
  if (url.startsWith('node:')) return url;
  const own = /\/(server|shared)\/(.*)$/.exec(url);
  return own ? `${own[1]}/${own[2]}` : url || '(native)';
};
const fns = new Map();
const places = new Map();
for (const [id, us] of self) {
  const { callFrame: f } = byId.get(id);
  const key = `${f.functionName || '(anonymous)'}  ${where(f.url)}:${f.lineNumber + 1}`;
  fns.set(key, (fns.get(key) ?? 0) + us);
  const place = where(f.url);
  places.set(place, (places.get(place) ?? 0) + us);
}
const pct = (us) => `${((100 * us) / total).toFixed(1).padStart(5)} %`;
const top = Number(values.top);
console.log(`${(total / 1000).toFixed(0)} ms sampled\n\nfunctions by self time:`);
for (const [k, us] of [...fns].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(us)}  ${k}`);
console.log('\nby package or file:');
for (const [k, us] of [...places].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(us)}  ${k}`);
