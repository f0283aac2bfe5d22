#!/usr/bin/env node
/**
 * Builds the partner apps of tests/e2e/partner.spec.ts the way a partner would: a folder of their own
 * (.tmp/partner-apps) with `@waymark/elements` installed from the tarball the repository packs
 * (dist/waymark-elements-<version>.tgz, by node widgets/build-embed.mjs), React and Vue from the
 * repository's node_modules. Each app is type-checked against the package's typings first — the React
 * app with tsc (JSX.IntrinsicElements), the Vue app with vue-tsc (GlobalComponents) — then built with
 * Vite into .tmp/partner-apps/dist/{react,vue}.
 *   node tests/partner-apps/build.mjs [--types-only | --no-types]
 * (CI type-checks in its `published` step, scripts/check-published.mjs; the e2e spec then only builds.)
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const here = join(root, 'tests', 'partner-apps');
const out = join(root, '.tmp', 'partner-apps');
const bin = (name) => join(root, 'node_modules', '.bin', name);
const run = (cmd, args, cwd = out) => execFileSync(cmd, args, { cwd, stdio: 'inherit' });

const tarball = readdirSync(join(root, 'dist'))
  .filter((f) => /^waymark-elements-.+\.tgz$/.test(f))
  .sort()
  .pop();
if (!tarball) {
  console.error('dist/waymark-elements-<version>.tgz is missing: run node widgets/build-embed.mjs');
  process.exit(1);
}

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
for (const app of ['react', 'vue']) cpSync(join(here, app), join(out, app), { recursive: true });
writeFileSync(
  join(out, 'package.json'),
  `${JSON.stringify({ name: 'partner-apps', private: true }, null, 2)}\n`,
);
// the package as a partner gets it: npm install of the published tarball (it has no dependencies)
run('npm', [
  'install',
  join(root, 'dist', tarball),
  '--no-save',
  '--no-audit',
  '--no-fund',
  '--ignore-scripts',
  '--loglevel=error',
]);

const started = Date.now();
run(bin('tsc'), ['-p', join(out, 'react', 'tsconfig.json')]);
run(bin('vue-tsc'), ['-p', join(out, 'vue', 'tsconfig.json')]);
console.log(
  `✓ the React and Vue apps type-check against the package (${((Date.now() - started) / 1000).toFixed(1)} s)`,
);
if (process.argv.includes('--types-only')) process.exit(0);

const { build } = await import('vite');
const { default: react } = await import('@vitejs/plugin-react');
const { default: vue } = await import('@vitejs/plugin-vue');
for (const app of ['react', 'vue']) {
  await build({
    configFile: false,
    root: join(out, app),
    base: `/${app}/`,
    logLevel: 'warn',
    plugins:
      app === 'react'
        ? [react()]
        : [vue({ template: { compilerOptions: { isCustomElement: (tag) => tag.startsWith('wm-') } } })],
    build: { outDir: join(out, 'dist', app), emptyOutDir: true, target: 'es2022' },
  });
}
console.log(`✓ built ${join(out, 'dist')}/{react,vue}`);
