/**
 * The design tokens, read from their one source: the first `:root, :host` block of widgets/ui/styles.css
 * (each public token with its comment, its light value) and the `@supports (color: light-dark(…))` block
 * after it (its dark value). docs/embed.md's "Appearance" table is written from them
 * (widgets/elements-docs.mjs) and widgets/embed/tokens.test.ts holds the two blocks and the elements'
 * documented defaults to them.
 */

/** `light-dark(a, b)` → [a, b] (top-level commas only); any other value → [value, value]. */
export function lightAndDark(value) {
  const m = /^light-dark\((.*)\)$/s.exec(value.trim());
  if (!m) return [value.trim(), value.trim()];
  let depth = 0;
  for (let i = 0; i < m[1].length; i++) {
    const c = m[1][i];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) return [m[1].slice(0, i).trim(), m[1].slice(i + 1).trim()];
  }
  throw new Error(`light-dark() with one value: ${value}`);
}

/** Every `--name: value;` of a block's text, with the comment just before it. */
function declarations(block) {
  const out = [];
  const re = /(?:\/\*\s*([\s\S]*?)\s*\*\/\s*)?(--[\w-]+)\s*:\s*([^;]+);/g;
  for (let m = re.exec(block); m; m = re.exec(block)) {
    out.push({
      name: m[2],
      value: m[3].replace(/\s+/g, ' ').trim(),
      description: m[1]?.replace(/\s+/g, ' '),
    });
  }
  return out;
}

/** A value with each `light-dark(a, b)` inside it replaced by one side (0 light, 1 dark). */
export function side(value, which) {
  let out = value;
  for (;;) {
    const at = out.indexOf('light-dark(');
    if (at < 0) return out;
    let depth = 0;
    let end = at + 'light-dark'.length;
    for (; end < out.length; end++) {
      if (out[end] === '(') depth++;
      else if (out[end] === ')' && --depth === 0) break;
    }
    const pair = lightAndDark(out.slice(at, end + 1));
    out = out.slice(0, at) + pair[which] + out.slice(end + 1);
  }
}

/**
 * The tokens of styles.css: `public` (--wm-*, documented) and `internal` (--_wm-*), each with its light
 * value (the plain block), its dark value (the light-dark() block; the light one when it has none) and,
 * for the public ones, the comment that describes it.
 */
export function designTokens(css) {
  const plainAt = css.indexOf(':root,\n:host {');
  const darkAt = css.indexOf('@supports (color: light-dark(');
  if (plainAt < 0 || darkAt < 0) throw new Error('styles.css: the token blocks were not found');
  const plain = declarations(css.slice(plainAt, css.indexOf('\n}', plainAt)));
  const darkBlock = css.slice(darkAt, css.indexOf('\n}\n', darkAt));
  const dark = new Map(declarations(darkBlock).map((d) => [d.name, d.value]));
  const tokens = plain.map((d) => ({
    name: d.name,
    light: d.value,
    dark: dark.has(d.name) ? side(dark.get(d.name), 1) : d.value,
    lightOfDarkBlock: dark.has(d.name) ? side(dark.get(d.name), 0) : null,
    description: d.description,
  }));
  const unknown = [...dark.keys()].filter((n) => !plain.some((d) => d.name === n));
  return {
    public: tokens.filter((t) => t.name.startsWith('--wm-')),
    internal: tokens.filter((t) => t.name.startsWith('--_wm-')),
    darkOnly: unknown,
  };
}

const code = (s) => `\`${s.replace(/\|/g, '\\|')}\``;

/** The Appearance table of docs/embed.md: each public token, its light and dark value, what it colours. */
export function tokenTable(tokens) {
  const lines = ['| token | light | dark | what |', '|---|---|---|---|'];
  for (const t of tokens.public) {
    lines.push(
      `| ${code(t.name)} | ${code(t.light)} | ${t.dark === t.light ? '(same)' : code(t.dark)} | ${(t.description ?? '').replace(/\|/g, '\\|')} |`,
    );
  }
  return lines.join('\n');
}
