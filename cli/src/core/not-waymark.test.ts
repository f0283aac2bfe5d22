/**
 * A --server that is not a Waymark server (a web site, a proxy's error page, a typo'd port that another
 * service answers) is named as such, instead of a puzzling "HTTP 404" or a JSON parse error.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, runWaymark } from '../../test/harness';
import { waymarkOnly } from './context';
import { createHttp } from './http';
import { SessionStore } from './session';

const dir = mkdtempSync(join(tmpdir(), 'waymark-not-waymark-'));
const http = createHttp();
let site: Server;
let url = '';
let jsonService: Server;
let jsonUrl = '';

const listen = async (server: Server) => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
};

beforeAll(async () => {
  // a web site: HTML for every address, 200 for its home page and 404 elsewhere
  site = createServer((req, res) => {
    res.writeHead(req.url === '/' ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>Example</title><h1>Example Domain</h1>');
  });
  url = await listen(site);
  // another JSON service on the port (an API gateway, the Auth emulator): errors of its own shape
  jsonService = createServer((_req, res) => {
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { code: 404, message: 'Not Found' } }));
  });
  jsonUrl = await listen(jsonService);
});
afterAll(async () => {
  await http.close();
  await new Promise((r) => site.close(r));
  await new Promise((r) => jsonService.close(r));
  rmSync(dir, { recursive: true, force: true });
});

const run = (server: string, args: string[]) =>
  runWaymark(['--server', server, ...args], {
    sessions: new SessionStore(join(dir, 'session.json')),
    http,
    env: { WAYMARK_TOKEN: 'a-token' },
  });

describe('a --server that is not Waymark', () => {
  it.each([
    ['whoami', ['whoami']],
    ['assessments list', ['assessments', 'list']],
    ['seats import --dry-run', ['seats', 'add', 'asha@example.com', '--dry-run']],
    ['reports learning --csv', ['reports', 'learning', '--csv']],
  ])('%s says the address answered but is not a Waymark server, and nothing else', async (_name, args) => {
    const res = await run(url, args);
    expect(res.code).toBe(6);
    const [first, ...rest] = res.err.trim().split('\n');
    expect(first).toMatch(
      new RegExp(
        `^waymark: ${url.replace(/[.]/g, '\\.')} answered, but it is not a Waymark server \\((GET|POST) /api/\\S+ → 404 text/html; Waymark's API answers JSON\\)\\.$`,
      ),
    );
    expect(rest).toEqual(['Check the address (--server, WAYMARK_SERVER, or the one `waymark login` saved).']);
    // an answer is not a failure to connect
    expect(res.err).not.toMatch(/could not be reached|running\?/);
  });

  it('says so of another JSON service whose errors are not Waymark’s', async () => {
    const res = await run(jsonUrl, ['whoami']);
    expect(res.code).toBe(6);
    expect(res.err).toContain(
      `waymark: ${jsonUrl} answered, but it is not a Waymark server (GET /api/user/me → 404 JSON that is not a Waymark error).`,
    );
    expect(res.err).not.toMatch(/could not be reached|running\?/);
  });

  it('tells a closed port apart: nothing answered, is the server running?', async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const res = await run(closed, ['whoami']);
    expect(res.code).toBe(6);
    expect(res.err).toBe(
      `waymark: ${closed} could not be reached: connection refused (connect ECONNREFUSED ${closed.slice(7)}).\nIs the server running? Check the address (--server, WAYMARK_SERVER, or the one \`waymark login\` saved).\n`,
    );
    expect(res.err).not.toContain('not a Waymark server');
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
    ).rejects.toThrow(/http:\/\/x answered, but it is not a Waymark server/);
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
