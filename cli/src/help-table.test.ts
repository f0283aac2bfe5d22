/**
 * The help the build writes for cli/bin/waymark.mjs to print without loading the program: for every
 * command, the same text (and exit code) `waymark <command> --help` gives when the program runs, at the
 * widths the table claims, and no claim for a width it does not hold.
 */
import { PassThrough } from 'node:stream';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
// @ts-expect-error -- a plain ES module beside the executable, without types of its own
import { helpFor } from '../bin/help.mjs';
import type { Io } from './core/context';
import { commandPaths, type HelpTable, helpAt, helpTable } from './help-table';
import { main } from './main';

let table: HelpTable;
beforeAll(async () => {
  table = await helpTable();
}, 60_000);

/** `waymark … --help` through main, output not a terminal (commander's width 80). */
async function run(args: string[]) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  stdout.on('data', (c: Buffer) => (out += c.toString()));
  const code = await main(['node', 'waymark', ...args], {
    io: { stdin: new PassThrough(), stdout, stderr } as unknown as Io,
    env: {},
  });
  return { code, out };
}

describe('the help table', () => {
  it('holds every command, the program itself included', () => {
    const paths = commandPaths().map((p) => p.join(' '));
    expect(Object.keys(table).sort()).toEqual([...paths].sort());
    expect(paths).toEqual(expect.arrayContaining(['', 'seats add', 'questions import', 'awards verify']));
  });

  it.each(commandPaths().map((p) => [p.join(' ') || '(waymark)', p] as const))(
    '%s: the text the program prints, at 80 columns and from its width up',
    async (_, path) => {
      const entry = table[path.join(' ')]!;
      for (const flag of ['--help', '-h']) {
        const ran = await run([...path, flag]);
        expect(ran.code).toBe(0);
        expect(helpFor(table, [...path, flag], 80)).toBe(ran.out);
      }
      expect(entry.narrow).toContain('Usage: waymark');
      for (const width of [entry.wideFrom, entry.wideFrom + 1, 300])
        expect(helpFor(table, [...path, '--help'], width)).toBe(await helpAt(path, width));
      // narrower than that the text wraps differently: the program prints it
      expect(await helpAt(path, entry.wideFrom - 1)).not.toBe(entry.wide);
      expect(helpFor(table, [...path, '--help'], entry.wideFrom - 1)).toBeNull();
    },
  );

  // the table is written when the package is built and printed for as long as it is installed: a help text
  // that depends on the time it is made would be printed stale (an example start time long past)
  describe('is the same whenever it is made', () => {
    afterEach(() => vi.useRealTimers());
    it.each(commandPaths().map((p) => [p.join(' ') || '(waymark)', p] as const))('%s', async (_, path) => {
      vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-01-01T00:00:00Z') });
      const then = await helpAt(path, 80);
      vi.setSystemTime(new Date('2031-07-15T13:07:00Z'));
      expect(await helpAt(path, 80)).toBe(then);
    });
  });

  it('answers only a command path followed by the help flag', () => {
    expect(helpFor(table, ['seats', 'add'], 80)).toBeNull();
    expect(helpFor(table, ['seats', 'nosuch', '--help'], 80)).toBeNull();
    expect(helpFor(table, ['--json', '--help'], 80)).toBeNull();
    expect(helpFor(table, ['constructor', '--help'], 80)).toBeNull();
    expect(helpFor(table, ['help'], 80)).toBeNull();
  });
});
