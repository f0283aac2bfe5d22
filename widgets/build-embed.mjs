#!/usr/bin/env node
/**
 * Builds the embeddable elements into dist/widgets, through widgets/vite.embed.config.ts: one ES module
 * per element (widgets/embed/widgets.json) and the chunks they share, in one build, so a page with three
 * elements loads the shared runtime once. Then, from the same files:
 * - `custom-elements.json` (the Custom Elements Manifest, by @custom-elements-manifest/analyzer from the
 *   elements' header comments), `index.d.ts`, `react.d.ts`, `vue.d.ts` and
 *   `vscode.html-custom-data.json` (widgets/elements-manifest.mjs);
 * - `manifest.json`: the version, every file with its size and Subresource Integrity hash, and per
 *   element the files it loads at once and later, and its copy-paste snippet (the server fills in its own
 *   address, `{{WAYMARK_URL}}`);
 * - `<version>/`: the same files at their immutable, versioned path (the version of
 *   widgets/package/package.json; the server caches them for a year, the unversioned "latest" ones for
 *   five minutes);
 * - `dist/elements-package/`, the npm package `@waymark/elements` (the files, the typings, the manifests),
 *   and its tarball `dist/waymark-elements-<version>.tgz` (`npm pack`);
 * - the demo page, the playground (/widgets/playground), the embedding guide, and Brotli and gzip copies of
 *   every file (scripts/compress.mjs).
 *
 *   node widgets/build-embed.mjs [--out <folder>]   (default dist/widgets)
 *   node widgets/build-embed.mjs --files-only --out <folder>
 *       the element files and manifest.json only (bench/widgets.mjs)
 *   node widgets/build-embed.mjs --standalone --out <folder>
 *       each element on its own, self-contained (no shared chunks): the baseline bench/widgets.mjs
 *       measures beside the real build; writes the files and manifest.json only
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { register } from 'tsx/esm/api';
import { build } from 'vite';
import { compressFolder } from '../scripts/compress.mjs';
import { analyze, elementsOf, reactTypings, typings, vscodeData, vueTypings } from './elements-manifest.mjs';

// the config is loaded by Node itself, through tsx: it imports the widgets' props modules, which import
// TypeScript modules without extensions and through the tsconfig paths (@shared/…), as the rest of the code
register();
process.env.VITE_CONFIG_NATIVE_IGNORE_WARNING = 'true';

const root = new URL('..', import.meta.url).pathname;
const args = process.argv.slice(2);
const outArg = args.indexOf('--out');
const out = outArg >= 0 && args[outArg + 1] ? resolve(args[outArg + 1]) : join(root, 'dist', 'widgets');
const standalone = args.includes('--standalone');
const filesOnly = standalone || args.includes('--files-only');
const widgets = JSON.parse(readFileSync(join(root, 'widgets', 'embed', 'widgets.json'), 'utf8'));
const packageJson = JSON.parse(readFileSync(join(root, 'widgets', 'package', 'package.json'), 'utf8'));
const VERSION = packageJson.version;
/** The pages served beside the elements (not part of a release: no versioned copy, not in the package). */
const PAGES = ['demo', 'playground'];
const isPage = (file) => PAGES.some((p) => file.startsWith(`${p}.`));
/** What the server replaces by its own address (PUBLIC_URL) when it serves manifest.json. */
export const WAYMARK_URL = '{{WAYMARK_URL}}';

/** Builds the widgets named; the chunks written, by file name. */
async function buildWidgets(names) {
  process.env.WM_WIDGETS = names.join(',');
  process.env.WM_WIDGETS_OUT = out;
  process.env.WM_STANDALONE = standalone ? '1' : '';
  const result = await build({
    configFile: join(root, 'widgets', 'vite.embed.config.ts'),
    configLoader: 'native',
    mode: 'production',
  });
  const outputs = (Array.isArray(result) ? result : [result]).flatMap((r) => r.output ?? []);
  return new Map(outputs.filter((o) => o.type === 'chunk').map((c) => [c.fileName, c]));
}

/** A file's size, gzip size (level 9, as a server would send it) and SRI hash (sha384). */
function fileFacts(file) {
  const code = readFileSync(join(out, file));
  return {
    file,
    bytes: code.length,
    gzipBytes: gzipSync(code, { level: 9 }).length,
    integrity: `sha384-${createHash('sha384').update(code).digest('base64')}`,
  };
}

