#!/usr/bin/env node
/**
 * Builds the shipped `waymark`: one ES module bundle of the CLI and what it imports (commander, undici, zod,
 * shared/), compiled by esbuild, with the Ink views in chunks of their own that only commands drawing at a
 * terminal load. `cli/bin/waymark.mjs` runs it; without a build it falls back to the TypeScript sources
 * through tsx (development).
 *   node cli/build.mjs            → dist/cli/
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = new URL('..', import.meta.url).pathname;
const outdir = `${root}dist/cli`;
rmSync(outdir, { recursive: true, force: true });

/** The fields of a call's declaration that are zod schemas: the client sends and reads JSON without them. */
const SCHEMA_FIELDS = new Set(['params', 'query', 'body', 'responses']);

/**
 * `@shared/contract/<module>` as the CLI bundles it: each call's declaration without its zod schemas
 * (method, path, access, …). The API client reads only the method, path and access of a call; the schemas
 * are for the server, the OpenAPI document and the types, and evaluating them (with zod itself) was most of
 * `waymark whoami`'s start-up. The declarations come from the contract itself, evaluated here at build
 * time, so they cannot drift; lists of names (the events' types) pass as they are, and a CLI import of
 * anything else from a contract module fails the build.
 */
const contractRoutes = {
  name: 'contract-routes',
  setup(b) {
    b.onResolve({ filter: /^@shared\/contract\/[a-z-]+$/ }, (args) =>
      args.path === '@shared/contract/define' ? undefined : { path: args.path, namespace: 'contract-routes' },
    );
    b.onLoad({ filter: /.*/, namespace: 'contract-routes' }, async (args) => {
      const name = args.path.slice('@shared/contract/'.length);
      const dir = mkdtempSync(`${root}node_modules/.cache-waymark-contract-`);
      try {
        await build({
          absWorkingDir: root,
          entryPoints: [`shared/contract/${name}.ts`],
          outfile: `${dir}/${name}.mjs`,
          bundle: true,
          format: 'esm',
          platform: 'node',
          packages: 'external',
          tsconfig: 'tsconfig.json',
          logLevel: 'warning',
        });
        const module = await import(pathToFileURL(`${dir}/${name}.mjs`).href);
        const lines = [];
        for (const [exported, value] of Object.entries(module)) {
          // a list of names (the events' types) is data the CLI may use as it is
          if (Array.isArray(value) && value.every((v) => typeof v === 'string')) {
            lines.push(`export const ${exported} = ${JSON.stringify(value)};`);
            continue;
          }
          if (
            !value ||
            typeof value !== 'object' ||
            typeof value.method !== 'string' ||
            typeof value.path !== 'string'
          )
            continue;
          const route = Object.fromEntries(Object.entries(value).filter(([k]) => !SCHEMA_FIELDS.has(k)));
          lines.push(`export const ${exported} = ${JSON.stringify(route)};`);
        }
        return { contents: lines.join('\n'), loader: 'js', resolveDir: root };
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  },
};
/**
 * commander loads `node:child_process` when it is loaded, for subcommands run as executables of their own,
 * which `waymark` has none of: ~10 ms of every start, `--help` included. Here it is required on its first
 * use instead (its only use is `childProcess.spawn`); the build fails if commander no longer has that line.
 */
const CHILD_PROCESS_AT_LOAD = "const childProcess = require('node:child_process');";
const lazyChildProcess = {
  name: 'lazy-child-process',
  setup(b) {
    b.onLoad({ filter: /commander[\\/]lib[\\/]command\.js$/ }, async (args) => {
      const source = readFileSync(args.path, 'utf8');
      if (!source.includes(CHILD_PROCESS_AT_LOAD))
        throw new Error(`commander changed: ${args.path} no longer loads child_process as expected`);
      const lazy =
        "let loadedChildProcess; const childProcess = { spawn: (...a) => (loadedChildProcess ??= require('node:child_process')).spawn(...a) };";
      return { contents: source.replace(CHILD_PROCESS_AT_LOAD, lazy), loader: 'js' };
    });
  },
};

const result = await build({
  absWorkingDir: root,
  // help-table: run once below to write help.json, then removed (it is not part of what ships)
  entryPoints: { waymark: 'cli/src/main.ts', 'help-table': 'cli/src/help-table.ts' },
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
  plugins: [contractRoutes, lazyChildProcess],
  logLevel: 'warning',
  // an import the contract's routes do not export would be undefined at run time: a build error instead
  logOverride: { 'import-is-undefined': 'error' },
});
// `waymark … --help` as text, which cli/bin/waymark.mjs prints without loading the program
// (cli/src/help-table.ts); made by the bundle just built, so it is the shipped program's own help
const { helpTable } = await import(pathToFileURL(`${outdir}/help-table.js`).href);
writeFileSync(`${outdir}/help.json`, JSON.stringify(await helpTable()));
rmSync(`${outdir}/help-table.js`);
rmSync(`${outdir}/help-table.js.map`, { force: true });

const bytes = Object.values(result.metafile.outputs).reduce((n, o) => n + o.bytes, 0);
console.log(
  `✓ dist/cli: ${Object.keys(result.metafile.outputs).filter((f) => f.endsWith('.js')).length} files, ${(bytes / 1024).toFixed(0)} KiB`,
);
