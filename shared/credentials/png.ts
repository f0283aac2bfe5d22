/**
 * Baked images (Open Badges 3.0, §5.3 "Baking"): a PNG carries its credential in an iTXt chunk whose
 * keyword is `openbadgecredential`, uncompressed, with no language tag or translated keyword, and whose text
 * is the credential (JSON, or a compact JWS). A PNG holds at most one such chunk: baking replaces any
 * earlier one. Pure code on bytes, used by the award page (baking), the verify page and the CLI (reading).
 */

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
export const BAKED_KEYWORD = 'openbadgecredential';

export class NotAPng extends Error {
  override name = 'NotAPng';
}

let crcTable: Uint32Array | null = null;

/** CRC-32 as PNG computes it (ISO 3309 / ITU-T V.42). */
export function crc32(bytes: Uint8Array, start = 0, end = bytes.length): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (let i = start; i < end; i++) crc = crcTable[(crc ^ bytes[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

export function isPng(bytes: Uint8Array): boolean {
  return bytes.length >= 8 && SIGNATURE.every((b, i) => bytes[i] === b);
}

interface Chunk {
  type: string;
  start: number;
  /** Index after the chunk's CRC. */
  end: number;
  dataStart: number;
  dataEnd: number;
}

function chunks(bytes: Uint8Array): Chunk[] {
  if (!isPng(bytes)) throw new NotAPng('This file is not a PNG image.');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out: Chunk[] = [];
  let at = 8;
  while (at + 12 <= bytes.length) {
    const length = view.getUint32(at);
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    const dataStart = at + 8;
    const dataEnd = dataStart + length;
    if (dataEnd + 4 > bytes.length)
      throw new NotAPng('This PNG image is cut short (a chunk runs past its end).');
    out.push({ type, start: at, end: dataEnd + 4, dataStart, dataEnd });
    at = dataEnd + 4;
    if (type === 'IEND') break;
  }
  if (out[0]?.type !== 'IHDR' || out.at(-1)?.type !== 'IEND') {
    throw new NotAPng('This PNG image is incomplete (no IHDR or IEND chunk).');
  }
  return out;
}

const latin1 = (bytes: Uint8Array) => String.fromCharCode(...bytes);

/**
 * The credential text baked into a PNG, or null when it has none. Throws NotAPng for a file that is not a
 * PNG. A compressed chunk (flag 1) is read with the platform's DecompressionStream.
 */
export async function readBakedCredential(bytes: Uint8Array): Promise<string | null> {
  for (const chunk of chunks(bytes)) {
    if (chunk.type !== 'iTXt') continue;
    const data = bytes.subarray(chunk.dataStart, chunk.dataEnd);
    const keywordEnd = data.indexOf(0);
    if (keywordEnd < 0 || latin1(data.subarray(0, keywordEnd)) !== BAKED_KEYWORD) continue;
    const compressed = data[keywordEnd + 1] === 1;
    // keyword \0 flag method language \0 translated \0 text
    const languageEnd = data.indexOf(0, keywordEnd + 3);
    const translatedEnd = languageEnd < 0 ? -1 : data.indexOf(0, languageEnd + 1);
    if (translatedEnd < 0) throw new NotAPng('The PNG image has a damaged openbadgecredential chunk.');
    const text = data.subarray(translatedEnd + 1);
    if (!compressed) return new TextDecoder().decode(text);
    const stream = new Blob([text.slice()]).stream().pipeThrough(new DecompressionStream('deflate'));
    return new TextDecoder().decode(new Uint8Array(await new Response(stream).arrayBuffer()));
  }
  return null;
}

/** The PNG with `credential` baked in (replacing any credential it held), placed before IEND. */
export function bakeCredential(bytes: Uint8Array, credential: string): Uint8Array {
  const list = chunks(bytes);
  const kept = list.filter((chunk) => {
    if (chunk.type !== 'iTXt') return true;
    const data = bytes.subarray(chunk.dataStart, chunk.dataEnd);
    const keywordEnd = data.indexOf(0);
    return latin1(data.subarray(0, Math.max(0, keywordEnd))) !== BAKED_KEYWORD;
  });
  const text = new TextEncoder().encode(credential);
  const keyword = new TextEncoder().encode(BAKED_KEYWORD);
  // keyword \0, compression flag 0, method 0, empty language tag \0, empty translated keyword \0
  const data = new Uint8Array(keyword.length + 5 + text.length);
  data.set(keyword, 0);
  data.set([0, 0, 0, 0, 0], keyword.length);
  data.set(text, keyword.length + 5);
  const chunk = new Uint8Array(12 + data.length);
  const view = new DataView(chunk.buffer);
  view.setUint32(0, data.length);
  chunk.set([0x69, 0x54, 0x58, 0x74], 4); // iTXt
  chunk.set(data, 8);
  view.setUint32(8 + data.length, crc32(chunk, 4, 8 + data.length));

  const parts: Uint8Array[] = [bytes.subarray(0, 8)];
  for (const c of kept) {
    if (c.type === 'IEND') parts.push(chunk);
    parts.push(bytes.subarray(c.start, c.end));
  }
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