/** The files an element loads at once (its static imports, transitively) and those it may load later. */
function filesOf(entry, chunks) {
  const now = [];
  const later = [];
  const walk = (name, into) => {
    const c = chunks.get(name);
    if (!c || now.includes(name) || later.includes(name)) return;
    into.push(name);
    for (const i of c.imports) walk(i, into);
    for (const d of c.dynamicImports) walk(d, later);
  };
  walk(entry, now);
  return { now, later };
}

/**
 * The copy-paste snippet of an element: its shared files preloaded and the element's file, all with SRI;
 * the files it imports later (the signed-in dashboard) get theirs from an import map's `integrity`, the
 * only way a browser checks a dynamically imported module.
 */
function snippet(el, files) {
  const url = (f) => `${WAYMARK_URL}/widgets/${VERSION}/${f}`;
  const lines = [];
  if (el.lazy.length) {
    const integrity = Object.fromEntries(el.lazy.map((f) => [url(f), files[f].integrity]));
    lines.push(`<script type="importmap">${JSON.stringify({ integrity })}</script>`);
  }
  lines.push(
    ...el.imports.map(
      (f) =>
        `<link rel="modulepreload" href="${url(f)}" integrity="${files[f].integrity}" crossorigin="anonymous">`,
    ),
  );
  lines.push(
    `<script type="module" src="${url(el.file)}" integrity="${files[el.file].integrity}" crossorigin="anonymous"></script>`,
  );
  return lines.join('\n');
}

function log(what, s) {
  console.log(
    `  ${what.padEnd(24)} ${s.file.padEnd(34)} ${(s.bytes / 1024).toFixed(1).padStart(6)} KB, ${(s.gzipBytes / 1024).toFixed(1).padStart(5)} KB gzip`,
  );
}

async function main() {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const names = Object.keys(widgets);
  const chunks = new Map();
  for (const group of standalone ? names.map((n) => [n]) : [names]) {
    for (const [file, chunk] of await buildWidgets(group)) chunks.set(file, chunk);
  }
  const files = Object.fromEntries([...chunks.keys()].sort().map((f) => [f, fileFacts(f)]));
  const elements = names.map((name) => {
    const file = `${name}.js`;
    const { now, later } = filesOf(file, chunks);
    const imports = now.filter((f) => f !== file);
    const firstLoad = now.reduce((sum, f) => sum + files[f].gzipBytes, 0);
    return { tag: widgets[name].tag, ...files[file], imports, lazy: later, firstLoadGzipBytes: firstLoad };
  });
  for (const el of elements) {
    log(el.tag, el);
    for (const f of el.imports) log('  (shared, at once)', files[f]);
    for (const f of el.lazy) log('  (loaded when needed)', files[f]);
  }
  const manifest = {
    name: packageJson.name,
    version: VERSION,
    generated: new Date().toISOString(),
    standalone,
    customElements: standalone ? undefined : 'custom-elements.json',
    files,
    elements: elements.map((el) => (standalone ? el : { ...el, snippet: snippet(el, files) })),
  };
  writeFileSync(join(out, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  if (filesOnly) return;

  // the standard manifest and the typings, from the elements' header comments
  const cem = analyze();
  const tags = elementsOf(cem).map((e) => e.tagName);
  const missing = elements.filter((e) => !tags.includes(e.tag)).map((e) => e.tag);
  if (missing.length)
    throw new Error(`custom-elements.json lacks ${missing.join(', ')}: document their classes`);
  writeFileSync(join(out, 'custom-elements.json'), `${JSON.stringify(cem, null, 2)}\n`);
  writeFileSync(join(out, 'index.d.ts'), typings(cem));
  writeFileSync(join(out, 'react.d.ts'), reactTypings(cem));
  writeFileSync(join(out, 'vue.d.ts'), vueTypings(cem));
  writeFileSync(
    join(out, 'vscode.html-custom-data.json'),
    `${JSON.stringify(vscodeData(cem, 'https://github.com/waymark/waymark/blob/main/docs/embed.md'), null, 2)}\n`,
  );

  // the demo partner page and the playground (/widgets/playground), with their scripts and styles
  for (const page of PAGES) {
    copyFileSync(join(root, 'widgets', `${page}.html`), join(out, `${page}.html`));
    copyFileSync(join(root, 'widgets', 'embed', `${page}.js`), join(out, `${page}.js`));
    copyFileSync(join(root, 'widgets', 'embed', `${page}.css`), join(out, `${page}.css`));
  }
  // the embedding guide beside the demo that links it
  if (existsSync(join(root, 'docs', 'embed.md')))
    copyFileSync(join(root, 'docs', 'embed.md'), join(out, 'embed.md'));

  // the immutable, versioned copy of everything the elements are made of
  const versioned = join(out, VERSION);
  mkdirSync(versioned);
  for (const f of readdirSync(out)) {
    if (/\.(js|map|json|d\.ts)$/.test(f) && !isPage(f)) copyFileSync(join(out, f), join(versioned, f));
  }

  writePackage(cem);
  // compressed copies beside the files (the server sends them to browsers that accept them); made here
  // so that no build of the widgets leaves an older copy beside a newer file
  compressFolder(out);
}

/**
 * What the element files bundle of other packages (read from their source maps: Preact, its signals),
 * with each package's licence text: the notices its licence asks to keep with copies.
 */
function thirdPartyNotices(files) {
  const packages = new Map();
  for (const f of files) {
    const map = JSON.parse(readFileSync(join(out, `${f}.map`), 'utf8'));
    for (const source of map.sources) {
      const at = source.lastIndexOf('node_modules/');
      if (at < 0) continue;
      const parts = source.slice(at + 'node_modules/'.length).split('/');
      const name = parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
      packages.set(name, join(root, 'node_modules', name));
    }
  }
  const sections = [...packages]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, dir]) => {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      const licence = readdirSync(dir).find((f) => /^licen[cs]e(\.md|\.txt)?$/i.test(f));
      if (!licence) throw new Error(`${name} is bundled into the elements but ships no licence file`);
      return `${name} ${pkg.version} (${pkg.license})\n\n${readFileSync(join(dir, licence), 'utf8').trim()}\n`;
    });
  return `The files of @waymark/elements bundle the following packages, under their own licences:\n\n${sections.join('\n---\n\n')}`;
}

