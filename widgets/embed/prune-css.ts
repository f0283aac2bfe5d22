/**
 * Drops the CSS rules a widget file cannot use, for the lean embed build (widgets/vite.embed.config.ts):
 * a selector that names a class which appears nowhere in the widget's JavaScript matches nothing in its
 * shadow root. Conservative by design — classes inside :not(), :is(), :where() and :has() are ignored
 * (a :not(.x) matches more, not less, when x is unused); @media, @supports, @container and @layer blocks
 * are pruned inside and dropped when empty; every other at-rule (@keyframes, @font-face) is kept.
 * Selectors that start at the document (html, body, :root) are dropped too: nothing in a shadow root
 * matches them.
 */

/** The words of a JavaScript file that could be class names (a superset: every identifier and string word). */
export function wordsOf(code: string): Set<string> {
  return new Set(code.match(/-?[A-Za-z_][\w-]*/g) ?? []);
}

/** Splits `text` at `separator` where it is outside parentheses, brackets and quotes. */
function splitTopLevel(text: string, separator: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote = '';
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (c === separator && depth === 0) {
      out.push(text.slice(start, i));
      start = i + 1;
    }
  }
  out.push(text.slice(start));
  return out;
}

/** The classes a selector requires: those outside parentheses, brackets and quotes. */
export function requiredClasses(selector: string): string[] {
  let outside = '';
  let depth = 0;
  let quote = '';
  for (let i = 0; i < selector.length; i++) {
    const c = selector[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (depth === 0) outside += c;
  }
  return [...outside.matchAll(/\.(-?[A-Za-z_][\w-]*)/g)].map((m) => m[1]!);
}

/** The CSS without its comments (quoted text left alone). */
function withoutComments(css: string): string {
  let out = '';
  let quote = '';
  for (let i = 0; i < css.length; i++) {
    const c = css[i]!;
    if (quote) {
      if (c === '\\') {
        out += c + (css[i + 1] ?? '');
        i++;
        continue;
      }
      if (c === quote) quote = '';
    } else if (c === '/' && css[i + 1] === '*') {
      const end = css.indexOf('*/', i + 2);
      i = end < 0 ? css.length : end + 1;
      continue;
    } else if (c === '"' || c === "'") quote = c;
    out += c;
  }
  return out;
}

/** Index of the brace that closes the block opened at `open`, skipping quoted text. */
function closingBrace(css: string, open: number): number {
  let depth = 0;
  let quote = '';
  for (let i = open; i < css.length; i++) {
    const c = css[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i;
  }
  return css.length;
}

const PRUNED_AT_RULES = /^@(media|supports|container|layer)\b/i;
const DOCUMENT_SELECTOR = /^(html|body|:root)(?![\w-])/i;

/** Whether a selector can match inside a shadow root whose code uses the words `used`. */
const canMatch = (selector: string, used: ReadonlySet<string>) =>
  !DOCUMENT_SELECTOR.test(selector) && requiredClasses(selector).every((c) => used.has(c));

/** The rules of `css` whose selectors can match, given the words of the widget's code. */
export function pruneCss(source: string, used: ReadonlySet<string>): string {
  const css = withoutComments(source);
  let out = '';
  let i = 0;
  while (i < css.length) {
    const open = css.indexOf('{', i);
    if (open < 0) {
      // a trailing statement such as @import …; stays as it is
      out += css.slice(i).trim();
      break;
    }
    // statements before the block (@charset, @import, @layer a, b;) stay as they are
    let prelude = css.slice(i, open);
    // (a ';' cannot occur in a selector, so everything up to the last one is statements)
    const statementEnd = prelude.lastIndexOf(';');
    if (statementEnd >= 0) {
      out += prelude.slice(0, statementEnd + 1).trim();
      prelude = prelude.slice(statementEnd + 1);
    }
    const close = closingBrace(css, open);
    const body = css.slice(open + 1, close);
    const head = prelude.trim();
    i = close + 1;
    if (head.startsWith('@')) {
      if (PRUNED_AT_RULES.test(head)) {
        const inner = pruneCss(body, used);
        if (inner.trim()) out += `${head}{${inner}}`;
      } else out += `${head}{${body}}`;
      continue;
    }
    const kept = splitTopLevel(head, ',')
      .map((s) => s.trim())
      .filter((s) => s && canMatch(s, used));
    if (kept.length) out += `${kept.join(',')}{${body}}`;
  }
  return out;
}
