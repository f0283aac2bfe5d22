/**
 * HTML as question formats carry it (Moodle's editor, Canvas, QTI's XHTML item bodies) turned into what a
 * Waymark question holds — its text, the code of a `<pre>` block, its images — and back. No DOM is needed,
 * so the same code runs in the CLI, the server and the portal.
 *
 * Reading: whitespace collapses as a browser collapses it; `<br>` is a line break, a block (`<p>`, `<div>`,
 * `<li>`, a heading, a table row) a paragraph; every other tag is dropped; entities are decoded. Writing:
 * paragraphs become `<p>`, line breaks `<br>`, and spaces a browser would collapse are written as `&#32;`,
 * so what is written reads back the same.
 */

const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  ndash: '–',
  mdash: '—',
  hellip: '…',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  laquo: '«',
  raquo: '»',
  copy: '©',
  reg: '®',
  trade: '™',
  euro: '€',
  pound: '£',
  deg: '°',
  plusmn: '±',
  times: '×',
  divide: '÷',
  middot: '·',
  bull: '•',
  eacute: 'é',
  egrave: 'è',
  agrave: 'à',
  uuml: 'ü',
  ouml: 'ö',
  auml: 'ä',
  szlig: 'ß',
  ccedil: 'ç',
};

/** Decodes character references (`&amp;`, `&#233;`, `&#xE9;`); a no-break space reads as a space. */
export function decodeEntities(s: string): string {
  return s
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z][a-z0-9]*);/gi, (whole, ref: string) => {
      if (ref[0] === '#') {
        const code =
          ref[1] === 'x' || ref[1] === 'X' ? Number.parseInt(ref.slice(2), 16) : Number(ref.slice(1));
        return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
      }
      return NAMED[ref.toLowerCase()] ?? whole;
    })
    .replace(/\u00a0/g, ' ');
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text made safe for HTML: in an element's content and in an attribute quoted either way. */
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** Whether a text looks like HTML (a tag or an entity), for formats that may hold either. */
export const looksLikeHtml = (s: string) =>
  /<\/?[a-z][a-z0-9]*(\s[^>]*)?\/?>|&(#\d+|#x[0-9a-f]+|[a-z]+);/i.test(s);

export interface HtmlParts {
  text: string;
  /** The text of `<pre>` blocks, joined by blank lines; null when there is none. */
  code: string | null;
  /** The `src` of every `<img>`, in order. */
  images: string[];
  /** Other things that do not survive as text (a table, a list, an audio or video element). */
  lost: string[];
}

const attr = (tag: string, name: string): string | null => {
  const m = new RegExp(`\\s${name}\\s*=\\s*("([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(tag);
  return m ? decodeEntities(m[2] ?? m[3] ?? m[4] ?? '') : null;
};

const BLOCK = /^(p|div|li|ul|ol|h[1-6]|tr|table|blockquote|section|article|header|footer|dl|dt|dd)$/i;

/** Splits HTML into the text, code and images a Waymark question holds. */
export function htmlToParts(html: string): HtmlParts {
  const codes: string[] = [];
  const images: string[] = [];
  const lost = new Set<string>();
  // <pre> blocks keep their whitespace: take them out first
  let src = html.replace(/<pre\b[^>]*>([\s\S]*?)<\/pre\s*>/gi, (_, inner: string) => {
    codes.push(decodeEntities(inner.replace(/<br\s*\/?>/gi, '\n').replace(/<[^>]+>/g, '')));
    return ' ';
  });
  src = src.replace(/<!--[\s\S]*?-->/g, '').replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, '');
  src = src.replace(/<img\b[^>]*>/gi, (tag) => {
    const s = attr(tag, 'src');
    if (s) images.push(s);
    return ' ';
  });
  for (const m of src.matchAll(/<(table|audio|video|iframe|object|math|svg)\b/gi))
    lost.add(m[1]!.toLowerCase());
  // collapse the source's own whitespace, then let tags say where lines and paragraphs break
  src = src.replace(/\s+/g, ' ');
  src = src.replace(/<(\/?)([a-z][a-z0-9]*)\b[^>]*>/gi, (_, close: string, name: string) => {
    if (/^br$/i.test(name)) return '\n';
    if (/^li$/i.test(name) && !close) return '\n\n- ';
    if (BLOCK.test(name)) return '\n\n';
    return '';
  });
  src = src
    .replace(/ ?\n ?/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .replace(/^\n+|\n+$/g, '')
    .replace(/^ | $/g, '');
  const text = decodeEntities(src).replace(/\n- \n/g, '\n- ');
  return { text, code: codes.length ? codes.join('\n\n') : null, images, lost: [...lost] };
}

/** Text as HTML that htmlToParts reads back as the same text. */
export function textToHtml(text: string): string {
  if (!text) return '';
  const encodeSpaces = (line: string) =>
    escapeHtml(line)
      .replace(/\t/g, '&#9;')
      .replace(/ (?= )|^ | $/g, '&#32;');
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n\n/)
    .map((para) => `<p>${para.split('\n').map(encodeSpaces).join('<br>')}</p>`)
    .join('');
}

/** A question's text, code and image as one piece of HTML (for formats whose question text is HTML). */
export function partsToHtml(parts: { text: string; code?: string | null; image?: string | null }): string {
  let html = textToHtml(parts.text);
  if (parts.code) html += `<pre><code>${escapeHtml(parts.code)}</code></pre>`;
  if (parts.image) html += `<p><img src="${escapeHtml(parts.image)}" alt=""></p>`;
  return html;
}

/** Markdown as GIFT's `[markdown]` carries it: fenced code blocks are the code, `![](src)` the images. */
export function markdownToParts(md: string): HtmlParts {
  const codes: string[] = [];
  const images: string[] = [];
  let text = md.replace(/^```[^\n]*\n([\s\S]*?)\n?```[ \t]*$/gm, (_, code: string) => {
    codes.push(code);
    return '';
  });
  text = text.replace(/!\[[^\]]*\]\(([^)\s]+)(\s+"[^"]*")?\)/g, (_, src: string) => {
    images.push(src);
    return '';
  });
  text = text.replace(/\n{3,}/g, '\n\n').trim();
  return { text, code: codes.length ? codes.join('\n\n') : null, images, lost: [] };
}
