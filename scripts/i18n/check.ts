/**
 * No string left behind (issue 31; decision 040). Fails — exit code 1, and `check.unit.test.ts` in CI —
 * on any of:
 * - a catalogue that is not valid ICU MessageFormat, or a Spanish or Arabic catalogue without one of
 *   English's keys (a missing translation) or with a key English lacks (these in catalogues.ts);
 * - a translation that drops or adds an argument (`{name}`, a plural's or select's argument) or a tag of
 *   rich text (`<0>…</0>`), a plural without the categories its language needs (Arabic: all six), a
 *   select without English's cases;
 * - a message key used in code that no catalogue has (`t('…')`, `<Rich k="…">`, `messageKey('…')`), or
 *   put together from pieces instead of written whole;
 * - a catalogue key no code names;
 * - text in JSX, or in an attribute people read (aria-label, title, placeholder, alt, and the components'
 *   label/heading/text props), or in the extension's popup.html, that does not come from the catalogue.
 *   Files not converted yet sit in allowlist.json, which may only shrink: a file listed there that has no
 *   such text any more is a failure too, until it is taken off the list;
 * - a style sheet that says left or right where the layout must mirror in Arabic (physicalCss).
 *
 *   npx tsx scripts/i18n/check.ts
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { chromeName } from '../../shared/i18n/extension-messages.mjs';
import { LOCALES } from '../../shared/i18n/locales';
import { type Catalogues, checkCatalogues } from './catalogues';
import { keysIn, ROOT, readCatalogue } from './sources.mjs';

export interface Problem {
  kind: string;
  message: string;
  file?: string;
  line?: number;
}

// ---- the code

/** The folders whose code may use messages (tests, fixtures and the CLI, which stays English, aside). */
const CODE_ROOTS = ['portal/src', 'widgets', 'extension', 'server', 'shared'];
const SKIP_DIR = new Set(['node_modules', 'dist', 'fixtures']);
/** Folders of code no person reads the words of: the server's test harness, demo content, migrations. */
const SKIP_PATHS = new Set(['server/test', 'server/demo', 'server/db/migrations', 'widgets/package']);
const isTest = (f: string) => /\.(unit\.)?test\.tsx?$|\.fixture\.ts$|\.d\.ts$|\.d\.mts$/.test(f);

function walk(dir: string, out: string[] = [], root = ROOT): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIP_DIR.has(entry.name) && !SKIP_PATHS.has(relative(root, path))) walk(path, out, root);
    } else if (/\.(tsx?|mjs|html)$/.test(entry.name) && !isTest(entry.name)) out.push(path);
  }
  return out;
}

/** Every style sheet of the portal, the elements and the extension. */
export function cssFiles(root = ROOT): string[] {
  const out: string[] = [];
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.') || SKIP_DIR.has(entry.name)) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) visit(path);
      else if (entry.name.endsWith('.css')) out.push(relative(root, path));
    }
  };
  for (const r of ['portal/src', 'widgets', 'extension']) visit(join(root, r));
  return out.sort();
}

/** Every file of code that may name a message key, as a path from the repository's root. */
export function codeFiles(root = ROOT): string[] {
  return CODE_ROOTS.flatMap((r) => walk(join(root, r), [], root)).map((f) => relative(root, f));
}

/** Words that are the same in every language: names of products and formats. */
const UNTRANSLATED =
  /^(Waymark|LinkedIn|Google|Microsoft|GitHub|YouTube|WhatsApp|JSON|CSV|NDJSON|PNG|JPEG|PDF|QTI|GIFT|Aiken|Moodle|Open Badges|did:\w+|https?:\/\/\S+)$/;

