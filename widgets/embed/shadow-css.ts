/**
 * What the embed build does to every style sheet it puts in a shadow root (widgets/vite.embed.config.ts).
 *
 * `rem` lengths become pixels. Inside a shadow root `rem` is still the font size of the partner page's
 * `html`, so a page with `html { font-size: 10px }` shrank every heading of an element by a third, while
 * the element's own base is fixed (`:host { font-size: 16px }` in element.css). One rem is that base, so
 * the element looks the same on every page. (The portal keeps `rem`: there the root is ours.)
 */

/** The element's base font size: `:host { font-size }` in widgets/embed/element.css. */
export const ELEMENT_FONT_SIZE_PX = 16;

/** `1.5rem` → `24px`, `-.25rem` → `-4px`; names and quoted text that merely contain "rem" are left alone. */
export function remToPx(css: string, base = ELEMENT_FONT_SIZE_PX): string {
  let out = '';
  let quote = '';
  let i = 0;
  const number = /^(\d*\.?\d+)rem(?![\w-])/;
  while (i < css.length) {
    const c = css[i]!;
    if (quote) {
      out += c;
      if (c === '\\') {
        out += css[i + 1] ?? '';
        i += 2;
        continue;
      }
      if (c === quote) quote = '';
      i++;
      continue;
    }
    if (c === '"' || c === "'") {
      quote = c;
      out += c;
      i++;
      continue;
    }
    const before = css[i - 1] ?? ' ';
    const m = /[\w.#-]/.test(before) && before !== '-' ? null : number.exec(css.slice(i, i + 24));
    if (m) {
      const px = Math.round(Number(m[1]) * base * 1000) / 1000;
      out += `${px}px`;
      i += m[0].length;
      continue;
    }
    out += c;
    i++;
  }
  return out;
}

/**
 * Design tokens reach inside from the page (decision 041). A custom property set on an element inside a
 * shadow root — `:host` included — hides the value the page gives any ancestor, so a default there
 * (`:host { --wm-primary: #3730a3 }`) meant a page could set a token only element by element. Here each
 * default is declared under a name of its own and read as the fallback of the token:
 * - in rules of `:host` (and `:root, :host`), `--wm-x: v` becomes `--_wm-x: v`;
 * - every `var(--wm-x)` becomes `var(--wm-x, var(--_wm-x))`, and `var(--wm-x, f)`
 *   `var(--wm-x, var(--_wm-x, f))`: the page's value (set on `:root`, any ancestor, or the element) wins,
 *   then the element's default, then the fallback written there.
 * Internal shades (`--_wm-*`) are left as they are.
 */
export function tokensFromPage(css: string): string {
  return fallbacksToDefaults(defaultsOnHost(css));
}

/** `--wm-x:` declared in a `:host` rule (inside @media and @supports too) becomes `--_wm-x:`. */
function defaultsOnHost(css: string): string {
  let out = '';
  let i = 0;
  while (i < css.length) {
    const open = css.indexOf('{', i);
    if (open < 0) return out + css.slice(i);
    const close = matching(css, open);
    const head = css.slice(i, open);
    const body = css.slice(open + 1, close);
    const selector = head
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .trim()
      .split(/[;}]/)
      .pop()!
      .trim();
    let inner = body;
    if (selector.startsWith('@'))
      inner = /^@(media|supports|container|layer)\b/.test(selector) ? defaultsOnHost(body) : body;
    else if (selector.split(',').every((s) => [':root', ':host'].includes(s.trim())))
      inner = body.replace(/(^|[;{\s])--wm-([\w-]+)(\s*):/g, '$1--_wm-$2$3:');
    out += `${head}{${inner}}`;
    i = close + 1;
  }
  return out;
}

/** The index of the `}` closing the `{` at `open`. */
function matching(css: string, open: number): number {
  let depth = 0;
  for (let j = open; j < css.length; j++) {
    if (css[j] === '{') depth++;
    else if (css[j] === '}' && --depth === 0) return j;
  }
  return css.length;
}

/** `var(--wm-x)` → `var(--wm-x, var(--_wm-x))`; `var(--wm-x, f)` → `var(--wm-x, var(--_wm-x, f))`. */
function fallbacksToDefaults(css: string): string {
  let out = '';
  let i = 0;
  const start = /var\(\s*--wm-([\w-]+)\s*([,)])/g;
  for (let m = start.exec(css); m; m = start.exec(css)) {
    const name = m[1]!;
    out += css.slice(i, m.index);
    if (m[2] === ')') {
      out += `var(--wm-${name}, var(--_wm-${name}))`;
      i = m.index + m[0].length;
    } else {
      // the fallback runs to the parenthesis that closes this var(; nested var()s in it are rewritten too
      let depth = 1;
      let j = m.index + m[0].length;
      for (; j < css.length && depth > 0; j++) {
        if (css[j] === '(') depth++;
        else if (css[j] === ')') depth--;
      }
      const fallback = css.slice(m.index + m[0].length, j - 1);
      out += `var(--wm-${name}, var(--_wm-${name},${fallbacksToDefaults(fallback)}))`;
      i = j;
    }
    start.lastIndex = i;
  }
  return out + css.slice(i);
}
