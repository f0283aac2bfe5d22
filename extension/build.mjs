#!/usr/bin/env node
/**
 * Builds the extension from one Manifest V3 source (manifest.mjs) for two browsers, into `dist/`:
 *
 *   extension-chromium/, extension-firefox/   to load unpacked (README): the portal's origins and loopback,
 *                                             and a `key` so the Chromium id is stable
 *   waymark-chromium-<version>.zip            the Chrome Web Store package (no `key`: the store refuses it)
 *   waymark-firefox-<version>.xpi             the addons.mozilla.org package, unsigned, as submitted
 *   e2e/extension-chromium/, e2e/extension-firefox/
 *                                             the end-to-end tests' builds: background-e2e.ts (the
 *                                             `__waymarkTest` hooks) in place of background.ts; nothing else
 *                                             carries the hooks
 *
 * The packages are reproducible: the same sources give the same bytes (sorted entries, a fixed time).
 * Both manifests and both packages take the version of package.json (README: "Versions").
 * Scripts are bundled with Vite (one self-contained file each: no modules in content scripts).
 *
 * Settings (environment, at build time):
 *   EXTENSION_PORTAL_URL  the production portal, e.g. https://app.waymark.example — its origin gets the
 *                         content script and API access, and it is the default uninstall page. Defaults to
 *                         PUBLIC_URL when that is not a loopback address. The unpacked builds also allow the
 *                         loopback portals (http://127.0.0.1:*, http://localhost:*), for development; the
 *                         store packages allow the production origin only (loopback when there is none:
 *                         packages to try locally, not to submit).
 *
 *   node extension/build.mjs
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { zipSync } from 'fflate';
import { build } from 'vite';
import { catalogueLocales, readCatalogue } from '../scripts/i18n/sources.mjs';
import { extensionMessages } from '../shared/i18n/extension-messages.mjs';
import { manifests } from './manifest.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');

const LOOPBACK = /^https?:\/\/(127\.0\.0\.1|localhost)(:\d+)?$/;
const LOOPBACK_PATTERNS = ['http://127.0.0.1/*', 'http://localhost/*'];

/** The production portal's origin ('' for none), from EXTENSION_PORTAL_URL or PUBLIC_URL. */
export function productionOrigin(env = process.env) {
  const raw = env.EXTENSION_PORTAL_URL || env.PUBLIC_URL || '';
  if (!raw) return '';
  let origin;
  try {
    origin = new URL(raw).origin;
  } catch {
    throw new Error(`EXTENSION_PORTAL_URL must be a URL such as https://app.waymark.example (got ${raw})`);
  }
  if (LOOPBACK.test(origin)) return '';
  if (!origin.startsWith('https://')) throw new Error(`EXTENSION_PORTAL_URL must use https (got ${raw})`);
  return origin;
}

/**
 * zod probes for `new Function` (its optional JIT); extensions may not evaluate strings, and store reviews
 * flag the constructor. The background also sets `z.config({ jitless: true })`; this removes the probe.
 */
const noEval = {
  name: 'waymark-no-eval',
  transform(code, id) {
    if (!id.includes('/node_modules/zod/') || !code.includes('const F = Function;')) return null;
    return code.replaceAll(
      'const F = Function;',
      "const F = function () { throw new EvalError('no eval in the extension'); };",
    );
  },
};

async function bundle(entry, name, outDir, production, file = name) {
  await build({
    configFile: false,
    plugins: [noEval],
    logLevel: 'warn',
    root,
    resolve: {
      alias: { '@shared': join(root, 'shared'), '@extension': join(root, 'extension') },
    },
    define: {
      __WAYMARK_PORTAL_URL__: JSON.stringify(production || 'http://127.0.0.1:8080'),
      __WAYMARK_PRODUCTION_ORIGIN__: JSON.stringify(production),
      'process.env.NODE_ENV': JSON.stringify('production'),
    },
    build: {
      outDir,
      emptyOutDir: false,
      copyPublicDir: false,
      minify: false,
      sourcemap: false,
      target: ['chrome120', 'firefox140'],
      lib: { entry: join(here, 'src', entry), formats: ['iife'], name, fileName: () => `${file}.js` },
    },
  });
}

