/**
 * Issue 26's size limits: no source file over 500 lines (demo data and benchmarks aside) and no function
 * over 120 lines (declarations, methods, accessors, arrow functions and function expressions, React
 * components included). Tests and their fixtures and support folders are not counted. The walk reads the
 * syntax tree with the TypeScript compiler, so a function is measured from its first token to its last.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const MAX_FILE_LINES = 500;
const MAX_FUNCTION_LINES = 120;
const ROOTS = ['server', 'shared', 'portal/src', 'widgets', 'cli/src', 'extension/src', 'scripts'];
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', 'test', 'tests', 'fixtures', 'support', 'bench']);
const SKIPPED_PATHS = ['server/demo/'];
const SOURCE = /\.(ts|tsx|mts|cts|js|mjs)$/;
const TEST = /\.(test|spec)\.\w+$|\.d\.m?ts$/;

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.name.startsWith('.') || SKIPPED_PATHS.some((p) => `${path}/`.startsWith(p))) continue;
    if (entry.isDirectory()) {
      if (!SKIPPED_FOLDERS.has(entry.name)) sourceFiles(path, out);
    } else if (SOURCE.test(entry.name) && !TEST.test(entry.name)) out.push(path);
  }
  return out;
}

/** The number of lines a text occupies, as `wc -l` counts them for a file that ends in a newline. */
const lineCount = (text: string) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

/** A function's readable name: its own, its variable's, its property's, or `<anonymous>`. */
function functionName(node: ts.FunctionLikeDeclaration, file: ts.SourceFile): string {
  if (node.name) return node.name.getText(file);
  const parent = node.parent;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) && parent.name) {
    return parent.name.getText(file);
  }
  if (ts.isCallExpression(parent)) {
    return `<callback of ${parent.expression.getText(file).slice(0, 40)}>`;
  }
  return '<anonymous>';
}

function longFunctions(path: string, text: string): string[] {
  const kind = path.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, kind);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (
      ts.isFunctionDeclaration(node) ||
      ts.isMethodDeclaration(node) ||
      ts.isConstructorDeclaration(node) ||
      ts.isGetAccessorDeclaration(node) ||
      ts.isSetAccessorDeclaration(node) ||
      ts.isArrowFunction(node) ||
      ts.isFunctionExpression(node)
    ) {
      const start = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
      const end = file.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = end - start + 1;
      if (lines > MAX_FUNCTION_LINES) {
        found.push(`${path}:${start + 1} function ${functionName(node, file)} has ${lines} lines`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

const files = ROOTS.flatMap((dir) => sourceFiles(dir)).sort();
const texts = new Map(files.map((f) => [f, readFileSync(join(root, f), 'utf8')]));

describe('source sizes (issue 26)', () => {
  it('walks the source folders', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files.some((f) => f.startsWith('server/demo/'))).toBe(false);
    expect(files.some((f) => TEST.test(f))).toBe(false);
  });

  it(`has no source file over ${MAX_FILE_LINES} lines`, () => {
    const long = files
      .map((f) => ({ f, lines: lineCount(texts.get(f)!) }))
      .filter(({ lines }) => lines > MAX_FILE_LINES)
      .map(({ f, lines }) => `${f} has ${lines} lines`);
    expect(long).toEqual([]);
  });

  it(`has no function over ${MAX_FUNCTION_LINES} lines but the known ones, each no longer than it was`, () => {
    // the functions over the limit when the test came (scripts/long-functions.json): a ratchet, to be
    // shortened one by one — a new one fails, one that grows fails, and one made short must leave the list
    const known = JSON.parse(readFileSync(join(root, 'scripts/long-functions.json'), 'utf8')) as Record<
      string,
      number
    >;
    const found = files.flatMap((f) => longFunctions(relative(root, join(root, f)), texts.get(f)!));
    const seen = new Map<string, number>();
    for (const line of found) {
      const [, path, name, lines] = /^(\S+):\d+ function (.+) has (\d+) lines$/.exec(line)!;
      const key = `${path} ${name}`;
      seen.set(key, Math.max(seen.get(key) ?? 0, Number(lines)));
    }
    const problems = [
      ...[...seen]
        .filter(([key, lines]) => !(key in known) || lines > known[key]!)
        .map(([key, lines]) =>
          key in known ? `${key} grew to ${lines} lines (was ${known[key]})` : `${key} has ${lines} lines`,
        ),
      ...Object.keys(known)
        .filter((key) => !seen.has(key))
        .map((key) => `${key} is no longer over the limit: take it out of scripts/long-functions.json`),
    ];
    expect(problems).toEqual([]);
  }, 60_000); // parses every source file: seconds on a loaded machine

  it('measures a function from its first line to its last', () => {
    const lines = (n: number) => Array.from({ length: n }, () => '  x();').join('\n');
    // f spans exactly the limit (its two braces and the body between); g one line more.
    const source = `export const f = () => {\n${lines(MAX_FUNCTION_LINES - 2)}\n};\nfunction g() {\n${lines(MAX_FUNCTION_LINES - 1)}\n}\n`;
    expect(longFunctions('sample.ts', source)).toEqual([
      `sample.ts:${MAX_FUNCTION_LINES + 1} function g has ${MAX_FUNCTION_LINES + 1} lines`,
    ]);
  });
});
