#!/usr/bin/env node
/**
 * What a partner page downloads to show the elements, gzip level 9 (as a server sends it), measured on
 * two builds made in the same run from the same sources:
 *   shared      the real build (node widgets/build-embed.mjs): each element's file plus the chunks the
 *               elements share (runtime-<hash>.js, selection-<hash>.js), each downloaded once per page;
 *   standalone  the baseline: every element one self-contained file, as before the shared runtime
 *               (node widgets/build-embed.mjs --standalone).
 * For each element: its first file (the budget: 15 KB gzip, exit code 1 above it) and everything it loads
 * at once; then pages with one, three (catalogue, course, award: a partner's course page) and all five
 * elements, the shared build beside the baseline. Files an element loads later, only where it needs them
 * (the signed-in dashboard), are listed apart and not counted.
 *
 *   node bench/widgets.mjs [--sources] [--json]
 *
 * Both builds go to .tmp/bench-widgets, leaving dist/ alone. --sources adds, per element file, where its
 * bytes come from: each source module's share of the minified file (from the source map) and of the gzip.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const args = process.argv.slice(2);
const BUDGET = 15 * 1024;
const base = join(root, '.tmp', 'bench-widgets');

function buildInto(dir, flag) {
  const t = Date.now();
  const built = spawnSync(process.execPath, ['widgets/build-embed.mjs', flag, '--out', dir], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (built.status !== 0) process.exit(built.status ?? 1);
  return { manifest: JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')), ms: Date.now() - t };
}
const shared = buildInto(join(base, 'shared'), '--files-only');
const standalone = buildInto(join(base, 'standalone'), '--standalone');

const kb = (n) => (n / 1024).toFixed(1);
const byTag = (m) => Object.fromEntries(m.elements.map((e) => [e.tag, e]));
const S = byTag(shared.manifest);
const B = byTag(standalone.manifest);

/** The gzip bytes a page with these elements downloads at once: each file once. */
function page(manifest, tags) {
  const els = byTag(manifest);
  const files = new Set(tags.flatMap((t) => [els[t].file, ...els[t].imports]));
  return {
    files: files.size,
    gzipBytes: [...files].reduce((sum, f) => sum + manifest.files[f].gzipBytes, 0),
  };
}

const tags = shared.manifest.elements.map((e) => e.tag);
const PAGES = [
  ...tags.map((t) => ({ name: `one: <${t}>`, tags: [t] })),
  { name: 'three: catalogue, course, award', tags: ['wm-roadmap-catalogue', 'wm-course-detail', 'wm-award'] },
  { name: 'all five', tags },
];

const rows = tags.map((t) => ({
  tag: t,
  file: S[t].file,
  firstFileGzip: S[t].gzipBytes,
  atOnceGzip: S[t].firstLoadGzipBytes,
  standaloneGzip: B[t].gzipBytes,
  over: S[t].gzipBytes > BUDGET,
  lazy: S[t].lazy,
}));
const pages = PAGES.map((p) => ({
  name: p.name,
  shared: page(shared.manifest, p.tags),
  standalone: page(standalone.manifest, p.tags),
}));

