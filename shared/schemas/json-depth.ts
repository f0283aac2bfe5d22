/**
 * How deep JSON may nest. JSON.parse reads any depth, but JSON.stringify, JSON-LD processing and any
 * recursive walk of the value throw a RangeError (the call stack) somewhere past a few thousand levels: a
 * body or a document nested deeper than anything legitimate is refused before anything walks it. The
 * deepest legitimate JSON here is a credential (JSON-LD, about 6 levels: credential → subject →
 * achievement → criteria …); 64 leaves ten times that.
 */

export const MAX_JSON_DEPTH = 64;

/** The words of the refusal: 'nests deeper than 64 levels'. */
export const TOO_DEEP = `nests deeper than ${MAX_JSON_DEPTH} levels`;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Whether JSON text nests objects and arrays deeper than `max`, read without parsing (brackets inside
 * strings do not count). Linear, no recursion; a text shorter than 2 × (max + 1) cannot, and is not read.
 */
export function jsonTextTooDeep(text: string, max = MAX_JSON_DEPTH): boolean {
  if (text.length < 2 * (max + 1)) return false;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // to the closing quote: one not escaped by an odd run of backslashes
      let end = text.indexOf('"', i + 1);
      while (end !== -1) {
        let slashes = 0;
        while (text.charCodeAt(end - 1 - slashes) === BACKSLASH) slashes++;
        if (slashes % 2 === 0) break;
        end = text.indexOf('"', end + 1);
      }
      if (end === -1) return false; // not JSON: the parser says so
      i = end;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/**
 * Whether a value (parsed JSON, or anything of objects and arrays) nests deeper than `max`; no recursion.
 * A value that contains itself counts as endlessly deep.
 */
export function jsonValueTooDeep(value: unknown, max = MAX_JSON_DEPTH): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth + 1 > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}
