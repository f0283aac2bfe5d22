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
