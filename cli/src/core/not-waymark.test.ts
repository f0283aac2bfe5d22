/**
 * A --server that is not a Waymark server (a web site, a proxy's error page, a typo'd port that another
 * service answers) is named as such, instead of a puzzling "HTTP 404" or a JSON parse error.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWaymark } from '../../test/harness';
import { waymarkOnly } from './context';
import { createHttp } from './http';
import { SessionStore } from './session';

const dir = mkdtempSync(join(tmpdir(), 'waymark-not-waymark-'));
const http = createHttp();
let site: Server;
let url = '';

beforeAll(async () => {
  // a web site: HTML for every address, 200 for its home page and 404 elsewhere
  site = createServer((req, res) => {
    res.writeHead(req.url === '/' ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>Example</title><h1>Example Domain</h1>');
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(site.address() as { port: number }).port}`;
});
afterAll(async () => {
  await http.close();
  await new Promise((r) => site.close(r));
  rmSync(dir, { recursive: true, force: true });
});

describe('a --server that is not Waymark', () => {
  it.each([
    ['whoami', ['whoami']],
    ['assessments list', ['assessments', 'list']],
  ])('%s says the address is not a Waymark server', async (_name, args) => {
    const res = await runWaymark(['--server', url, ...args], {
      sessions: new SessionStore(join(dir, 'session.json')),
      http,
      env: { WAYMARK_TOKEN: 'a-token' },
    });
    expect(res.code).toBe(6);
    expect(res.err).toContain(`${url} is not a Waymark server`);
  });
});

describe('waymarkOnly', () => {
  const answering = (type: string, status = 200) =>
    waymarkOnly(
      async () => new Response('a,b\r\n', { status, headers: { 'content-type': type } }),
      'http://x',
    );

  it('lets through the file a download asked for by its type', async () => {
    const res = await answering('text/csv; charset=utf-8')('http://x/api/tenant/export/users', {
      headers: { accept: 'text/csv, application/x-ndjson, application/json' },
    });
    expect(res.status).toBe(200);
  });

  it("refuses a JSON error that is not Waymark's (another JSON service on that port: the Auth emulator, an API gateway)", async () => {
    const json = (body: unknown, status: number) =>
      waymarkOnly(
        async () =>
          new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }),
        'http://x',
      );
    // the Firebase Auth emulator's 404 for /api/user/me, and Google's error shape in general
    await expect(
      json({ error: { code: 404, message: 'Not Found', errors: [] } }, 404)('http://x/api/user/me'),
    ).rejects.toThrow(/http:\/\/x is not a Waymark server/);
    await expect(json({ message: 'Forbidden' }, 403)('http://x/api/user/me')).rejects.toThrow(
      /is not a Waymark server/,
    );
    // Waymark's own errors pass, to be reported with their message
    const own = await json(
      { statusCode: 404, error: 'Not Found', message: 'No such call' },
      404,
    )('http://x/api/nope');
    expect(own.status).toBe(404);
    expect(((await own.json()) as { message: string }).message).toBe('No such call');
  });

  it('refuses an answer of a type nobody asked for, and an error page of the asked type', async () => {
    await expect(
      answering('text/html')('http://x/api/tenant/export/users', { headers: { accept: 'text/csv' } }),
    ).rejects.toThrow(/is not a Waymark server/);
    await expect(
      answering('text/csv', 502)('http://x/api/tenant/export/users', { headers: { accept: 'text/csv' } }),
    ).rejects.toThrow(/is not a Waymark server/);
    await expect(answering('text/csv')('http://x/api/user/me')).rejects.toThrow(/is not a Waymark server/);
  });
});