if (args.includes('--json')) {
  console.log(JSON.stringify({ budget: BUDGET, elements: rows, pages }, null, 2));
} else {
  console.log(`element files, gzip level 9 (budget for an element's first file: ${kb(BUDGET)} KB)`);
  console.log(
    `${'element'.padEnd(24)}${'first file'.padEnd(24)}${'first KB'.padStart(9)}${'at once KB'.padStart(12)}${'standalone KB'.padStart(15)}  verdict`,
  );
  for (const r of rows) {
    console.log(
      `${r.tag.padEnd(24)}${r.file.padEnd(24)}${kb(r.firstFileGzip).padStart(9)}${kb(r.atOnceGzip).padStart(12)}${kb(r.standaloneGzip).padStart(15)}  ${r.over ? 'OVER THE BUDGET' : 'ok'}`,
    );
    for (const f of r.lazy) {
      console.log(
        `${'  loaded when needed'.padEnd(24)}${f.padEnd(24)}${kb(shared.manifest.files[f].gzipBytes).padStart(9)}`,
      );
    }
  }
  console.log('\nshared files');
  for (const [f, d] of Object.entries(shared.manifest.files)) {
    if (!f.startsWith('runtime-') && !f.startsWith('selection-')) continue;
    console.log(`  ${f.padEnd(30)}${kb(d.gzipBytes).padStart(7)} KB gzip (${kb(d.bytes)} KB)`);
  }
  console.log('\na page downloads (gzip, each file once)');
  console.log(
    `${'page'.padEnd(40)}${'shared KB'.padStart(10)}${'files'.padStart(7)}${'standalone KB'.padStart(15)}${'ratio'.padStart(8)}`,
  );
  for (const p of pages) {
    console.log(
      `${p.name.padEnd(40)}${kb(p.shared.gzipBytes).padStart(10)}${String(p.shared.files).padStart(7)}${kb(p.standalone.gzipBytes).padStart(15)}${(p.shared.gzipBytes / p.standalone.gzipBytes).toFixed(2).padStart(8)}`,
    );
  }
  console.log(
    `\n(builds: shared ${(shared.ms / 1000).toFixed(1)} s, standalone ${(standalone.ms / 1000).toFixed(1)} s)`,
  );
}

if (args.includes('--sources')) {
  for (const r of rows) {
    console.log(`\n${r.file}`);
    for (const s of bytesBySource(join(base, 'shared'), r.file).slice(0, 12)) {
      console.log(`  ${kb(s.bytes).padStart(6)} KB ${kb(s.gzipBytes).padStart(5)} KB gz  ${s.name}`);
    }
  }
}
process.exit(rows.some((r) => r.over) ? 1 : 0);

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
/** A source map's mappings: per generated line, segments [column, source?] (absolute values). */
function decodeMappings(mappings) {
  const lines = [];
  let source = 0;
  for (const line of mappings.split(';')) {
    const segments = [];
    let column = 0;
    for (const segment of line.split(',')) {
      if (!segment) continue;
      const values = [];
      let value = 0;
      let shift = 0;
      for (const ch of segment) {
        const digit = BASE64.indexOf(ch);
        value += (digit & 31) << shift;
        if (digit & 32) shift += 5;
        else {
          values.push(value & 1 ? -(value >>> 1) : value >>> 1);
          value = 0;
          shift = 0;
        }
      }
      column += values[0];
      if (values.length > 1) source += values[1];
      segments.push(values.length > 1 ? [column, source] : [column]);
    }
    lines.push(segments);
  }
  return lines;
}

/** Each source module's text in a minified file, by its source map. */
function bytesBySource(dir, file) {
  const code = readFileSync(join(dir, file), 'utf8');
  const map = JSON.parse(readFileSync(join(dir, `${file}.map`), 'utf8'));
  const parts = new Map();
  const add = (name, text) => parts.set(name, (parts.get(name) ?? '') + text);
  const lines = code.split('\n');
  decodeMappings(map.mappings).forEach((segments, i) => {
    const line = lines[i] ?? '';
    if (segments.length && segments[0][0] > 0) add('(no source)', line.slice(0, segments[0][0]));
    segments.forEach((seg, j) => {
      const end = j + 1 < segments.length ? segments[j + 1][0] : line.length;
      const name = seg.length > 1 ? map.sources[seg[1]].replace(/^(\.\.\/)+/, '') : '(no source)';
      add(name, line.slice(seg[0], end));
    });
  });
  return [...parts]
    .map(([name, text]) => ({ name, bytes: text.length, gzipBytes: gzipSync(text, { level: 9 }).length }))
    .sort((a, b) => b.bytes - a.bytes);
}
