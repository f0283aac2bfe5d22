/**
 * The portal's boundaries (portal/README.md), over the import graph: every import of every file under
 * portal/src — static, dynamic, side-effect (CSS) and vi.mock — resolved to the file it names.
 * - a feature imports no other feature: what two features share lives in components/ (pieces of UI) or
 *   lib/ (app-level helpers);
 * - the app (app/: route table, guard) composes the features; nothing below it imports app/;
 * - components/, lib/ and layout/ import no feature.
 * Biome's noRestrictedImports matches import specifiers as written, not the files they resolve to, so it
 * cannot tell `../ui` inside a feature from `../learner/x` across two; this test can.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = dirname(fileURLToPath(import.meta.url));
const portal = resolve(src, '..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return sources(p);
    return /\.(ts|tsx)$/.test(name) ? [p] : [];
  });
}

const SPECIFIER = /(?:\bfrom|\bimport|\bvi\.(?:do)?[mM]ock)\s*\(?\s*['"]([^'"]+)['"]/g;

/** The file a specifier names, or null for a package or another top folder (widgets, shared). */
function target(file: string, spec: string): string | null {
  let base: string;
  if (spec.startsWith('.')) base = resolve(dirname(file), spec);
  else if (spec.startsWith('@portal/')) base = resolve(portal, spec.slice('@portal/'.length));
  else return null;
  for (const ext of ['', '.ts', '.tsx', '/index.ts', '/index.tsx']) {
    if (existsSync(base + ext) && statSync(base + ext).isFile()) return base + ext;
  }
  return base;
}

/** `features/<name>`, `app`, `components`, `lib`, `layout` or `main` for a file under portal/src. */
function area(file: string): string {
  const [top, name] = relative(src, file).split('/');
  return top === 'features' ? `features/${name}` : top!.replace(/\.tsx?$/, '');
}

const edges = sources(src).flatMap((file) =>
  [...readFileSync(file, 'utf8').matchAll(SPECIFIER)].flatMap((m) => {
    const to = target(file, m[1]!);
    return to?.startsWith(`${src}/`) ? [{ from: file, to, spec: m[1]! }] : [];
  }),
);
const shown = (e: (typeof edges)[number]) => `${relative(src, e.from)} imports ${e.spec}`;

describe('portal boundaries', () => {
  it('sees the imports (the graph is not empty)', () => {
    expect(edges.length).toBeGreaterThan(100);
    expect(edges.some((e) => area(e.from) === 'app' && area(e.to).startsWith('features/'))).toBe(true);
  });

  it('no feature imports another feature', () => {
    const crossing = edges.filter(
      (e) =>
        area(e.from).startsWith('features/') &&
        area(e.to).startsWith('features/') &&
        area(e.from) !== area(e.to),
    );
    expect(crossing.map(shown)).toEqual([]);
  });

  it('only the app (and the entry) import app/', () => {
    const up = edges.filter((e) => area(e.to) === 'app' && !['app', 'main'].includes(area(e.from)));
    expect(up.map(shown)).toEqual([]);
  });

  it('components/, lib/ and layout/ import no feature', () => {
    const down = edges.filter(
      (e) => ['components', 'lib', 'layout'].includes(area(e.from)) && area(e.to).startsWith('features/'),
    );
    expect(down.map(shown)).toEqual([]);
  });
});
