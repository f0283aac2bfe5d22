/** XML helpers of the Moodle XML and QTI readers: a parser set up once, and where elements start. */

import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { type Said, said } from './problems';
import type { RowError } from './record';

export type XmlNode = Record<string, unknown>;

/** `stopNodes`: paths of elements whose content is kept as its markup, unparsed (fast-xml-parser's option). */
export function xmlParser(arrays: readonly string[], stopNodes: readonly string[] = []) {
  const set = new Set(arrays);
  return new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@_',
    textNodeName: '#text',
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: false,
    removeNSPrefix: true,
    processEntities: true,
    htmlEntities: true,
    isArray: (name) => set.has(name),
    stopNodes: [...stopNodes],
  });
}

const lineOf = (src: string, offset: number) => {
  let line = 1;
  for (let i = 0; i < offset; i++) if (src.charCodeAt(i) === 10) line++;
  return line;
};

/** The document type declaration before the root element (with its internal subset), if there is one. */
function prologDoctype(src: string): { index: number; text: string } | null {
  let i = 0;
  for (;;) {
    while (i < src.length && /\s|\uFEFF/.test(src[i]!)) i++;
    if (src.startsWith('<?', i)) {
      const end = src.indexOf('?>', i);
      if (end < 0) return null;
      i = end + 2;
    } else if (src.startsWith('<!--', i)) {
      const end = src.indexOf('-->', i);
      if (end < 0) return null;
      i = end + 3;
    } else if (/^<!DOCTYPE/i.test(src.slice(i, i + 9))) {
      // the declaration ends at the first > outside its [internal subset]
      const open = src.indexOf('[', i);
      const close = src.indexOf('>', i);
      let end = close;
      if (open >= 0 && open < close) {
        const m = /\]\s*>/.exec(src.slice(open));
        end = m ? open + m.index + m[0].length - 1 : -1;
      }
      return { index: i, text: src.slice(i, end < 0 ? src.length : end + 1) };
    } else return null;
  }
}

/**
 * Why the XML is not read, with its line (a problem of the file, not of one question), or null when it is
 * well formed: a syntax error, or an entity declaration. Neither Moodle XML nor QTI declares entities, and
 * a declared entity is how XML is made to read files of the computer (an external entity) or to expand
 * without bound (entities of entities), so a document that declares one is refused before it is parsed.
 */
export function xmlSyntaxError(src: string, part?: string): RowError | null {
  const at = (line: number, message: string | Said): RowError => ({
    line,
    ...(part ? { part } : {}),
    field: 'XML',
    ...(typeof message === 'string' ? { message } : message),
    scope: 'file',
  });
  const doctype = prologDoctype(src);
  const entity = doctype ? /<!ENTITY\s/.exec(doctype.text) : null;
  if (doctype && entity) {
    const declaration = doctype.text.slice(entity.index, entity.index + 300);
    const external = /^<!ENTITY\s+(%\s+)?[^\s>]+\s+(SYSTEM|PUBLIC)\b/.test(declaration);
    return at(
      lineOf(src, doctype.index + entity.index),
      said(external ? 'import.problem.entityExternal' : 'import.problem.entity'),
    );
  }
  const v = XMLValidator.validate(src, { allowBooleanAttributes: true });
  if (v === true) return null;
  return at(v.err.line, v.err.msg);
}

/** Parses XML already found well formed; whatever the parser still refuses is a problem of the file. */
export function parseXml(
  parser: XMLParser,
  src: string,
  part?: string,
): { ok: true; doc: XmlNode } | { ok: false; error: RowError } {
  try {
    return { ok: true, doc: parser.parse(src) as XmlNode };
  } catch (err) {
    const doctype = src.search(/<!DOCTYPE/i);
    return {
      ok: false,
      error: {
        line: doctype >= 0 ? lineOf(src, doctype) : 1,
        ...(part ? { part } : {}),
        field: 'XML',
        message: (err as Error).message,
        scope: 'file',
      },
    };
  }
}

export interface ElementStart {
  line: number;
  /** Comments right before the element (Moodle writes `<!-- question: 12  -->` there). */
  comments: string[];
}

/** The line of each `<name` start tag, outside comments and CDATA, with the comments just before it. */
export function elementStarts(src: string, name: string): ElementStart[] {
  const out: ElementStart[] = [];
  let line = 1;
  let comments: string[] = [];
  const open = new RegExp(`^<(?:[A-Za-z_][\\w.-]*:)?${name}[\\s>/]`);
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c === '\n') {
      line++;
      continue;
    }
    if (c !== '<') continue;
    if (src.startsWith('<!--', i)) {
      const end = src.indexOf('-->', i + 4);
      const body = src.slice(i + 4, end < 0 ? src.length : end);
      comments.push(body.trim());
      for (const ch of body) if (ch === '\n') line++;
      i = end < 0 ? src.length : end + 2;
      continue;
    }
    if (src.startsWith('<![CDATA[', i)) {
      const end = src.indexOf(']]>', i);
      for (let j = i; j < (end < 0 ? src.length : end); j++) if (src[j] === '\n') line++;
      i = end < 0 ? src.length : end + 2;
      continue;
    }
    if (open.test(src.slice(i, i + name.length + 40))) {
      out.push({ line, comments });
      comments = [];
    } else if (
      src[i + 1] === '/' &&
      new RegExp(`^</(?:[A-Za-z_][\\w.-]*:)?${name}\\s*>`).test(src.slice(i, i + name.length + 40))
    ) {
      comments = [];
    }
  }
  return out;
}

/** The text of an element that may be a string, or an object with #text (when it has attributes). */
export function textOf(node: unknown): string {
  if (node === undefined || node === null) return '';
  if (typeof node === 'string') return node;
  if (typeof node === 'number' || typeof node === 'boolean') return String(node);
  if (Array.isArray(node)) return node.map(textOf).join('');
  const t = (node as XmlNode)['#text'];
  return t === undefined ? '' : textOf(t);
}

export const attrOf = (node: unknown, name: string): string | undefined => {
  if (!node || typeof node !== 'object') return undefined;
  const v = (node as XmlNode)[`@_${name}`];
  return v === undefined ? undefined : String(v);
};

export const asArray = <T>(v: T | T[] | undefined): T[] =>
  v === undefined ? [] : Array.isArray(v) ? v : [v];

/** Base64 to bytes, in Node and in a browser. */
export function fromBase64(s: string): Uint8Array {
  const clean = s.replace(/\s+/g, '');
  const bin = atob(clean);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

export function toBase64(bytes: Uint8Array): string {
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}

export const escapeXml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Text inside CDATA (a `]]>` in it is split across two sections). */
export const cdata = (s: string) => `<![CDATA[${s.replace(/]]>/g, ']]]]><![CDATA[>')}]]>`;
