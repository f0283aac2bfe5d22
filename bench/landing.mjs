#!/usr/bin/env node
/**
 * The landing page's initial JavaScript: what a browser downloads before `/` is interactive — index.html's
 * module script and the modules it preloads, everything those import statically, and the landing route's
 * chunk (features/public/LandingPage.tsx, loaded by the router at once) with its static imports. Prints
 * each file's raw and gzip (level 9) size and the total against the target of 170 KB gzip (exit code 1
 * above it). Stylesheets are listed apart, for information.
 *
 *   node bench/landing.mjs [--no-build] [--json]
 *
 * It builds the portal into .tmp/bench-landing (vite build --outDir …), leaving dist/ alone; --no-build
 * reads dist/portal as it is.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const args = process.argv.slice(2);
const TARGET = 170 * 1024;
const ROUTE_MODULE = 'features/public/LandingPage.tsx';

const dir = args.includes('--no-build') ? join(root, 'dist', 'portal') : join(root, '.tmp', 'bench-landing');
if (!args.includes('--no-build')) {
  const vite = join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  const built = spawnSync(
    process.execPath,
    [vite, 'build', '--config', 'vite.config.ts', '--outDir', dir, '--emptyOutDir', '--logLevel', 'error'],
    { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  if (built.status !== 0) process.exit(built.status ?? 1);
}
if (!existsSync(join(dir, 'index.html'))) {
  console.error(`${dir}/index.html is missing: build the portal first (npm run build)`);
  process.exit(1);
}

const html = readFileSync(join(dir, 'index.html'), 'utf8');
const attr = (tag, name) => tag.match(new RegExp(`\\b${name}="([^"]+)"`))?.[1];
const tags = html.match(/<(script|link)\b[^>]*>/g) ?? [];
const entry = tags
  .filter((t) => t.startsWith('<script') && /type="module"/.test(t))
  .map((t) => attr(t, 'src'));
const preloads = tags.filter((t) => /rel="modulepreload"/.test(t)).map((t) => attr(t, 'href'));
const styles = tags.filter((t) => /rel="stylesheet"/.test(t)).map((t) => attr(t, 'href'));

/** Static imports and re-exports of a built chunk (dynamic `import(…)` excluded), as asset paths. */
function staticImports(file) {
  const code = readFileSync(join(dir, file), 'utf8');
  const found = new Set();
  const re = /(?:^|[;}\s])(?:import|export)\s*(?:[\w$*{}\s,]+?\s*from\s*)?["'](\.{1,2}\/[^"']+\.js)["']/g;
  for (const m of code.matchAll(re)) found.add(join(file, '..', m[1]));
  return [...found];
}

/** The chunk built from the landing route's module (found through the source maps). */
function routeChunk() {
  const assets = join(dir, 'assets');
  for (const name of readdirSync(assets).filter((f) => f.endsWith('.js.map'))) {
    const map = JSON.parse(readFileSync(join(assets, name), 'utf8'));
    if (map.sources.some((s) => s.endsWith(ROUTE_MODULE))) return join('assets', name.replace(/\.map$/, ''));
  }
  throw new Error(`no chunk holds ${ROUTE_MODULE}`);
}

const initial = new Set();
const reasons = new Map();
function visit(file, reason) {
  if (initial.has(file)) return;
  initial.add(file);
  reasons.set(file, reason);
  for (const dep of staticImports(file)) visit(dep, `imported by ${file.replace(/^assets\//, '')}`);
}
const strip = (p) => p.replace(/^\//, '');
for (const src of entry) visit(strip(src), 'index.html module script');
for (const href of preloads) visit(strip(href), 'index.html modulepreload');
visit(routeChunk(), `landing route (${ROUTE_MODULE})`);

const size = (file) => {
  const buf = readFileSync(join(dir, file));
  return { file, bytes: buf.length, gzipBytes: gzipSync(buf, { level: 9 }).length, why: reasons.get(file) };
};
const files = [...initial].map(size).sort((a, b) => b.gzipBytes - a.gzipBytes);
const total = files.reduce((t, f) => ({ bytes: t.bytes + f.bytes, gzipBytes: t.gzipBytes + f.gzipBytes }), {
  bytes: 0,
  gzipBytes: 0,
});
const css = styles.map((s) => size(strip(s)));
const kb = (n) => (n / 1024).toFixed(1);

if (args.includes('--json')) {
  console.log(JSON.stringify({ target: TARGET, total, files, css }, null, 2));
} else {
  console.log(`landing page (/) initial JavaScript, gzip level 9 (target ≤ ${kb(TARGET)} KB)`);
  for (const f of files) {
    console.log(
      `${f.file.padEnd(48)}${kb(f.bytes).padStart(8)} KB${kb(f.gzipBytes).padStart(8)} KB gz  ${f.why}`,
    );
  }
  console.log(
    `${'total'.padEnd(48)}${kb(total.bytes).padStart(8)} KB${kb(total.gzipBytes).padStart(8)} KB gz  ${total.gzipBytes <= TARGET ? 'ok' : 'OVER THE TARGET'}`,
  );
  for (const c of css)
    console.log(
      `${`(css) ${c.file}`.padEnd(48)}${kb(c.bytes).padStart(8)} KB${kb(c.gzipBytes).padStart(8)} KB gz`,
    );
}
process.exit(total.gzipBytes <= TARGET ? 0 : 1);
