/**
 * What the catalogue tools read of the code: the files a module reaches through its imports (an element's
 * whole graph, from its entry), and the message keys a file names — every string literal that is a key
 * of the catalogue (keys are always written whole, never put together, so this finds them all).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const MESSAGES_DIR = join(ROOT, 'shared/i18n/messages');

/** The pseudo-locale's tag (shared/i18n/locales.ts's PSEUDO_LOCALE; a test keeps the two the same). */
export const PSEUDO_LOCALE = 'en-XA';

/** The catalogues' languages, English first: one file each in shared/i18n/messages/. */
export function catalogueLocales() {
  const found = readdirSync(MESSAGES_DIR)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -5));
  return ['en', ...found.filter((l) => l !== 'en').sort()];
}

/** A catalogue of shared/i18n/messages/. */
export function readCatalogue(locale) {
  return JSON.parse(readFileSync(join(MESSAGES_DIR, `${locale}.json`), 'utf8'));
}

const ALIASES = {
  '@shared/': join(ROOT, 'shared/'),
  '@widgets/': join(ROOT, 'widgets/'),
  '@portal/': join(ROOT, 'portal/'),
  '@server/': join(ROOT, 'server/'),
  '@extension/': join(ROOT, 'extension/'),
};
const EXTENSIONS = ['', '.ts', '.tsx', '.mts', '.mjs', '.js', '/index.ts', '/index.tsx'];

/** A module specifier of ours as a file, or null (a package, a CSS or asset import, a virtual module). */
export function resolveImport(specifier, importer) {
  const bare = specifier.split('?')[0];
  if (specifier.includes('?') || /\.(css|svg|png|jpe?g|json)$/.test(bare)) return null;
  let base = null;
  if (bare.startsWith('.')) base = resolve(dirname(importer), bare);
  else {
    const alias = Object.keys(ALIASES).find((a) => bare.startsWith(a));
    if (alias) base = join(ALIASES[alias], bare.slice(alias.length));
  }
  if (!base) return null;
  for (const ext of EXTENSIONS) {
    const file = base + ext;
    if (existsSync(file) && statSync(file).isFile()) return file;
  }
  return null;
}

const IMPORT =
  /\b(?:import|export)\s+(?:type\s+)?[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)|\bimport\s+['"]([^'"]+)['"]/g;

/** Every file of ours `entry` reaches by its static and dynamic imports, itself included. */
export function moduleGraph(entry) {
  const seen = new Set();
  const walk = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = readFileSync(file, 'utf8');
    for (const m of code.matchAll(IMPORT)) {
      const next = resolveImport(m[1] ?? m[2] ?? m[3], file);
      if (next) walk(next);
    }
  };
  walk(resolve(entry));
  return [...seen];
}

/** The catalogue keys among the string literals of `code` (parsed as TypeScript with JSX, `file` its name). */
export function keysIn(code, keys, file = 'code.tsx') {
  const found = new Set();
  const kind = /\.tsx$/.test(file)
    ? ts.ScriptKind.TSX
    : /\.m?js$/.test(file)
      ? ts.ScriptKind.JS
      : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, code, ts.ScriptTarget.Latest, false, kind);
  const visit = (node) => {
    if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && keys.has(node.text))
      found.add(node.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The catalogue keys the files name. */
export function keysOfFiles(files, keys) {
  const found = new Set();
  for (const f of files) for (const k of keysIn(readFileSync(f, 'utf8'), keys, f)) found.add(k);
  return found;
}