/** Every file under `dir`, as paths relative to it with forward slashes, sorted. */
function filesOf(dir) {
  const out = [];
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.push(relative(dir, p).split('\\').join('/'));
    }
  };
  walk(dir);
  return out.sort();
}

/**
 * A zip of `dir` that depends on its contents only: entries sorted, each stamped 1980-01-01 12:00 (the
 * first time a zip can hold; built from local fields, as zip times are, so every time zone writes the same).
 */
export function zipFolder(dir) {
  const mtime = new Date(1980, 0, 1, 12, 0, 0);
  const entries = {};
  for (const f of filesOf(dir)) entries[f] = [readFileSync(join(dir, f)), { mtime, level: 9 }];
  return zipSync(entries);
}

function writeTree(out, staging, background, manifest) {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  cpSync(join(staging, `${background}.js`), join(out, 'background.js'));
  for (const f of ['content.js', 'popup.js']) cpSync(join(staging, f), join(out, f));
  for (const f of ['popup.html', 'popup.css']) cpSync(join(here, f), join(out, f));
  cpSync(join(here, 'icons'), join(out, 'icons'), { recursive: true });
  writeFileSync(join(out, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  // the popup's and the manifest's words in each language, where both browsers look for them
  for (const locale of catalogueLocales()) {
    mkdirSync(join(out, '_locales', locale), { recursive: true });
    writeFileSync(
      join(out, '_locales', locale, 'messages.json'),
      `${JSON.stringify(extensionMessages(readCatalogue(locale)), null, 2)}\n`,
    );
  }
}

/**
 * Builds everything above into `outDir` (default dist/). Returns the version and the packages' paths.
 */
export async function buildExtension({ outDir = join(root, 'dist'), env = process.env } = {}) {
  const production = productionOrigin(env);
  const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
  mkdirSync(outDir, { recursive: true });
  const staging = mkdtempSync(join(outDir, '.extension-build-'));
  try {
    await bundle('background.ts', 'background', staging, production);
    await bundle('background-e2e.ts', 'background', staging, production, 'background-e2e');
    await bundle('content.ts', 'content', staging, production);
    await bundle('popup.ts', 'popup', staging, production);

    const chromiumKey = readFileSync(join(here, 'chromium-key.txt'), 'utf8').trim();
    const unpacked = manifests({
      version,
      origins: [...LOOPBACK_PATTERNS, ...(production ? [`${production}/*`] : [])],
      chromiumKey,
    });
    const store = manifests({ version, origins: production ? [`${production}/*`] : LOOPBACK_PATTERNS });
    for (const browser of ['chromium', 'firefox']) {
      writeTree(join(outDir, `extension-${browser}`), staging, 'background', unpacked[browser]);
      writeTree(join(outDir, 'e2e', `extension-${browser}`), staging, 'background-e2e', unpacked[browser]);
      writeTree(join(staging, `store-${browser}`), staging, 'background', store[browser]);
    }
    for (const f of readdirSync(outDir))
      if (/^waymark-(chromium-.+\.zip|firefox-.+\.xpi)$/.test(f)) rmSync(join(outDir, f));
    const packages = {
      chromium: join(outDir, `waymark-chromium-${version}.zip`),
      firefox: join(outDir, `waymark-firefox-${version}.xpi`),
    };
    writeFileSync(packages.chromium, zipFolder(join(staging, 'store-chromium')));
    writeFileSync(packages.firefox, zipFolder(join(staging, 'store-firefox')));
    return { version, production, packages };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { version, production, packages } = await buildExtension();
  console.log(
    `extension ${version} → dist/extension-chromium, dist/extension-firefox, ${relative(root, packages.chromium)}, ${relative(root, packages.firefox)} (portal: ${production || 'loopback only'})`,
  );
}
