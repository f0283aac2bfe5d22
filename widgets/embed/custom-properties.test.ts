/**
 * The custom properties an element documents (its header comment's @cssprop) are the ones a host can set:
 * each is used by the CSS the element puts in its shadow root, and no `--wm-*` property is given a value
 * on an element inside a shadow root — a value there overrides the one the host page sets on the element
 * (five documented properties did nothing that way). Defaults belong on `:host` (and `:root` for the
 * portal, where the same CSS is global), which the host's own rules override.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import widgets from './widgets.json';

const root = process.cwd();
const read = (path: string) => readFileSync(join(root, path), 'utf8');

/** Every `selector { … }` rule with its declarations (inside @media and the like too). */
function rules(css: string): { selector: string; body: string }[] {
  const out: { selector: string; body: string }[] = [];
  const clean = css.replace(/\/\*[\s\S]*?\*\//g, '');
  const walk = (text: string) => {
    let i = 0;
    while (i < text.length) {
      const open = text.indexOf('{', i);
      if (open < 0) return;
      let depth = 0;
      let close = open;
      for (; close < text.length; close++) {
        if (text[close] === '{') depth++;
        else if (text[close] === '}' && --depth === 0) break;
      }
      const head = text.slice(i, open).trim().split(';').pop()!.trim();
      const body = text.slice(open + 1, close);
      if (head.startsWith('@')) walk(body);
      else out.push({ selector: head, body });
      i = close + 1;
    }
  };
  walk(clean);
  return out;
}

const elements = Object.values(widgets).map(({ entry, tag }) => {
  const source = read(`widgets/${entry}`);
  const sheets = [...source.matchAll(/from '([^']+\.css)\?inline'/g)].map((m) =>
    join('widgets', dirname(entry), m[1]!),
  );
  const css = ['widgets/ui/styles.css', 'widgets/embed/element.css', ...sheets].map(read).join('\n');
  const documented = [...source.matchAll(/@cssprop\s+(?:\{[^}]*\}\s+)?\[?(--wm-[\w-]+)/g)].map((m) => m[1]!);
  return { tag, css, documented };
});

describe.each(elements)('<$tag>', ({ css, documented }) => {
  it('documents custom properties', () => {
    expect(documented.length).toBeGreaterThan(0);
  });

  it('uses every custom property it documents', () => {
    for (const name of documented) expect(css, name).toMatch(new RegExp(`var\\(${name}[,)]`));
  });

  it('gives --wm-* properties their defaults on :host only, where the host page can override them', () => {
    const misplaced = rules(css)
      .filter((r) => /(^|[;\s{])--wm-[\w-]+\s*:/.test(r.body))
      .filter((r) => !r.selector.split(',').every((s) => [':root', ':host'].includes(s.trim())))
      .map((r) => r.selector);
    expect(misplaced).toEqual([]);
  });
});