const LETTER = /\p{L}/u;
/** Whether a piece of text has a word to translate (not only names of products, numbers and signs). */
const hasText = (s: string) =>
  s
    .replace(/&(#\d+|#x[\da-f]+|\w+);/gi, ' ')
    .replace(/\bOpen Badges\b/g, ' ')
    .split(/\s+/)
    .some((word) => LETTER.test(word) && !UNTRANSLATED.test(word.replace(/^[^\p{L}]+|[^\p{L}\d]+$/gu, '')));

/** The attributes and props whose value people read. */
export const TEXT_ATTRIBUTES = new Set([
  'aria-label',
  'aria-description',
  'aria-roledescription',
  'aria-valuetext',
  'aria-placeholder',
  'title',
  'placeholder',
  'alt',
  'label',
  'text',
  'heading',
  'description',
  'hint',
  'caption',
  'confirmLabel',
  'cancelLabel',
  'submitLabel',
  'emptyText',
]);

/** The literal text of an expression a JSX child or attribute shows (both branches of a condition). */
function literalTexts(node: ts.Node): ts.Node[] {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node))
    return hasText(node.text) ? [node] : [];
  if (ts.isTemplateExpression(node)) {
    const parts = [node.head.text, ...node.templateSpans.map((s) => s.literal.text)];
    return parts.some(hasText) ? [node] : [];
  }
  if (ts.isParenthesizedExpression(node)) return literalTexts(node.expression);
  if (ts.isConditionalExpression(node))
    return [...literalTexts(node.whenTrue), ...literalTexts(node.whenFalse)];
  if (ts.isBinaryExpression(node)) {
    const op = node.operatorToken.kind;
    if (op === ts.SyntaxKind.AmpersandAmpersandToken) return literalTexts(node.right);
    if (op === ts.SyntaxKind.BarBarToken || op === ts.SyntaxKind.QuestionQuestionToken)
      return [...literalTexts(node.left), ...literalTexts(node.right)];
  }
  return [];
}

/** Text in a component's JSX that does not come from the catalogue. */
export function literalTextInJsx(file: string, code: string): Problem[] {
  const source = ts.createSourceFile(file, code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const problems: Problem[] = [];
  const report = (node: ts.Node, what: string) => {
    const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
    const text = node.getText(source).replace(/\s+/g, ' ').trim().slice(0, 60);
    problems.push({ kind: 'literal-text', file, line, message: `${what}: ${text}` });
  };
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node)) {
      if (hasText(node.text)) report(node, 'text');
    } else if (ts.isJsxAttribute(node)) {
      const name = node.name.getText(source);
      const init = node.initializer;
      if (TEXT_ATTRIBUTES.has(name) && init) {
        if (ts.isStringLiteral(init)) {
          if (hasText(init.text)) report(init, name);
        } else if (ts.isJsxExpression(init) && init.expression) {
          for (const n of literalTexts(init.expression)) report(n, name);
        }
      }
      // an attribute's expression is not a child, but JSX inside it (actions={<button>…</button>}) shows
      if (init) ts.forEachChild(init, visit);
      return;
    } else if (ts.isJsxExpression(node) && node.expression && ts.isJsxElement(node.parent)) {
      for (const n of literalTexts(node.expression)) report(n, 'text');
    } else if (ts.isJsxExpression(node) && node.expression && ts.isJsxFragment(node.parent)) {
      for (const n of literalTexts(node.expression)) report(n, 'text');
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return problems;
}

