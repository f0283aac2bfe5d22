#!/usr/bin/env node
/**
 * The size of each embeddable widget file: raw and gzip (level 9), against the budget of DESIGN.md and
 * docs/PERFORMANCE.md — 15 KB gzip the target, 25 KB gzip never to be passed (exit code 1 if one does).
 * Files a widget loads later, only where it needs them (`"split": true` in widgets/embed/widgets.json),
 * are listed under it and do not count against the element's own file.
 *
 *   node bench/widgets.mjs [--sources] [--no-build] [--json]
 *
 * It builds the widgets into .tmp/bench-widgets (node widgets/build-embed.mjs --out …), leaving dist/
 * alone; --no-build reads dist/widgets as it is. --sources adds, per file, where its bytes come from: each
 * source module's share of the minified file (from the source map) and of the gzip.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const args = process.argv.slice(2);
const TARGET = 15 * 1024;
const LIMIT = 25 * 1024;

const dir = args.includes('--no-build') ? join(root, 'dist', 'widgets') : join(root, '.tmp', 'bench-widgets');
if (!args.includes('--no-build')) {
  const built = spawnSync(process.execPath, ['widgets/build-embed.mjs', '--out', dir], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
if (!existsSync(join(dir, 'manifest.json'))) {
  console.error(`${dir}/manifest.json is missing: build the widgets first (node widgets/build-embed.mjs)`);
  process.exit(1);
}
const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
/** A source map's mappings: per generated line, segments [column, source?, …] (absolute values). */
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
function bytesBySource(file) {
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

const kb = (n) => (n / 1024).toFixed(1);
const rows = [];
let over = false;
for (const el of manifest.elements) {
  const verdict = el.gzipBytes > LIMIT ? 'OVER THE LIMIT' : el.gzipBytes > TARGET ? 'over target' : 'ok';
  if (el.gzipBytes > LIMIT) over = true;
  rows.push({
    tag: el.tag,
    file: el.file,
    bytes: el.bytes,
    gzipBytes: el.gzipBytes,
    verdict,
    later: el.chunks ?? [],
  });
}

if (args.includes('--json')) {
  console.log(JSON.stringify({ target: TARGET, limit: LIMIT, widgets: rows }, null, 2));
} else {
  console.log(`widget files (gzip level 9; target ≤ ${kb(TARGET)} KB, limit ${kb(LIMIT)} KB)`);
  console.log(
    `${'element'.padEnd(24)}${'file'.padEnd(36)}${'raw KB'.padStart(8)}${'gzip KB'.padStart(9)}  verdict`,
  );
  for (const r of rows) {
    console.log(
      `${r.tag.padEnd(24)}${r.file.padEnd(36)}${kb(r.bytes).padStart(8)}${kb(r.gzipBytes).padStart(9)}  ${r.verdict}`,
    );
    for (const c of r.later) {
      console.log(
        `${'  loaded when needed'.padEnd(24)}${c.file.padEnd(36)}${kb(c.bytes).padStart(8)}${kb(c.gzipBytes).padStart(9)}`,
      );
    }
    if (args.includes('--sources')) {
      for (const s of bytesBySource(r.file).slice(0, 15)) {
        console.log(
          `${''.padEnd(26)}${kb(s.bytes).padStart(6)} KB ${kb(s.gzipBytes).padStart(5)} KB gz  ${s.name}`,
        );
      }
    }
  }
}
process.exit(over ? 1 : 0);
