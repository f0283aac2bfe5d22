#!/usr/bin/env node
/**
 * The `waymark` executable. It runs the compiled CLI (dist/cli, built by `node cli/build.mjs`, which `npm run
 * build` and `npm start` do): one bundled module, the terminal views loaded only by commands that draw.
 * Without a build (a fresh checkout in development) it runs the TypeScript sources through tsx's loader,
 * registered with the repository's tsconfig.json so the @shared/* aliases resolve from any folder.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';

// Node's fetch parses HTTP with llhttp compiled to WebAssembly. V8 compiles it twice: at once with its
// baseline compiler (Liftoff), then again in the background with its optimising one (TurboFan), and a
// process cannot end before background compilation is done: `waymark whoami` waited 300-500 ms after
// printing and peaked 30 MB higher for it (docs/PERFORMANCE.md "CLI start-up"). The baseline code parses
// a response in microseconds, which is all a command needs; must run before the first fetch compiles it.
setFlagsFromString('--liftoff-only');

const built = fileURLToPath(new URL('../../dist/cli/waymark.js', import.meta.url));
const fromBuild = existsSync(built) && !process.env.WAYMARK_FROM_SOURCE;

/**
 * `waymark [command…] --help` from the help the build wrote (cli/src/help-table.ts): the same text
 * commander prints, without loading the program. Anything else, or a width the table does not hold, runs
 * the program.
 */
async function printedHelp() {
  const flag = process.argv.at(-1);
  if (!fromBuild || (flag !== '--help' && flag !== '-h')) return false;
  let table;
  try {
    table = JSON.parse(readFileSync(new URL('../../dist/cli/help.json', import.meta.url), 'utf8'));
  } catch {
    return false;
  }
  const { helpFor } = await import('./help.mjs');
  const width = (process.stdout.isTTY ? process.stdout.columns : undefined) ?? 80;
  const text = helpFor(table, process.argv.slice(2), width);
  if (text === null) return false;
  process.stdout.write(text);
  return true;
}

let main;
if (await printedHelp()) {
  main = async () => 0;
} else if (fromBuild) {
  ({ main } = await import(built));
} else {
  const { register } = await import('tsx/esm/api');
  register({ tsconfig: fileURLToPath(new URL('../../tsconfig.json', import.meta.url)) });
  ({ main } = await import('../src/main.ts'));
}
process.exitCode = await main(process.argv);
