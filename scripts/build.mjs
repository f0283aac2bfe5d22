#!/usr/bin/env node
/**
 * Builds what the server serves: the portal (dist/portal) and, when their configs exist, the embeddable
 * widgets (dist/widgets) and the browser extension (dist/extension-*).
 *   node scripts/build.mjs             build everything
 *   node scripts/build.mjs --if-stale  only what is older than its sources (used by npm start)
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { compressFolder } from './compress.mjs';
import { isStale } from './stale.mjs';

const root = new URL('..', import.meta.url).pathname;
const ifStale = process.argv.includes('--if-stale');

const targets = [
  {
    name: 'portal',
    config: 'vite.config.ts',
    output: 'dist/portal/index.html',
    compress: 'dist/portal',
    sources: ['portal', 'widgets', 'shared', 'vite.config.ts', 'package-lock.json'],
    command: ['npx', 'vite', 'build', '--config', 'vite.config.ts', '--logLevel', 'warn'],
  },
  {
    name: 'widgets',
    config: 'widgets/vite.embed.config.ts',
    output: 'dist/widgets/manifest.json',
    sources: ['widgets', 'shared', 'widgets/vite.embed.config.ts', 'package-lock.json'],
    command: ['node', 'widgets/build-embed.mjs'],
  },
  {
    name: 'cli',
    config: 'cli/build.mjs',
    output: 'dist/cli/waymark.js',
    sources: ['cli/src', 'shared', 'cli/build.mjs', 'package-lock.json'],
    command: ['node', 'cli/build.mjs'],
  },
  {
    name: 'extension',
    config: 'extension/build.mjs',
    output: 'dist/extension-chromium/manifest.json',
    sources: ['extension', 'shared', 'package-lock.json'],
    command: ['node', 'extension/build.mjs'],
  },
];

let failed = false;
// the API document is generated from the contract on every build (it takes a moment)
spawnSync(process.execPath, ['--import', 'tsx', 'scripts/openapi.ts'], {
  cwd: root,
  stdio: 'inherit',
  env: process.env,
});
for (const t of targets) {
  if (!existsSync(join(root, t.config))) continue;
  const out = join(root, t.output);
  if (
    ifStale &&
    !isStale(
      out,
      t.sources.map((d) => join(root, d)),
    )
  ) {
    console.log(`✓ ${t.name} is up to date`);
    continue;
  }
  const started = Date.now();
  process.stdout.write(`… building ${t.name}\n`);
  const res = spawnSync(t.command[0], t.command.slice(1), { cwd: root, stdio: 'inherit', env: process.env });
  if (res.status !== 0) {
    console.error(`✗ building ${t.name} failed`);
    failed = true;
    break;
  }
  // compressed copies beside the files, which the server sends to browsers that accept them
  if (t.compress) compressFolder(join(root, t.compress));
  console.log(`✓ built ${t.name} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
process.exit(failed ? 1 : 0);
