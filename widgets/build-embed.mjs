#!/usr/bin/env node
/**
 * Builds the embeddable widgets into dist/widgets: one ES module per widget (widgets/embed/widgets.json),
 * each through widgets/vite.embed.config.ts; then manifest.json (each element's file, size and the
 * attributes, events, slots, CSS parts and custom properties of its header comment), the demo page and
 * Brotli and gzip copies of every file (scripts/compress.mjs).
 *   node widgets/build-embed.mjs [--out <folder>]   (default dist/widgets; bench/widgets.mjs builds elsewhere)
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { register } from 'tsx/esm/api';
import { build } from 'vite';
import { compressFolder } from '../scripts/compress.mjs';

// the config is loaded by Node itself, through tsx: it imports the widgets' props modules, which import
// TypeScript modules without extensions and through the tsconfig paths (@shared/…), as the rest of the code
register();
process.env.VITE_CONFIG_NATIVE_IGNORE_WARNING = 'true';

const root = new URL('..', import.meta.url).pathname;
const outArg = process.argv.indexOf('--out');
const out =
  outArg >= 0 && process.argv[outArg + 1] ? resolve(process.argv[outArg + 1]) : join(root, 'dist', 'widgets');
process.env.WM_WIDGETS_OUT = out;
const widgets = JSON.parse(readFileSync(join(root, 'widgets', 'embed', 'widgets.json'), 'utf8'));

/** The shoelace-style tags of an element's header comment. */
export function parseHeader(source) {
  const comment = source.match(/\/\*\*([\s\S]*?)\*\//)?.[1] ?? '';
  const lines = comment.split('\n').map((l) => l.replace(/^\s*\*\s?/, '').trimEnd());
  const doc = { summary: '', attributes: [], events: [], slots: [], cssParts: [], cssProperties: [] };
  const kinds = {
    '@attr': 'attributes',
    '@event': 'events',
    '@slot': 'slots',
    '@csspart': 'cssParts',
    '@cssprop': 'cssProperties',
  };
  const summary = [];
  for (const line of lines) {
    const m = line.match(/^(@\w+)\s+(\S+)\s+-\s+(.*)$/);
    if (m && kinds[m[1]]) doc[kinds[m[1]]].push({ name: m[2] === '-' ? '' : m[2], description: m[3] });
    else if (!line.startsWith('@') && doc.attributes.length === 0 && line) summary.push(line);
  }
  // "@slot - None…" has no name
  doc.slots = lines
    .filter((l) => l.startsWith('@slot'))
    .map((l) => {
      const m = l.match(/^@slot\s+(?:(\S+)\s+)?-\s+(.*)$/);
      return { name: m?.[1] ?? '', description: m?.[2] ?? '' };
    });
  doc.summary = summary.join(' ');
  return doc;
}

/** Each file's size and gzip size (level 9, as a server would send it). */
function sizes(files) {
  return files.map((file) => {
    const code = readFileSync(join(out, file));
    return { file, bytes: code.length, gzipBytes: gzipSync(code, { level: 9 }).length };
  });
}

async function main() {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const manifest = { generated: new Date().toISOString(), elements: [] };
  for (const [name, { entry, tag }] of Object.entries(widgets)) {
    process.env.WM_WIDGET = name;
    const result = await build({
      configFile: join(root, 'widgets', 'vite.embed.config.ts'),
      configLoader: 'native',
      mode: 'production',
    });
    const file = `${name}.js`;
    const header = parseHeader(readFileSync(join(root, 'widgets', entry), 'utf8'));
    const [size] = sizes([file]);
    // the files a "split" widget loads later, only where it needs them
    const outputs = (Array.isArray(result) ? result : [result]).flatMap((r) => r.output ?? []);
    const later = outputs
      .filter((o) => o.type === 'chunk' && !o.isEntry)
      .map((o) => o.fileName)
      .sort();
    const chunks = sizes(later);
    manifest.elements.push({ tag, ...size, chunks, ...header });
    for (const s of [size, ...chunks]) {
      const what = s === size ? tag : '  (loaded when needed)';
      console.log(
        `  ${what.padEnd(24)} ${s.file.padEnd(34)} ${(s.bytes / 1024).toFixed(1).padStart(6)} KB, ${(s.gzipBytes / 1024).toFixed(1).padStart(5)} KB gzip`,
      );
    }
  }
  copyFileSync(join(root, 'widgets', 'demo.html'), join(out, 'demo.html'));
  copyFileSync(join(root, 'widgets', 'embed', 'demo.js'), join(out, 'demo.js'));
  copyFileSync(join(root, 'widgets', 'embed', 'demo.css'), join(out, 'demo.css'));
  // the embedding guide beside the demo that links it
  if (existsSync(join(root, 'docs', 'embed.md'))) {
    copyFileSync(join(root, 'docs', 'embed.md'), join(out, 'embed.md'));
  }
  writeFileSync(join(out, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  // compressed copies beside the files (the server sends them to browsers that accept them); made here
  // so that no build of the widgets leaves an older copy beside a newer file
  compressFolder(out);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
