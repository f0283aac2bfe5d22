import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { setupServer } from '../test/helper';

// a built portal as scripts/build.mjs leaves it: files with their compressed copies beside them
const staticDir = mkdtempSync(join(tmpdir(), 'waymark-static-'));
const script = `console.log(${JSON.stringify('Waymark '.repeat(400))});`;
mkdirSync(join(staticDir, 'portal', 'assets'), { recursive: true });
writeFileSync(join(staticDir, 'portal', 'index.html'), '<!doctype html><title>Waymark</title>');
writeFileSync(join(staticDir, 'portal', 'assets', 'index-abc.js'), script);
writeFileSync(join(staticDir, 'portal', 'assets', 'index-abc.js.br'), brotliCompressSync(script));
writeFileSync(join(staticDir, 'portal', 'assets', 'index-abc.js.gz'), gzipSync(script));

const server = setupServer({ env: { STATIC_DIR: staticDir } });

describe("the portal's files", () => {
  it('go compressed to browsers that accept it, from the copies made at build time', async () => {
    const res = await server.app.inject({
      method: 'GET',
      url: '/assets/index-abc.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
    expect(res.headers['cache-control']).toContain('immutable');
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(script);
  });

  it('go as they are to clients that accept no compression', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/assets/index-abc.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body).toBe(script);
  });
});
