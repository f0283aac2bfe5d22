import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import aws4 from 'aws4';
import { afterAll, describe, expect, it } from 'vitest';
import { isValidKey, LocalStorage, presignUrl, S3Storage, sniffImageType } from './storage';

const AWS_EXAMPLE = {
  accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
};

describe('the SigV4 presigner', () => {
  it("reproduces AWS's published example (S3 'Authenticating Requests: Using Query Parameters')", () => {
    const url = presignUrl({
      method: 'GET',
      url: 'https://examplebucket.s3.amazonaws.com/test.txt',
      region: 'us-east-1',
      ...AWS_EXAMPLE,
      expiresInSeconds: 86400,
      now: new Date('2013-05-24T00:00:00Z'),
    });
    expect(url).toBe(
      'https://examplebucket.s3.amazonaws.com/test.txt?X-Amz-Algorithm=AWS4-HMAC-SHA256' +
        '&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request' +
        '&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&X-Amz-SignedHeaders=host' +
        '&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404',
    );
  });

  it('addresses the bucket in the host on AWS and in the path elsewhere', () => {
    const aws = new S3Storage(
      { endpoint: 'https://s3.amazonaws.com', bucket: 'examplebucket', region: 'us-east-1', ...AWS_EXAMPLE },
      { defaultTtlSeconds: 86400, now: () => new Date('2013-05-24T00:00:00Z') },
    );
    expect(aws.objectUrl('test.txt')).toBe('https://examplebucket.s3.amazonaws.com/test.txt');
    const minio = new S3Storage(
      { endpoint: 'http://127.0.0.1:9000', bucket: 'awards', region: 'us-east-1', ...AWS_EXAMPLE },
      { defaultTtlSeconds: 300 },
    );
    expect(minio.objectUrl('certificates/abc.jpg')).toBe('http://127.0.0.1:9000/awards/certificates/abc.jpg');
  });

  it('signs the content type and the exact size into a presigned PUT and tells the uploader the type', async () => {
    const s3 = new S3Storage(
      {
        endpoint: 'https://s3.amazonaws.com',
        bucket: 'examplebucket',
        region: 'eu-west-1',
        ...AWS_EXAMPLE,
        publicUrl: 'https://cdn.example.com/',
      },
      { defaultTtlSeconds: 300, now: () => new Date('2026-01-01T00:00:00Z') },
    );
    const up = await s3.presignUpload('certificates/abc.jpg', {
      contentType: 'image/jpeg',
      maxBytes: 1000,
      size: 700,
    });
    const u = new URL(up.url);
    expect(u.host).toBe('examplebucket.s3.amazonaws.com');
    expect(u.pathname).toBe('/certificates/abc.jpg');
    expect(u.searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;content-type;host');
    expect(u.searchParams.get('X-Amz-Expires')).toBe('300');
    expect(u.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    expect(up.headers).toEqual({ 'content-type': 'image/jpeg' });
    expect(up.expiresAt.toISOString()).toBe('2026-01-01T00:05:00.000Z');
    expect(s3.publicUrl('certificates/abc.jpg')).toBe('https://cdn.example.com/certificates/abc.jpg');
    // a different content type gives a different signature
    const png = await s3.presignUpload('certificates/abc.jpg', {
      contentType: 'image/png',
      maxBytes: 1000,
      size: 700,
    });
    expect(new URL(png.url).searchParams.get('X-Amz-Signature')).not.toBe(
      u.searchParams.get('X-Amz-Signature'),
    );
    // the same address from an independent SigV4 implementation (the aws4 package)
    const signed = aws4.sign(
      {
        host: 'examplebucket.s3.amazonaws.com',
        path: '/certificates/abc.jpg?X-Amz-Expires=300&X-Amz-Date=20260101T000000Z',
        method: 'PUT',
        service: 's3',
        region: 'eu-west-1',
        signQuery: true,
        headers: { 'Content-Type': 'image/jpeg', 'Content-Length': '700' },
      },
      AWS_EXAMPLE,
    );
    const theirs = new URL(`https://examplebucket.s3.amazonaws.com${signed.path}`);
    expect(theirs.searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;content-type;host');
    expect(u.searchParams.get('X-Amz-Signature')).toBe(theirs.searchParams.get('X-Amz-Signature'));
  });

  it('will not presign a PUT without the exact size, or with one over the limit', async () => {
    const s3 = new S3Storage(
      { endpoint: 'https://s3.amazonaws.com', bucket: 'examplebucket', region: 'eu-west-1', ...AWS_EXAMPLE },
      { defaultTtlSeconds: 300 },
    );
    await expect(s3.presignUpload('a.jpg', { contentType: 'image/jpeg', maxBytes: 1000 })).rejects.toThrow(
      /exact size/,
    );
    await expect(
      s3.presignUpload('a.jpg', { contentType: 'image/jpeg', maxBytes: 1000, size: 1001 }),
    ).rejects.toThrow(/exact size/);
  });

  it('checks an uploaded object with signed HEAD and ranged GET requests', async () => {
    const calls: { url: string; method: string; range?: string }[] = [];
    const fakeFetch = (async (input: string | URL | Request, init?: RequestInit) => {
      const url = String(input);
      const headers = new Headers(init?.headers);
      calls.push({ url, method: init?.method ?? 'GET', range: headers.get('range') ?? undefined });
      if ((init?.method ?? 'GET') === 'HEAD')
        return new Response(null, {
          status: 200,
          headers: { 'content-length': '1234', 'content-type': 'image/jpeg' },
        });
      return new Response(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]), { status: 206 });
    }) as typeof fetch;
    const s3 = new S3Storage(
      { endpoint: 'http://127.0.0.1:9000', bucket: 'b', region: 'us-east-1', ...AWS_EXAMPLE },
      { defaultTtlSeconds: 300, fetch: fakeFetch },
    );
    expect(await s3.stat('certificates/x.jpg')).toEqual({ size: 1234, contentType: 'image/jpeg' });
    expect(sniffImageType((await s3.readPrefix('certificates/x.jpg', 12))!)).toBe('image/jpeg');
    expect(calls[0]!.url).toContain('X-Amz-Signature=');
    expect(calls[1]!.range).toBe('bytes=0-11');
  });
});

describe('local storage', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wm-storage-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let clock = Date.UTC(2026, 0, 1);
  const local = new LocalStorage({
    dir,
    publicUrl: 'http://127.0.0.1:8080',
    secret: 'test-secret-test-secret-test-secret',
    defaultTtlSeconds: 300,
    now: () => clock,
  });

  /** The query as the request carries it: text. */
  const params = (url: string) => Object.fromEntries(new URL(url).searchParams) as Record<string, string>;

  it('signs upload URLs served by the API and accepts them until they expire', async () => {
    const up = await local.presignUpload('certificates/abc.jpg', {
      contentType: 'image/jpeg',
      maxBytes: 10_000_000,
    });
    expect(up.url.startsWith('http://127.0.0.1:8080/api/storage/upload?')).toBe(true);
    const p = params(up.url);
    expect(p.max).toBe(String(5 * 1024 * 1024));
    expect(local.verifyUpload(p)).toMatchObject({ ok: true, grant: { key: 'certificates/abc.jpg' } });
    clock += 301_000;
    expect(local.verifyUpload(p)).toMatchObject({ ok: false, reason: 'expired' });
    clock -= 301_000;
  });

  it('refuses any tampered parameter', async () => {
    const p = params(
      (await local.presignUpload('certificates/abc.jpg', { contentType: 'image/jpeg', maxBytes: 1000 })).url,
    );
    expect(local.verifyUpload({ ...p, key: 'certificates/other.jpg' })).toMatchObject({
      reason: 'signature',
    });
    expect(local.verifyUpload({ ...p, max: '5000000' })).toMatchObject({ reason: 'signature' });
    expect(local.verifyUpload({ ...p, max: `0${p.max}` })).toMatchObject({ reason: 'signature' });
    expect(local.verifyUpload({ ...p, size: '10' })).toMatchObject({ reason: 'signature' });
    expect(local.verifyUpload({ ...p, extra: '1' })).toMatchObject({ reason: 'signature' });
    expect(local.verifyUpload({ ...p, max: [p.max!, '5000000'] })).toMatchObject({ reason: 'signature' });
    expect(local.verifyUpload({ ...p, ct: 'image/png' })).toMatchObject({ reason: 'signature' });
    expect(local.verifyUpload({ ...p, expires: String(Number(p.expires) + 3600) })).toMatchObject({
      reason: 'signature',
    });
    expect(local.verifyUpload({ ...p, sig: 'ab' })).toMatchObject({ reason: 'signature' });
    expect(local.verifyUpload({ ...p, key: '../secrets/jwt' })).toMatchObject({ reason: 'key' });
  });

  it('writes, stats, reads and removes files inside its folder only', async () => {
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
    await local.write('certificates/abc.jpg', jpeg);
    expect(await local.stat('certificates/abc.jpg')).toEqual({ size: 7, contentType: 'image/jpeg' });
    expect(await local.readPrefix('certificates/abc.jpg', 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect(local.publicUrl('certificates/abc.jpg')).toBe('http://127.0.0.1:8080/files/certificates/abc.jpg');
    await local.remove('certificates/abc.jpg');
    expect(await local.stat('certificates/abc.jpg')).toBeNull();
    expect(await local.readPrefix('certificates/abc.jpg', 3)).toBeNull();
    expect(() => local.pathOf('../x.jpg')).toThrow();
    expect(isValidKey('/etc/passwd')).toBe(false);
    expect(isValidKey('a/./b.jpg')).toBe(false);
  });

  it('knows images by their magic bytes', () => {
    expect(sniffImageType(Buffer.from([0xff, 0xd8, 0xff, 0xdb]))).toBe('image/jpeg');
    expect(sniffImageType(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe('image/png');
    expect(sniffImageType(Buffer.from('RIFF\0\0\0\0WEBPVP8 ', 'latin1'))).toBe('image/webp');
    expect(sniffImageType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg">'))).toBeNull();
    expect(sniffImageType(Buffer.alloc(0))).toBeNull();
  });
});
