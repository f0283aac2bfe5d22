/**
 * What an image file is, from its bytes: jpeg, png or webp (the types Waymark stores), and its size in
 * pixels, so the editor's rules can be checked before anything is uploaded. The type is told by the
 * files' signatures (one place for the whole product: the server's uploads use it too); the size is read
 * by image-size's parsers for the three types (imported one by one, so a browser bundle carries only them).
 */
import { JPG } from 'image-size/types/jpg';
import { PNG } from 'image-size/types/png';
import { WEBP } from 'image-size/types/webp';

export type ImageKind = 'jpeg' | 'png' | 'webp';

/** The MIME type of each kind, as uploads and stored files carry it. */
export const IMAGE_MIME_TYPES = { jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp' } as const;
export type ImageMimeType = (typeof IMAGE_MIME_TYPES)[ImageKind];

export interface ImageInfo {
  kind: ImageKind;
  width: number | null;
  height: number | null;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const latin1 = (b: Uint8Array, from: number, to: number) => String.fromCharCode(...b.subarray(from, to));

/** The kind of image the first bytes say a file is (12 bytes are enough), or null. */
export function imageKind(head: Uint8Array): ImageKind | null {
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
  if (head.length >= 8 && PNG_SIGNATURE.every((b, i) => head[i] === b)) return 'png';
  if (head.length >= 12 && latin1(head, 0, 4) === 'RIFF' && latin1(head, 8, 12) === 'WEBP') return 'webp';
  return null;
}

const SIZE_READERS = { jpeg: JPG, png: PNG, webp: WEBP };

/** The image's type and size, or null when the bytes are not a jpeg, png or webp image. */
export function imageInfo(bytes: Uint8Array): ImageInfo | null {
  const kind = imageKind(bytes);
  if (!kind) return null;
  // image-size reads through a DataView over the whole underlying buffer: a view into a larger one (a Node
  // Buffer from the shared pool, a subarray) would let it read past the file's end, so it gets its own copy
  // (new Uint8Array copies; a Buffer's slice would not)
  const own =
    bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : new Uint8Array(bytes);
  try {
    const { width, height } = SIZE_READERS[kind].calculate(own);
    return { kind, width: width || null, height: height || null };
  } catch {
    // the type is right but the file is cut short or its header is damaged: no size to check
    return { kind, width: null, height: null };
  }
}
