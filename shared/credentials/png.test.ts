/**
 * Baking (OB 3.0 §5.3): the credential goes into an iTXt chunk keyed `openbadgecredential`, and the image
 * stays a valid PNG. Checked with independent PNG libraries from npm: pngjs decodes the baked image (and
 * checks every chunk's CRC), png-chunks-extract lists its chunks, and the iTXt fields are read as the PNG
 * specification lays them out.
 */
// @ts-nocheck the PNG libraries ship no types
import extract from 'png-chunks-extract';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { BAKED_KEYWORD, bakeCredential, readBakedCredential } from './png';
import { credentialFromFile } from './text';

function tinyPng(): Uint8Array {
  const png = new PNG({ width: 3, height: 2 });
  png.data.fill(200);
  return new Uint8Array(PNG.sync.write(png));
}

const CREDENTIAL = JSON.stringify({
  '@context': ['https://www.w3.org/ns/credentials/v2'],
  name: 'Feather: Café “Ü”',
});

describe('baked PNG images', () => {
  it('holds the credential in one uncompressed iTXt chunk keyed openbadgecredential, before IEND', async () => {
    const baked = bakeCredential(tinyPng(), CREDENTIAL);
    const decoded = PNG.sync.read(Buffer.from(baked), { checkCRC: true });
    expect([decoded.width, decoded.height]).toEqual([3, 2]);
    const chunks = extract(baked);
    expect(chunks.at(-2).name).toBe('iTXt');
    expect(chunks.at(-1).name).toBe('IEND');
    const data = Buffer.from(chunks.at(-2).data);
    // keyword, NUL, compression flag 0, compression method 0, empty language tag, NUL, empty translated keyword, NUL
    const keywordEnd = data.indexOf(0);
    expect(data.subarray(0, keywordEnd).toString('latin1')).toBe(BAKED_KEYWORD);
    expect([...data.subarray(keywordEnd, keywordEnd + 5)]).toEqual([0, 0, 0, 0, 0]);
    expect(data.subarray(keywordEnd + 5).toString('utf8')).toBe(CREDENTIAL);
    expect(await readBakedCredential(baked)).toBe(CREDENTIAL);
  });

  it('replaces an earlier credential rather than adding a second', async () => {
    const twice = bakeCredential(bakeCredential(tinyPng(), '{"old":1}'), CREDENTIAL);
    expect(extract(twice).filter((c) => c.name === 'iTXt')).toHaveLength(1);
    expect(await readBakedCredential(twice)).toBe(CREDENTIAL);
  });

  it('reads a compressed chunk too, and says clearly when there is no credential or no PNG', async () => {
    const { deflateSync } = await import('node:zlib');
    const plain = tinyPng();
    const compressed = Buffer.concat([
      Buffer.from(`${BAKED_KEYWORD}\0\x01\0\0\0`, 'latin1'),
      deflateSync(CREDENTIAL),
    ]);
    const encode = (await import('png-chunks-encode')).default;
    const chunks = extract(plain);
    chunks.splice(-1, 0, { name: 'iTXt', data: new Uint8Array(compressed) });
    expect(await readBakedCredential(new Uint8Array(encode(chunks)))).toBe(CREDENTIAL);

    expect(await readBakedCredential(plain)).toBeNull();
    const none = await credentialFromFile(plain);
    expect(none).toEqual({
      ok: false,
      problem: expect.stringMatching(/holds no credential/),
      said: expect.objectContaining({ code: 'verify.read.pngEmpty' }),
    });
    const jpeg = await credentialFromFile(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2]));
    expect(jpeg).toEqual({
      ok: false,
      problem: expect.stringMatching(/JPEG/),
      said: expect.objectContaining({ code: 'verify.read.jpeg' }),
    });
    const cut = await credentialFromFile(plain.subarray(0, 20));
    expect(cut).toEqual({
      ok: false,
      problem: expect.stringMatching(/cut short|incomplete/),
      said: expect.objectContaining({ code: 'verify.read.notPng' }),
    });
    expect(await credentialFromFile(new TextEncoder().encode(CREDENTIAL))).toMatchObject({ ok: true });
  });
});
