#!/usr/bin/env node
/**
 * Builds the embeddable widgets into dist/widgets: one ES module per widget (widgets/embed/widgets.json),
 * each through widgets/vite.embed.config.ts; then manifest.json (each element's file, size and the
 * attributes, events, slots, CSS parts and custom properties of its header comment) and the demo page.
 *   node widgets/build-embed.mjs
 */
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';

// the config imports TypeScript modules without extensions (as the rest of the code does)
process.env.VITE_CONFIG_NATIVE_IGNORE_WARNING = 'true';

const root = new URL('..', import.meta.url).pathname;
const out = join(root, 'dist', 'widgets');
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

async function main() {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const manifest = { generated: new Date().toISOString(), elements: [] };
  for (const [name, { entry, tag }] of Object.entries(widgets)) {
    process.env.WM_WIDGET = name;
    await build({ configFile: join(root, 'widgets', 'vite.embed.config.ts'), mode: 'production' });
    const file = `${name}.js`;
    const code = readFileSync(join(out, file));
    const header = parseHeader(readFileSync(join(root, 'widgets', entry), 'utf8'));
    const gzipBytes = gzipSync(code, { level: 9 }).length;
    manifest.elements.push({ tag, file, bytes: code.length, gzipBytes, ...header });
    console.log(
      `  ${tag.padEnd(22)} ${file.padEnd(24)} ${(code.length / 1024).toFixed(1)} KB, ${(gzipBytes / 1024).toFixed(1)} KB gzip`,
    );
  }
  copyFileSync(join(root, 'widgets', 'demo.html'), join(out, 'demo.html'));
  copyFileSync(join(root, 'widgets', 'embed', 'demo.js'), join(out, 'demo.js'));
  copyFileSync(join(root, 'widgets', 'embed', 'demo.css'), join(out, 'demo.css'));
  writeFileSync(join(out, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
