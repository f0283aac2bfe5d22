/**
 * What an image file is, from its bytes: jpeg, png or webp (the types the question editor accepts), and its
 * size in pixels, so the editor's rules can be checked before anything is uploaded.
 */

export type ImageKind = 'jpeg' | 'png' | 'webp';

export interface ImageInfo {
  kind: ImageKind;
  width: number | null;
  height: number | null;
}

/** The image's type and size, or null when the bytes are not a jpeg, png or webp image. */
export function imageInfo(bytes: Uint8Array): ImageInfo | null {
  const b = new Bytes(bytes);
  if (b.length >= 24 && b.readUInt32BE(0) === 0x89504e47 && b.readUInt32BE(4) === 0x0d0a1a0a) {
    // the IHDR chunk comes first: width and height at 16 and 20
    return { kind: 'png', width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
  }
  if (b.length >= 3 && b.at(0) === 0xff && b.at(1) === 0xd8 && b.at(2) === 0xff) {
    return { kind: 'jpeg', ...jpegSize(b) };
  }
  if (b.length >= 12 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP') {
    return { kind: 'webp', ...webpSize(b) };
  }
  return null;
}

/** Walks the JPEG segments to the first start-of-frame marker, which holds the size. */
function jpegSize(b: Bytes): { width: number | null; height: number | null } {
  let i = 2;
  while (i + 9 < b.length) {
    if (b.at(i) !== 0xff) {
      i++;
      continue;
    }
    const marker = b.at(i + 1)!;
    if (marker === 0xff) {
      i++;
      continue;
    }
    // standalone markers without a length
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2;
      continue;
    }
    const length = b.readUInt16BE(i + 2);
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) return { height: b.readUInt16BE(i + 5), width: b.readUInt16BE(i + 7) };
    i += 2 + length;
  }
  return { width: null, height: null };
}

function webpSize(b: Bytes): { width: number | null; height: number | null } {
  const chunk = b.toString('latin1', 12, 16);
  if (chunk === 'VP8X' && b.length >= 30) {
    return { width: 1 + b.readUIntLE(24, 3), height: 1 + b.readUIntLE(27, 3) };
  }
  if (chunk === 'VP8L' && b.length >= 25 && b.at(20) === 0x2f) {
    const bits = b.readUInt32LE(21);
    return { width: 1 + (bits & 0x3fff), height: 1 + ((bits >> 14) & 0x3fff) };
  }
  if (chunk === 'VP8 ' && b.length >= 30) {
    return { width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff };
  }
  return { width: null, height: null };
}

/** The few reads of Node's Buffer used here, over any Uint8Array (so this runs in a browser too). */
class Bytes {
  private readonly view: DataView;
  readonly length: number;
  constructor(private readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.length = bytes.byteLength;
  }
  at(i: number) {
    return this.bytes[i];
  }
  readUInt32BE(i: number) {
    return this.view.getUint32(i, false);
  }
  readUInt32LE(i: number) {
    return this.view.getUint32(i, true);
  }
  readUInt16BE(i: number) {
    return this.view.getUint16(i, false);
  }
  readUInt16LE(i: number) {
    return this.view.getUint16(i, true);
  }
  readUIntLE(i: number, n: 3) {
    return this.view.getUint16(i, true) + (this.view.getUint8(i + n - 1) << 16);
  }
  toString(_enc: 'latin1', from: number, to: number) {
    return String.fromCharCode(...this.bytes.subarray(from, to));
  }
}
