/**
 * docs/ARCHITECTURE.md says what is true of the code today: every file or folder it names in backticks
 * exists, and every function or value it names in backticks (a camelCase identifier) is still a name in
 * the code. A rename or a move that forgets the document fails here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const TOP = [
  'server',
  'shared',
  'portal',
  'widgets',
  'cli',
  'extension',
  'tests',
  'bench',
  'scripts',
  'docs',
  'patches',
];
const SOURCE = /\.(ts|tsx|mts|mjs|js|json|css)$/;

function walk(dir: string, out: string[]) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      out.push(`${relative(root, path)}/`);
      walk(path, out);
    } else out.push(relative(root, path));
  }
  return out;
}

const files = TOP.flatMap((top) => walk(join(root, top), [`${top}/`]));
const fileSet = new Set(files);
const code = files
  .filter((f) => SOURCE.test(f) && !f.startsWith('docs/'))
  .map((f) => readFileSync(join(root, f), 'utf8'))
  .join('\n');

const doc = readFileSync(join(root, 'docs/ARCHITECTURE.md'), 'utf8');
const cited = [...new Set([...doc.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!))];

/** A repository path: a top folder's file or folder, or a fragment of one (`engine/answers.ts`). */
const pathLike = (t: string) =>
  /^[\w.-]+(\/[\w.+-]+)*\/?$/.test(t) && t.includes('/') && (/\.\w+$/.test(t) || t.endsWith('/'));
const exists = (t: string) =>
  fileSet.has(t) || files.some((f) => f.endsWith(`/${t}`)) || (t.endsWith('/') && fileSet.has(t));
const NOT_OURS = /^(dist|node_modules|data|\.tmp|\.\.)\/|^[A-Z_]+\//;

describe('docs/ARCHITECTURE.md', () => {
  it('names only files and folders that exist', () => {
    const missing = cited.filter((t) => pathLike(t) && !NOT_OURS.test(t) && !exists(t));
    expect(missing).toEqual([]);
  });

  it('names only functions and values the code still has', () => {
    const identifiers = cited
      .map((t) => t.replace(/\(\)$/, ''))
      .filter((t) => /^[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*$/.test(t));
    const gone = identifiers.filter((name) => !new RegExp(`\\b${name}\\b`).test(code));
    expect(gone).toEqual([]);
  });
});

describe('docs/decisions/README.md', () => {
  const index = readFileSync(join(root, 'docs/decisions/README.md'), 'utf8');
  const records = readdirSync(join(root, 'docs/decisions')).filter((f) => /^\d{3}-.+\.md$/.test(f));

  it('lists every decision record; a record amended or superseded says by which in the index too', () => {
    const problems = records
      .filter((f) => !f.startsWith('000-'))
      .flatMap((f) => {
        const status = /^- Status: (.+)$/m.exec(readFileSync(join(root, 'docs/decisions', f), 'utf8'))?.[1];
        const row = index.split('\n').find((line) => line.includes(`](${f})`));
        if (!row) return [`${f}: no row in the index`];
        const later = [...(status ?? '').matchAll(/(amended|superseded) by (\d{3})/g)].map((m) => m[0]);
        const cell = row.split('|')[3] ?? '';
        return later.filter((by) => !cell.includes(by)).map((by) => `${f}: the index does not say "${by}"`);
      });
    expect(problems).toEqual([]);
  });
});
