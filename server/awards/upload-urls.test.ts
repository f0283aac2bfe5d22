/**
 * Signed upload addresses, as an attacker holding one would try them. Every parameter that constrains an
 * upload — the key, the content type, the size limit, the exact size when the uploader declared it, the
 * expiry — is covered by the signature byte for byte: any change to the address (a raised limit, the same
 * number written another way, a repeated or an added parameter) is refused with 4xx and nothing is
 * written. With S3 storage the exact size is signed into the presigned PUT as its Content-Length.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authoringApi } from '../test/fixtures/authoring';
import type { Person } from '../test/harness';
import { setupServer, TestServer } from '../test/helper';

const server = setupServer();
const api = authoringApi(server);

/** A PNG of `n` bytes: the signature, then padding. */
const png = (n: number) =>
  Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(n - 8)]);

const put = (url: string, body: Buffer, type = 'image/png') => {
  const u = new URL(url);
  return server.app.inject({
    method: 'PUT',
    url: `${u.pathname}${u.search}`,
    headers: { 'content-type': type },
    payload: body,
  });
};

/** The address with one parameter's raw text replaced (or added, or removed). */
function tampered(url: string, name: string, value: string | null, mode: 'replace' | 'append' = 'replace') {
  const [base, query] = url.split('?') as [string, string];
  if (mode === 'append') return `${base}?${query}&${name}=${value}`;
  const parts = query.split('&').flatMap((p) => {
    if (!p.startsWith(`${name}=`)) return [p];
    return value === null ? [] : [`${name}=${value}`];
  });
  return `${base}?${parts.join('&')}`;
}

describe('signed upload addresses (local storage)', () => {
  let mentor: Person;
  let questionId: string;
  const signedUrl = async (size?: number) => {
    const res = await api.call('POST', '/admin/question/signed-url', mentor, {
      type: 'question',
      questionId,
      fileType: 'png',
      ...(size === undefined ? {} : { size }),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data as { url: string; path: string };
  };
  const stored = (path: string) =>
    existsSync(join(server.config.storage.dir, new URL(path).pathname.replace(/^\/files\//, '')));

  beforeAll(async () => {
    mentor = await api.person('TENANT', 'Uma Uploader');
    questionId = await api.createQuestion(mentor);
  });

  it('takes the image it was signed for', async () => {
    const { url, path } = await signedUrl();
    const res = await put(url, png(200));
    expect(res.statusCode).toBe(200);
    expect(stored(path)).toBe(true);
  });

  it('refuses every change to the address, writing nothing', async () => {
    const { url, path } = await signedUrl();
    const q = new URL(url).searchParams;
    const max = q.get('max')!;
    const expires = q.get('expires')!;
    const attempts: [string, string][] = [
      ['a raised size limit', tampered(url, 'max', String(5 * 1024 * 1024))],
      ['the limit with a leading zero', tampered(url, 'max', `0${max}`)],
      ['the limit as a decimal', tampered(url, 'max', `${max}.0`)],
      ['the limit with an exponent', tampered(url, 'max', `${max}e0`)],
      ['a later expiry', tampered(url, 'expires', String(Number(expires) + 3600))],
      ['the expiry with a leading zero', tampered(url, 'expires', `0${expires}`)],
      ['another key', tampered(url, 'key', encodeURIComponent(`questions/${questionId}/other.png`))],
      ['another type', tampered(url, 'ct', encodeURIComponent('image/jpeg'))],
      ['a declared size added', tampered(url, 'size', '200', 'append')],
      ['a repeated limit', tampered(url, 'max', String(5 * 1024 * 1024), 'append')],
      ['an added parameter', tampered(url, 'note', 'x', 'append')],
      ['the limit removed', tampered(url, 'max', null)],
      ['another signature', tampered(url, 'sig', 'a'.repeat(64))],
    ];
    for (const [what, address] of attempts) {
      const res = await put(address, png(200), what === 'another type' ? 'image/jpeg' : 'image/png');
      expect(res.statusCode, `${what}: ${res.body}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, what).toBeLessThan(500);
    }
    expect(stored(path)).toBe(false);
  });

  it('signs the exact size the uploader declared: another size, or a changed one, is refused', async () => {
    const { url, path } = await signedUrl(300);
    expect(new URL(url).searchParams.get('size')).toBe('300');
    expect((await put(url, png(301))).statusCode).toBe(400);
    expect((await put(url, png(299))).statusCode).toBe(400);
    for (const address of [tampered(url, 'size', '301'), tampered(url, 'size', null)]) {
      expect((await put(address, png(301))).statusCode).toBe(403);
    }
    expect(stored(path)).toBe(false);
    expect((await put(url, png(300))).statusCode).toBe(200);
    expect(stored(path)).toBe(true);
  });

  it('refuses to sign for a declared size over the limit, naming the field', async () => {
    const res = await api.call('POST', '/admin/question/signed-url', mentor, {
      type: 'question',
      questionId,
      fileType: 'png',
      size: 3 * 1024 * 1024,
    });
    expect(res.status).toBe(413);
    expect(res.body.field).toBe('size');
  });
});

describe('signed upload addresses (S3 storage)', () => {
  const s3 = new TestServer({
    env: {
      S3_BUCKET: 'waymark-test',
      S3_ENDPOINT: 'http://127.0.0.1:9',
      S3_ACCESS_KEY_ID: 'AKIAIOSFODNN7EXAMPLE',
      S3_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    },
  });
  const s3api = authoringApi(s3);
  let mentor: Person;
  let questionId: string;
  beforeAll(async () => {
    await s3.start();
    mentor = await s3api.person('TENANT', 'Sam Storage');
    questionId = await s3api.createQuestion(mentor);
  }, 120_000);
  afterAll(() => s3.close());

  it('signs the content type and the declared size into the presigned PUT', async () => {
    const res = await s3api.call('POST', '/admin/question/signed-url', mentor, {
      type: 'question',
      questionId,
      fileType: 'png',
      size: 1234,
    });
    expect(res.status).toBe(200);
    const u = new URL(res.body.data.url);
    expect(u.searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;content-type;host');
  });

  it('will not hand out an address whose size nobody signed', async () => {
    const res = await s3api.call('POST', '/admin/question/signed-url', mentor, {
      type: 'question',
      questionId,
      fileType: 'png',
    });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('size');
  });
});
