import { describe, expect, it } from 'vitest';
import { png } from '../../cli/test/images';
import { imageInfo } from './image';

/** A JPEG's first segments: SOI, an APP0 segment, then a baseline start-of-frame with the size. */
function jpeg(width: number, height: number): Buffer {
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, ...Buffer.from('JFIF\0'), 1, 1, 0, 0, 1, 0, 1, 0, 0]);
  const sof = Buffer.alloc(19);
  sof.set([0xff, 0xc0, 0x00, 0x11, 0x08]);
  sof.writeUInt16BE(height, 5);
  sof.writeUInt16BE(width, 7);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof, Buffer.from([0xff, 0xd9])]);
}

function webp(chunk: 'VP8X' | 'VP8L' | 'VP8 ', width: number, height: number): Buffer {
  const b = Buffer.alloc(40);
  b.write('RIFF', 0, 'latin1');
  b.write('WEBP', 8, 'latin1');
  b.write(chunk, 12, 'latin1');
  if (chunk === 'VP8X') {
    b.writeUIntLE(width - 1, 24, 3);
    b.writeUIntLE(height - 1, 27, 3);
  } else if (chunk === 'VP8L') {
    b[20] = 0x2f;
    b.writeUInt32LE(((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14), 21);
  } else {
    b.writeUInt16LE(width, 26);
    b.writeUInt16LE(height, 28);
  }
  return b;
}

describe('reading an image file', () => {
  it('knows png, jpeg and webp, and their size in pixels', () => {
    expect(imageInfo(png(1200, 400))).toEqual({ kind: 'png', width: 1200, height: 400 });
    expect(imageInfo(jpeg(1200, 400))).toEqual({ kind: 'jpeg', width: 1200, height: 400 });
    expect(imageInfo(webp('VP8X', 1200, 400))).toEqual({ kind: 'webp', width: 1200, height: 400 });
    expect(imageInfo(webp('VP8L', 640, 480))).toEqual({ kind: 'webp', width: 640, height: 480 });
    expect(imageInfo(webp('VP8 ', 300, 100))).toEqual({ kind: 'webp', width: 300, height: 100 });
  });

  it('refuses anything else', () => {
    expect(imageInfo(Buffer.from('GIF89a……'))).toBeNull();
    expect(imageInfo(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    expect(imageInfo(Buffer.alloc(0))).toBeNull();
  });

  it('knows the type of a file cut short before its size, and says it has no size', () => {
    const cut = jpeg(1200, 400).subarray(0, 22);
    expect(imageInfo(cut)).toEqual({ kind: 'jpeg', width: null, height: null });
    expect(imageInfo(webp('VP8X', 1200, 400).subarray(0, 16))).toEqual({
      kind: 'webp',
      width: null,
      height: null,
    });
  });
});
