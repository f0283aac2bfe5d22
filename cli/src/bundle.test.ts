/**
 * What each command loads before it can answer, read from the bundle esbuild makes of the CLI (as
 * cli/build.mjs does): a command's module and the chunks it imports statically load at once; the Ink
 * views (Ink, React, yoga) only where a command import()s them to draw at a terminal. `--help`, `whoami`
 * and `reports … --csv` answer in a line or a file, and must not pay for a renderer
 * (docs/PERFORMANCE.md "CLI start-up").
 */
import { fileURLToPath } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
let meta: Metafile;

beforeAll(async () => {
  const result = await build({
    absWorkingDir: root,
    entryPoints: { waymark: 'cli/src/main.ts' },
    outdir: 'dist/cli-test',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    jsx: 'automatic',
    tsconfig: 'tsconfig.json',
    external: ['react-devtools-core'],
    metafile: true,
    write: false,
    logLevel: 'silent',
  });
  meta = result.metafile;
}, 60_000);

/** The source files a module brings in before its own code runs: its chunk and every chunk it imports statically. */
function loadedWith(entry: string): string[] {
  const outputs = Object.entries(meta.outputs);
  const start = outputs.find(([, o]) => o.entryPoint === entry);
  if (!start) throw new Error(`no output for ${entry}`);
  const seen = new Set<string>();
  const inputs = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const out = meta.outputs[file];
    if (!out) return; // node: built-ins and externals
    for (const input of Object.keys(out.inputs)) inputs.add(input);
    for (const i of out.imports) if (i.kind === 'import-statement' && !i.external) visit(i.path);
  };
  visit(start[0]);
  return [...inputs];
}

const renderer = (files: string[]) =>
  files.filter(
    (f) => /node_modules\/(ink|react|react-reconciler|yoga-layout)\//.test(f) || /cli\/src\/ui\//.test(f),
  );

describe('what a command loads', () => {
  it('starts (and prints --help) without the renderer', () => {
    expect(renderer(loadedWith('cli/src/main.ts'))).toEqual([]);
  });

  it.each(['cli/src/commands/whoami.ts', 'cli/src/commands/reports.ts'])(
    '%s loads the renderer only when it draws',
    (command) => {
      expect(renderer(loadedWith(command))).toEqual([]);
    },
  );

  it('a command that draws still finds its views', () => {
    const views = Object.values(meta.outputs).filter((o) => o.entryPoint === 'cli/src/ui/TableView.tsx');
    expect(views).toHaveLength(1);
  });
});
