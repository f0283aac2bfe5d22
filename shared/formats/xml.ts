/** XML helpers of the Moodle XML and QTI readers: a parser set up once, and where elements start. */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { RowError } from './record';

export type XmlNode = Record<string, unknown>;

export function xmlParser(arrays: readonly string[]) {
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
  });
}

/** A syntax error of the XML, with its line, or null when it is well formed. */
export function xmlSyntaxError(src: string, part?: string): RowError | null {
  const v = XMLValidator.validate(src, { allowBooleanAttributes: true });
  if (v === true) return null;
  return { line: v.err.line, ...(part ? { part } : {}), field: 'XML', message: v.err.msg };
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
