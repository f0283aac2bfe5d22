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

/** Markdown's backslash escapes (CommonMark 2.4): the punctuation stands for itself. */
const MD_ESCAPABLE = /\\([!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~])/g;

/**
 * One paragraph's inline Markdown as text: code spans keep their content as it is; links become their
 * text; emphasis (`*a*`, `_a_`, `**a**`, `__a__`, `***a***`) its content, underscores inside a word
 * (`snake_case`) staying; backslash escapes the character.
 */
function markdownInline(md: string): string {
  const kept: string[] = [];
  const keep = (s: string) => `\ue100${kept.push(s) - 1}\ue101`;
  let s = md.replace(/(`+)([\s\S]*?[^`])\1(?!`)/g, (_, _ticks: string, code: string) =>
    keep(code.replace(/^ (.*) $/s, '$1')),
  );
  s = s.replace(MD_ESCAPABLE, (_, c: string) => keep(c));
  s = s.replace(/<((?:https?|mailto):[^\s>]+)>/g, (_, url: string) => keep(url));
  s = s.replace(/\[([^\]]*)\]\((?:[^()\s]|\([^()\s]*\))*(?:\s+"[^"]*")?\)/g, '$1');
  s = s.replace(/\[([^\]]+)\]\[[^\]]*\]/g, '$1');
  for (let i = 0; i < 3; i++) {
    s = s
      .replace(/(\*\*\*|___)(?=\S)([\s\S]*?\S)\1/g, '$2')
      .replace(/\*\*(?=\S)([\s\S]*?\S)\*\*/g, '$1')
      .replace(/(^|[^\p{L}\p{N}_])__(?=\S)([\s\S]*?\S)__(?![\p{L}\p{N}_])/gu, '$1$2')
      .replace(/\*(?=[^\s*])([\s\S]*?[^\s*])\*/g, '$1')
      .replace(/(^|[^\p{L}\p{N}_])_(?=[^\s_])([\s\S]*?[^\s_])_(?![\p{L}\p{N}_])/gu, '$1$2');
  }
  return s.replace(/\ue100(\d+)\ue101/g, (_, i: string) => kept[Number(i)]!);
}

/**
 * Markdown as GIFT's `[markdown]` and Moodle's markdown format carry it, as the text a Waymark question
 * holds: fenced code blocks are the code and `![](src)` the images; headings, block quotes and emphasis lose
 * their marks; lines of one paragraph join (a line ending in two spaces or a backslash breaks), list items
 * stay one a line (`- item`, `1. item`); paragraphs stay apart.
 */
export function markdownToParts(md: string): HtmlParts {
  const codes: string[] = [];
  const images: string[] = [];
  let text = md
    .replace(/\r\n?/g, '\n')
    .replace(/^```[^\n]*\n([\s\S]*?)\n?```[ \t]*$/gm, (_, code: string) => {
      codes.push(code);
      return '';
    });
  text = text.replace(/!\[[^\]]*\]\(([^)\s]+)(\s+"[^"]*")?\)/g, (_, src: string) => {
    images.push(src);
    return '';
  });
  const paragraphs = text
    .split(/\n[ \t]*\n/)
    .map((block) => {
      const lines: string[] = [];
      for (const raw of block.split('\n')) {
        let line = raw.replace(/^ {0,3}>[ \t]?/, '');
        if (/^ {0,3}(?:[-=]{3,}|(?:\* *){3,}|(?:_ *){3,})[ \t]*$/.test(line)) continue; // a rule or a setext underline
        const heading = /^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(line);
        const item = /^[ \t]*(?:([-*+])|(\d+[.)]))[ \t]+(.*)$/.exec(line);
        if (heading) line = markdownInline(heading[1]!);
        else if (item) line = `${item[1] ? '-' : item[2]} ${markdownInline(item[3]!)}`;
        const hardBreak = / {2,}$|\\$/.test(raw);
        const clean = heading || item ? line.trim() : markdownInline(line.replace(/\\$/, '').trim());
        const last = lines.length - 1;
        // a line of a paragraph continues the one before, unless that one broke or is an item or heading
        if (
          last >= 0 &&
          !heading &&
          !item &&
          !lines[last]!.endsWith('\n') &&
          !/^(- |\d+[.)] )/.test(lines[last]!)
        )
          lines[last] = `${lines[last]} ${clean}`;
        else lines.push(clean);
        if (hardBreak) lines[lines.length - 1] += '\n';
      }
      return lines
        .map((l) => l.replace(/\n$/, ''))
        .filter((l) => l !== '')
        .join('\n');
    })
    .filter(Boolean);
  return {
    text: paragraphs.join('\n\n').trim(),
    code: codes.length ? codes.join('\n\n') : null,
    images,
    lost: [],
  };
}
