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
// the widgets as widgets/build-embed.mjs leaves them: "latest" beside the immutable release folder
const manifest = JSON.stringify({
  version: '1.0.0',
  snippet: '<script src="{{WAYMARK_URL}}/widgets/1.0.0/award.js">',
});
for (const dir of ['widgets', join('widgets', '1.0.0')]) {
  mkdirSync(join(staticDir, dir), { recursive: true });
  writeFileSync(join(staticDir, dir, 'award.js'), script);
  writeFileSync(join(staticDir, dir, 'manifest.json'), manifest);
}

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

describe('the widget files', () => {
  it('are immutable for a year under their version, five minutes at the "latest" path, both for any origin', async () => {
    const pinned = await server.app.inject({ method: 'GET', url: '/widgets/1.0.0/award.js' });
    expect(pinned.statusCode).toBe(200);
    expect(pinned.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(pinned.headers['access-control-allow-origin']).toBe('*');
    const latest = await server.app.inject({ method: 'GET', url: '/widgets/award.js' });
    expect(latest.headers['cache-control']).toBe('public, max-age=300');
    expect((await server.app.inject({ method: 'GET', url: '/widgets/9.9.9/award.js' })).statusCode).toBe(404);
  });

  it("name this server in the manifest's snippets", async () => {
    for (const url of ['/widgets/manifest.json', '/widgets/1.0.0/manifest.json']) {
      const res = await server.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.json().snippet).toBe(`<script src="${server.config.publicUrl}/widgets/1.0.0/award.js">`);
    }
    expect(
      (await server.app.inject({ method: 'GET', url: '/widgets/not-a-version/manifest.json' })).statusCode,
    ).toBe(404);
  });
});