/** Text of the extension's popup page that does not come from its `_locales` (data-i18n). */
export function literalTextInHtml(file: string, code: string): Problem[] {
  const problems: Problem[] = [];
  const body = code
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<!doctype[^>]*>/gi, '')
    .replace(/<(script|style)[\s\S]*?<\/\1>/g, '');
  // text between tags, other than whitespace, is only allowed inside an element whose text is set by data-i18n
  const stack: { tag: string; translated: boolean }[] = [];
  const re = /<(\/?)([a-zA-Z0-9]+)([^>]*)>|([^<]+)/g;
  for (const m of body.matchAll(re)) {
    if (m[4] !== undefined) {
      if (hasText(m[4]) && !stack.some((s) => s.translated)) {
        const line = code.slice(0, code.indexOf(m[4].trim())).split('\n').length;
        problems.push({ kind: 'literal-text', file, line, message: `text: ${m[4].trim().slice(0, 60)}` });
      }
      continue;
    }
    const [, closing, tag, attrs = ''] = m;
    for (const a of attrs.matchAll(/\b(alt|title|placeholder|aria-label)="([^"]*)"/g)) {
      if (hasText(a[2]!) && !/data-i18n-(alt|title|placeholder|aria-label)=/.test(attrs))
        problems.push({ kind: 'literal-text', file, message: `${a[1]}: ${a[2]}` });
    }
    if (closing) {
      const at = stack.map((s) => s.tag).lastIndexOf(tag!.toLowerCase());
      if (at >= 0) stack.length = at;
    } else if (!/\/$/.test(attrs) && !/^(meta|link|img|input|br|hr)$/i.test(tag!)) {
      stack.push({ tag: tag!.toLowerCase(), translated: /\bdata-i18n=/.test(attrs) });
    }
  }
  return problems;
}

// ---- the layout, right to left

/**
 * Physical left/right in a style sheet: the layout must mirror in Arabic, so a side is said as the start or
 * the end of the line (margin-inline-start, inset-inline-end, text-align: start, border-start-end-radius…).
 * A line that must stay physical (an arrow drawn on screen) says why in a comment holding `physical:`.
 */
export function physicalCss(file: string, css: string): Problem[] {
  const problems: Problem[] = [];
  const code = css.replace(/\/\*(?![\s\S]*?physical:)[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' '));
  code.split('\n').forEach((line, i) => {
    if (/physical:/.test(line)) return;
    const found =
      line.match(/\b(?:margin|padding|border)-(?:left|right)\b[\w-]*/)?.[0] ??
      line.match(/\bborder-(?:top|bottom)-(?:left|right)-radius\b/)?.[0] ??
      line.match(/(?:^|[;{\s])((?:left|right)\s*:)/)?.[1] ??
      line.match(/\b(?:text-align|float|clear)\s*:\s*(?:left|right)\b/)?.[0] ??
      line.match(/\btranslateX\([^)]*\)/)?.[0];
    // a shorthand whose left and right differ: margin/padding a b c d with b ≠ d, border-radius a b c d with a≠b or c≠d
    const shorthand = line.match(/^\s*(margin|padding|border-radius|inset)\s*:\s*([^;!]+)/);
    let uneven: string | undefined;
    if (shorthand) {
      const v = shorthand[2]!.trim().split(/\s+(?![^(]*\))/);
      if (shorthand[1] === 'border-radius') {
        if (
          v.length === 4
            ? v[0] !== v[1] || v[2] !== v[3]
            : v.length === 3 || (v.length === 2 && v[0] !== v[1])
        )
          uneven = shorthand[0].trim();
      } else if (v.length === 4 && v[1] !== v[3]) uneven = shorthand[0].trim();
    }
    const what = found ?? uneven;
    if (what)
      problems.push({
        kind: 'physical-css',
        file,
        line: i + 1,
        message: `${what.trim()} (say the start or the end of the line: it must mirror right to left)`,
      });
  });
  return problems;
}

/** An extension message name (`_locales`): the key with `.` and `-` as `_`, as the browsers' names allow. */
export { chromeName };

