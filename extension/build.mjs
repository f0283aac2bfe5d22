#!/usr/bin/env node
/**
 * Builds the extension from one Manifest V3 source for two browsers:
 *   dist/extension-chromium  (service worker; `key` so the extension id is stable)
 *   dist/extension-firefox   (background script; browser_specific_settings.gecko.id)
 * Scripts are bundled with Vite (one self-contained file each: no modules in content scripts).
 *
 * Settings (environment, at build time):
 *   EXTENSION_PORTAL_URL  the production portal, e.g. https://app.waymark.example — its origin gets the
 *                         content script and API access, and it is the default uninstall page. Defaults to
 *                         PUBLIC_URL when that is not a loopback address. Loopback portals
 *                         (http://127.0.0.1:*, http://localhost:*) are always allowed, for development.
 *   EXTENSION_VERSION     the version in the manifests (default: package.json's).
 *
 *   node extension/build.mjs
 */
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

const LOOPBACK = /^https?:\/\/(127\.0\.0\.1|localhost)(:\d+)?$/;
function productionOrigin() {
  const raw = process.env.EXTENSION_PORTAL_URL || process.env.PUBLIC_URL || '';
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

const production = productionOrigin();
const defaultPortal = production || 'http://127.0.0.1:8080';
const version = (process.env.EXTENSION_VERSION || pkg.version).replace(/[^0-9.]/g, '') || '0.1.0';
const portalPatterns = [
  'http://127.0.0.1/*',
  'http://localhost/*',
  ...(production ? [`${production}/*`] : []),
];

const staging = join(root, 'dist', '.extension-build');
rmSync(staging, { recursive: true, force: true });

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

async function bundle(entry, name) {
  await build({
    configFile: false,
    plugins: [noEval],
    logLevel: 'warn',
    root,
    resolve: {
      alias: { '@shared': join(root, 'shared'), '@extension': join(root, 'extension') },
    },
    define: {
      __WAYMARK_PORTAL_URL__: JSON.stringify(defaultPortal),
      __WAYMARK_PRODUCTION_ORIGIN__: JSON.stringify(production),
      'process.env.NODE_ENV': JSON.stringify('production'),
    },
    build: {
      outDir: staging,
      emptyOutDir: false,
      copyPublicDir: false,
      minify: false,
      sourcemap: false,
      target: ['chrome120', 'firefox121'],
      lib: { entry: join(here, 'src', entry), formats: ['iife'], name, fileName: () => `${name}.js` },
    },
  });
}

await bundle('background.ts', 'background');
await bundle('content.ts', 'content');
await bundle('popup.ts', 'popup');

const icons = {
  16: 'icons/icon-16.png',
  32: 'icons/icon-32.png',
  48: 'icons/icon-48.png',
  128: 'icons/icon-128.png',
};
const common = {
  manifest_version: 3,
  name: 'Waymark',
  short_name: 'Waymark',
  version,
  description:
    'Counts the time you spend on the resources of your Waymark roadmaps, so your dashboard shows your learning.',
  icons,
  action: { default_title: 'Waymark', default_popup: 'popup.html', default_icon: icons },
  permissions: ['storage', 'tabs', 'idle', 'alarms'],
  host_permissions: portalPatterns,
  content_scripts: [
    { matches: portalPatterns, js: ['content.js'], run_at: 'document_start', all_frames: false },
  ],
  // never in private windows
  incognito: 'not_allowed',
  content_security_policy: { extension_pages: "script-src 'self'; object-src 'self'" },
};

const chromium = {
  ...common,
  key: readFileSync(join(here, 'chromium-key.txt'), 'utf8').trim(),
  minimum_chrome_version: '120',
  background: { service_worker: 'background.js' },
};

const firefox = {
  ...common,
  background: { scripts: ['background.js'] },
  browser_specific_settings: {
    gecko: {
      id: 'extension@waymark.app',
      strict_min_version: '142.0',
      data_collection_permissions: { required: ['browsingActivity'] },
    },
  },
};

for (const [dir, manifest] of [
  ['extension-chromium', chromium],
  ['extension-firefox', firefox],
]) {
  const out = join(root, 'dist', dir);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  for (const f of ['background.js', 'content.js', 'popup.js']) cpSync(join(staging, f), join(out, f));
  cpSync(join(here, 'popup.html'), join(out, 'popup.html'));
  cpSync(join(here, 'popup.css'), join(out, 'popup.css'));
  cpSync(join(here, 'icons'), join(out, 'icons'), { recursive: true });
  writeFileSync(join(out, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}
rmSync(staging, { recursive: true, force: true });
console.log(
  `extension ${version} → dist/extension-chromium, dist/extension-firefox (portal: ${production || 'loopback only'})`,
);
