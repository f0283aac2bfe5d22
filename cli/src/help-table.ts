/**
 * `waymark … --help` written at build time. Help is the one answer the CLI gives that depends on nothing
 * but the program itself and the terminal's width, and loading the program to print it (commander, every
 * command's definition, Node's modules they need) was most of `--help`'s start-up: ~75 ms over a bare
 * `node` on this machine against a 150 ms target (docs/PERFORMANCE.md "CLI start-up"). cli/build.mjs calls
 * helpTable() on the built bundle and writes the table beside it; cli/bin/waymark.mjs prints from it when
 * the command line is a command path followed by `--help` or `-h` and the width is one the table holds, and
 * runs the program otherwise. The texts are commander's own output, captured by running the real program.
 */
import { PassThrough } from 'node:stream';
import type { Command } from 'commander';
import type { Io } from './core/context';
import type { Http } from './core/http';
import type { SessionStore } from './core/session';
import { createProgram } from './program';

/** One command path's help (the root's path is ''). */
export interface HelpEntry {
  /** At commander's default width of 80: output that is not a terminal, or an 80-column one. */
  narrow: string;
  /** Unwrapped: what every terminal at least `wideFrom` columns wide is shown. */
  wide: string;
  wideFrom: number;
}

export type HelpTable = Record<string, HelpEntry>;

/** Widths above this are treated as "unwrapped" (no help line of ours comes near it). */
const UNWRAPPED = 1000;

/** What `waymark <path> --help` writes on standard output at a terminal of `width` columns (80 when not one). */
export async function helpAt(path: readonly string[], width: number): Promise<string> {
  const stdout = new PassThrough();
  let text = '';
  stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const program = programWriting(stdout);
  setWidth(program, width);
  try {
    await program.parseAsync([...path, '--help'], { from: 'user' });
  } catch (err) {
    if ((err as { code?: unknown }).code !== 'commander.helpDisplayed') throw err;
  }
  return text;
}

/** The program, writing its standard output to `stdout`; help runs no command, so no session or HTTP. */
function programWriting(stdout: PassThrough): Command {
  return createProgram({
    io: { stdin: new PassThrough(), stdout, stderr: new PassThrough() } as unknown as Io,
    env: {},
    sessions: null as unknown as SessionStore,
    http: null as unknown as Http,
    controller: new AbortController(),
  });
}

function setWidth(command: Command, width: number) {
  command.configureOutput({ getOutHelpWidth: () => width });
  for (const sub of command.commands) setWidth(sub, width);
}

/** Every command path of the program: '', 'seats', 'seats add', … */
export function commandPaths(): string[][] {
  const program = programWriting(new PassThrough());
  const paths: string[][] = [];
  const visit = (command: Command, path: string[]) => {
    paths.push(path);
    for (const sub of command.commands) visit(sub, [...path, sub.name()]);
  };
  visit(program, []);
  return paths;
}

export async function helpTable(): Promise<HelpTable> {
  const table: HelpTable = {};
  for (const path of commandPaths()) {
    const wide = await helpAt(path, UNWRAPPED);
    // wrapping only shortens lines longer than the width, so the unwrapped text holds from some width up:
    // find the narrowest (a binary search between 80 and the longest line)
    const narrow = await helpAt(path, 80);
    let low = 80;
    let high = Math.max(80, ...wide.split('\n').map((line) => line.length));
    if (narrow === wide) high = low;
    while (high - low > 1) {
      const mid = (low + high) >> 1;
      if ((await helpAt(path, mid)) === wide) high = mid;
      else low = mid;
    }
    table[path.join(' ')] = { narrow, wide, wideFrom: high };
  }
  return table;
}
