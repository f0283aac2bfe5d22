#!/usr/bin/env node
/**
 * Builds the shipped `waymark`: one ES module bundle of the CLI and what it imports (commander, undici, zod,
 * shared/), compiled by esbuild, with the Ink views in chunks of their own that only commands drawing at a
 * terminal load. `cli/bin/waymark.mjs` runs it; without a build it falls back to the TypeScript sources
 * through tsx (development).
 *   node cli/build.mjs            → dist/cli/
 */
import { rmSync } from 'node:fs';
import { build } from 'esbuild';

const root = new URL('..', import.meta.url).pathname;
const outdir = `${root}dist/cli`;
rmSync(outdir, { recursive: true, force: true });
const result = await build({
  absWorkingDir: root,
  entryPoints: { waymark: 'cli/src/main.ts' },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minify: true,
  sourcemap: 'linked',
  metafile: true,
  jsx: 'automatic',
  tsconfig: 'tsconfig.json',
  define: { 'process.env.NODE_ENV': '"production"', 'process.env.DEV': 'undefined' },
  // packages that load optional native or dev-only modules at run time stay out of the bundle
  external: ['react-devtools-core'],
  banner: {
    // CommonJS packages in an ES module bundle still call require()
    js: "import { createRequire as __wmRequire } from 'node:module'; const require = __wmRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
const bytes = Object.values(result.metafile.outputs).reduce((n, o) => n + o.bytes, 0);
console.log(
  `✓ dist/cli: ${Object.keys(result.metafile.outputs).filter((f) => f.endsWith('.js')).length} files, ${(bytes / 1024).toFixed(0)} KiB`,
);
