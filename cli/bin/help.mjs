/**
 * Which help text the build wrote (dist/cli/help.json, cli/src/help-table.ts) answers a command line, or
 * null when the program must run: the arguments are a command path followed by `--help` or `-h`, and the
 * width (the terminal's, 80 when the output is not one, as commander takes it) is one the table holds.
 * @param {Record<string, { narrow: string, wide: string, wideFrom: number }>} table
 * @param {readonly string[]} args the arguments after `waymark`
 * @param {number} width
 * @returns {string | null}
 */
export function helpFor(table, args, width) {
  const flag = args.at(-1);
  if (flag !== '--help' && flag !== '-h') return null;
  const path = args.slice(0, -1).join(' ');
  const entry = Object.hasOwn(table, path) ? table[path] : null;
  if (!entry) return null;
  if (width === 80) return entry.narrow;
  return width >= entry.wideFrom ? entry.wide : null;
}
