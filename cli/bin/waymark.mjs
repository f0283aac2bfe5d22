#!/usr/bin/env node
/**
 * The `waymark` executable. It runs the compiled CLI (dist/cli, built by `node cli/build.mjs`, which `npm run
 * build` and `npm start` do): one bundled module, the terminal views loaded only by commands that draw.
 * Without a build (a fresh checkout in development) it runs the TypeScript sources through tsx's loader,
 * registered with the repository's tsconfig.json so the @shared/* aliases resolve from any folder.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const built = fileURLToPath(new URL('../../dist/cli/waymark.js', import.meta.url));
let main;
if (existsSync(built) && !process.env.WAYMARK_FROM_SOURCE) {
  ({ main } = await import(built));
} else {
  const { register } = await import('tsx/esm/api');
  register({ tsconfig: fileURLToPath(new URL('../../tsconfig.json', import.meta.url)) });
  ({ main } = await import('../src/main.ts'));
}
process.exitCode = await main(process.argv);
