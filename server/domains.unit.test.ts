/**
 * Server domains import one way (issue 14, decision 018): the import graph between the domain folders of
 * server/ (`tenant`, `billing`, `assessments`, …) has no cycle. A domain may use another's tables and
 * functions only when that other domain never reaches back, directly or through a third one.
 *
 * The graph is built from every source file that is not a test (`*.test.ts` may arrange data across
 * domains), from the same import list TypeScript reads (`ts.preProcessFile`: static, type-only, dynamic
 * imports and re-exports). The layers around the domains are not nodes: `db`, `http`, `adapters`,
 * `jobs`, `lib` and `test` sit under them (any domain uses them), `demo` above them (demo data seeded into the
 * domains' tables), and the files at server/'s root assemble the app.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SERVER = dirname(fileURLToPath(import.meta.url));
const NOT_DOMAINS = new Set(['db', 'http', 'adapters', 'jobs', 'lib', 'test', 'demo', 'integrations/core']);
/**
 * Folders whose subfolders are nodes of their own: each integration (`integrations/lti`, `integrations/scim`,
 * …) calls the domains it speaks for, and `integrations/core` — the principal, the audit and event writers,
 * sealed secrets, outside identities — sits under every domain (decision 039), importing none.
 */
const GROUPS = new Set(['integrations']);
const SOURCE = /\.(ts|tsx|mts|mjs|js)$/;
/** Test support beside the code (to be gathered in server/test): arranges data across domains, like tests. */
const TEST_SUPPORT = /^(fixtures|harness|test-helpers|test-keys)\.ts$|\.fixture\.ts$/;

/**
 * Cycles still to be taken apart, each with what keeps it (issue 14): none is left (the last,
 * assessments ⇄ catalogue ⇄ questions, went with the catalogue's `RoadmapTests`). The check fails on any
 * other cycle, and on a listed one once it is gone, so the list only shrinks.
 */
const KNOWN_CYCLES: { domains: string[]; why: string }[] = [];

type Edge = { from: string; to: string; file: string; specifier: string };

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
    const isTest = /\.test\.tsx?$/.test(entry.name) || TEST_SUPPORT.test(entry.name);
    return SOURCE.test(entry.name) && !isTest ? [path] : [];
  });
}

/** The server folder a path lies in, or null for server/'s root files and paths outside server/. */
function folderOf(path: string): string | null {
  const parts = relative(SERVER, path).split(sep);
  if (parts.length > 2 && GROUPS.has(parts[0]!)) return `${parts[0]}/${parts[1]}`;
  return parts.length > 1 && parts[0] !== '..' ? parts[0]! : null;
}

/** Every import of one server folder into another, with the file and the specifier that makes it. */
function folderImports(server = SERVER): Edge[] {
  const edges: Edge[] = [];
  for (const file of sourceFiles(server)) {
    const from = folderOf(file);
    if (!from) continue;
    for (const { fileName } of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
      const target = fileName.startsWith('.')
        ? resolve(dirname(file), fileName)
        : fileName.startsWith('@server/')
          ? join(server, fileName.slice('@server/'.length))
          : null;
      const to = target && folderOf(target);
      if (to && to !== from) edges.push({ from, to, file: relative(server, file), specifier: fileName });
    }
  }
  return edges;
}

/** The groups of nodes that reach each other (Tarjan's strongly connected components of size > 1). */
function cycles(edges: readonly { from: string; to: string }[]): string[][] {
  const next = new Map<string, Set<string>>();
  for (const { from, to } of edges) {
    if (!next.has(from)) next.set(from, new Set());
    if (!next.has(to)) next.set(to, new Set());
    next.get(from)!.add(to);
  }
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const to of next.get(node)!) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node)!, index.get(to)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      if (group.length > 1) found.push(group.sort());
    }
  };
  for (const node of [...next.keys()].sort()) if (!index.has(node)) visit(node);
  return found;
}

describe('server domains import one way', () => {
  it('finds a cycle when there is one (the check can fail)', () => {
    expect(
      cycles([
        { from: 'tenant', to: 'billing' },
        { from: 'billing', to: 'tenant' },
        { from: 'billing', to: 'activity' },
      ]),
    ).toEqual([['billing', 'tenant']]);
    expect(
      cycles([
        { from: 'a', to: 'b' },
        { from: 'b', to: 'c' },
        { from: 'c', to: 'a' },
        { from: 'c', to: 'd' },
      ]),
    ).toEqual([['a', 'b', 'c']]);
    expect(cycles([{ from: 'billing', to: 'tenant' }])).toEqual([]);
  });

  it('reads the real import graph (tenant imports activity, the core imports nothing of a domain it serves)', () => {
    const edges = folderImports();
    expect(edges.some((e) => e.from === 'tenant' && e.to === 'activity')).toBe(true);
    expect(edges.some((e) => e.from === 'assessments' && e.to === 'db')).toBe(true);
  });

  it('keeps the integrations core under the domains: it imports none of them', () => {
    const edges = folderImports();
    expect(edges.some((e) => e.from === 'tenant' && e.to === 'integrations/core')).toBe(true);
    const up = edges.filter((e) => e.from === 'integrations/core' && !NOT_DOMAINS.has(e.to));
    expect(up.map((e) => `${e.file} imports '${e.specifier}'`)).toEqual([]);
  });

  it('has no cycle between the domain folders of server/ (but the known ones, while they last)', () => {
    const edges = folderImports().filter((e) => !NOT_DOMAINS.has(e.from) && !NOT_DOMAINS.has(e.to));
    const found = cycles(edges);
    const key = (group: string[]) => group.join(' ⇄ ');
    const known = new Set(KNOWN_CYCLES.map((c) => key(c.domains)));
    const fresh = found
      .filter((group) => !known.has(key(group)))
      .map((group) => {
        const inside = edges.filter((e) => group.includes(e.from) && group.includes(e.to));
        return `${key(group)}:\n${inside.map((e) => `  ${e.file} imports '${e.specifier}'`).join('\n')}`;
      });
    expect(fresh, `domains importing each other in a cycle:\n${fresh.join('\n')}`).toEqual([]);
    const gone = [...known].filter((k) => !found.some((group) => key(group) === k));
    expect(gone, 'a known cycle is gone or changed: update KNOWN_CYCLES').toEqual([]);
  });
});