/** The keys a file names, and the names it uses that are not keys. */
export function keyUses(
  file: string,
  code: string,
  keys: ReadonlySet<string>,
): { used: Set<string>; problems: Problem[] } {
  const used = new Set<string>();
  const problems: Problem[] = [];
  const lineOf = (index: number) => code.slice(0, index).split('\n').length;
  if (!file.endsWith('.html')) for (const k of keysIn(code, keys, file)) used.add(k);
  // the extension's pages and manifest name messages as the browsers do
  if (file.startsWith('extension/')) {
    const byName = new Map([...keys].map((k) => [chromeName(k), k]));
    for (const m of code.matchAll(/__MSG_(\w+)__|data-i18n(?:-[\w-]+)?="([\w.-]+)"/g)) {
      const name = m[1] ?? chromeName(m[2]!);
      const key = byName.get(name);
      if (key) used.add(key);
      else
        problems.push({
          kind: 'unknown-key',
          file,
          line: lineOf(m.index),
          message: `${m[0]} names no message`,
        });
    }
  }
  const calls =
    /(?:\bt|\bmessageKey)\(\s*(?:(['"])([^'"\n]*)\1|(`[^`]*`))|<Rich\s[^>]*?\bk=(?:"([^"]*)"|\{\s*'([^']*)'\s*\})/g;
  for (const m of code.matchAll(calls)) {
    const key = m[2] ?? m[4] ?? m[5];
    if (m[3]?.includes('${'))
      problems.push({
        kind: 'key-from-pieces',
        file,
        line: lineOf(m.index),
        message: `a key put together: ${m[3].slice(0, 60)} (write each key whole)`,
      });
    else if (key !== undefined && !keys.has(key) && /^[a-z][\w-]*(\.[\w-]+)+$/i.test(key))
      problems.push({
        kind: 'unknown-key',
        file,
        line: lineOf(m.index),
        message: `${key} is not in en.json`,
      });
  }
  return { used, problems };
}

export interface Allowlist {
  files: Record<string, string>;
}

export function readAllowlist(root = ROOT): Allowlist {
  return JSON.parse(readFileSync(join(root, 'scripts/i18n/allowlist.json'), 'utf8'));
}

/** Everything above, over the repository (or `root`). */
export function runCheck(root = ROOT): Problem[] {
  const catalogues = Object.fromEntries(LOCALES.map((l) => [l, readCatalogue(l)])) as Catalogues;
  const problems = checkCatalogues(catalogues);
  const keys = new Set(Object.keys(catalogues.en));
  const used = new Set<string>();
  const allowlist = readAllowlist(root);
  const files = codeFiles(root);
  for (const file of files) {
    const code = readFileSync(join(root, file), 'utf8');
    const uses = keyUses(file, code, keys);
    for (const k of uses.used) used.add(k);
    problems.push(...uses.problems);
    const text = file.endsWith('.tsx')
      ? literalTextInJsx(file, code)
      : file.endsWith('.html') && file.startsWith('extension/')
        ? literalTextInHtml(file, code)
        : [];
    if (Object.hasOwn(allowlist.files, file)) {
      if (text.length === 0)
        problems.push({
          kind: 'allowlist',
          file,
          message: 'has no untranslated text any more: take it off scripts/i18n/allowlist.json',
        });
    } else problems.push(...text);
  }
  for (const file of cssFiles(root))
    problems.push(...physicalCss(file, readFileSync(join(root, file), 'utf8')));
  for (const listed of Object.keys(allowlist.files)) {
    if (!files.includes(listed))
      problems.push({
        kind: 'allowlist',
        file: listed,
        message: 'is on scripts/i18n/allowlist.json but is no file of code',
      });
  }
  for (const key of keys) {
    if (!used.has(key))
      problems.push({
        kind: 'unused-key',
        file: 'shared/i18n/messages/en.json',
        message: `${key} is used by no code`,
      });
  }
  return problems;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const problems = runCheck();
  for (const p of problems)
    console.log(`${p.file ?? ''}${p.line ? `:${p.line}` : ''}  ${p.kind}  ${p.message}`);
  const allow = Object.keys(readAllowlist().files).length;
  console.log(
    problems.length
      ? `\n${problems.length} problems`
      : `catalogues and code agree (${allow} files still on the allowlist)`,
  );
  process.exit(problems.length ? 1 : 0);
}