/** dist/elements-package (the npm package) and its tarball beside it. */
function writePackage(cem) {
  const dir = join(dirname(out), 'elements-package');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const js = readdirSync(out).filter((f) => f.endsWith('.js') && !isPage(f));
  // each file with its source map (the files name them: //# sourceMappingURL)
  for (const f of js) {
    cpSync(join(out, f), join(dir, f));
    if (existsSync(join(out, `${f}.map`))) cpSync(join(out, `${f}.map`), join(dir, `${f}.map`));
  }
  // the licence, the changelog (with the versioning policy) and the bundled packages' notices
  for (const f of ['LICENSE', 'CHANGELOG.md']) cpSync(join(root, 'widgets', 'package', f), join(dir, f));
  writeFileSync(join(dir, 'THIRD-PARTY-NOTICES.txt'), thirdPartyNotices(js));
  for (const f of [
    'custom-elements.json',
    'index.d.ts',
    'react.d.ts',
    'vue.d.ts',
    'vscode.html-custom-data.json',
  ]) {
    cpSync(join(out, f), join(dir, f));
  }
  cpSync(join(root, 'widgets', 'package', 'README.md'), join(dir, 'README.md'));
  const names = Object.keys(widgets);
  // importing the package defines every element; importing one file defines one
  writeFileSync(join(dir, 'index.js'), names.map((n) => `import './${n}.js';\n`).join(''));
  for (const el of elementsOf(cem)) {
    const type = `${el.tagName.replace(/(^|-)([a-z])/g, (_, _d, c) => c.toUpperCase())}Element`;
    writeFileSync(
      join(dir, el.path.replace(/\.js$/, '.d.ts')),
      `export type { ${type} } from './index.js';\n`,
    );
  }
  const exports = {
    '.': { types: './index.d.ts', default: './index.js' },
    ...Object.fromEntries(names.map((n) => [`./${n}.js`, { types: `./${n}.d.ts`, default: `./${n}.js` }])),
    './react': { types: './react.d.ts' },
    './vue': { types: './vue.d.ts' },
    './custom-elements.json': './custom-elements.json',
    './vscode.html-custom-data.json': './vscode.html-custom-data.json',
  };
  // what npm publishes, said outright (scripts/check-published.mjs compares it with npm publish --dry-run)
  const files = [
    '*.js',
    '*.js.map',
    '*.d.ts',
    'custom-elements.json',
    'vscode.html-custom-data.json',
    'CHANGELOG.md',
    'THIRD-PARTY-NOTICES.txt',
  ];
  writeFileSync(
    join(dir, 'package.json'),
    `${JSON.stringify({ ...packageJson, main: './index.js', types: './index.d.ts', exports, files }, null, 2)}\n`,
  );
  const packed = spawnSync('npm', ['pack', '--pack-destination', dirname(out), '--silent'], {
    cwd: dir,
    encoding: 'utf8',
  });
  if (packed.status !== 0) throw new Error(`npm pack failed:\n${packed.stderr}`);
  console.log(`  package                  ${packed.stdout.trim()} (npm pack)`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
