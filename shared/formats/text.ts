/**
 * The text of a file whatever wrote it: UTF-8 with or without a byte-order mark, UTF-16 (little or big
 * endian, with a mark or recognised by its zero bytes), or, when the bytes are not UTF-8, Windows-1252 (what
 * Excel and Notepad write on Western-European Windows; a superset of Latin-1's printable characters), with
 * a note saying so, since that is a guess a person should be able to check.
 *
 * Decoding uses the platform's TextDecoder (Node and every browser carry these encodings), so the CLI and
 * the portal read a file the same way.
 */
import { type Said, said } from './problems';

export type TextEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';
type Decodable = Exclude<TextEncoding, 'windows-1252'>;

export interface DecodedText {
  text: string;
  encoding: TextEncoding;
  /** Whether the file started with a byte-order mark. */
  bom: boolean;
  /** Said to the person when the encoding was a guess (Windows-1252). */
  note?: Said;
}

const decode = (encoding: Decodable, bytes: Uint8Array, fatal = false) =>
  new TextDecoder(encoding, { fatal, ignoreBOM: false }).decode(bytes);

/** UTF-16 without a mark: mostly ASCII text has a zero in every other byte. */
function utf16Without(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  const n = Math.min(bytes.length, 4096) & ~1;
  if (n < 4) return null;
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i < n; i += 2) {
    if (bytes[i] === 0) evenZeros++;
    if (bytes[i + 1] === 0) oddZeros++;
  }
  const pairs = n / 2;
  if (oddZeros > pairs * 0.4 && evenZeros < pairs * 0.05) return 'utf-16le';
  if (evenZeros > pairs * 0.4 && oddZeros < pairs * 0.05) return 'utf-16be';
  return null;
}

/** Decodes a file's bytes, detecting the encoding. */
export function decodeText(bytes: Uint8Array): DecodedText {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return { text: decode('utf-8', bytes), encoding: 'utf-8', bom: true };
  }
  if (bytes[0] === 0xff && bytes[1] === 0xfe)
    return { text: decode('utf-16le', bytes), encoding: 'utf-16le', bom: true };
  if (bytes[0] === 0xfe && bytes[1] === 0xff)
    return { text: decode('utf-16be', bytes), encoding: 'utf-16be', bom: true };
  const wide = utf16Without(bytes);
  if (wide) return { text: decode(wide, bytes), encoding: wide, bom: false };
  try {
    return { text: decode('utf-8', bytes, true), encoding: 'utf-8', bom: false };
  } catch {
    const text = decodeWindows1252(bytes);
    const sample = firstNonAscii(text);
    return {
      text,
      encoding: 'windows-1252',
      bom: false,
      note: sample
        ? said('import.problem.windows1252Sample', { sample })
        : said('import.problem.windows1252'),
    };
  }
}

/** Windows-1252's characters at 0x80–0x9F (the rest of its upper half is Latin-1's). */
const CP1252_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';

/**
 * Windows-1252 by its table: Node 20's TextDecoder decodes the label as ISO-8859-1 and loses €, “ ” and
 * the dashes Excel writes; browsers follow the table. One decoder here, so both read the same text.
 */
export function decodeWindows1252(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 0x4000) {
    const chunk = bytes.subarray(i, i + 0x4000);
    out += String.fromCharCode(
      ...Array.from(chunk, (b) => (b >= 0x80 && b <= 0x9f ? CP1252_HIGH.charCodeAt(b - 0x80) : b)),
    );
  }
  return out;
}

/** The first word with a character outside ASCII, to show the person how the guess reads. */
function firstNonAscii(text: string): string | null {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the ASCII range is the point
  const m = /[^\s]*[^\x00-\x7f][^\s]*/.exec(text);
  return m ? m[0].slice(0, 40) : null;
}
