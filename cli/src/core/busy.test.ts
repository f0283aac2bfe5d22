/**
 * A server shedding load answers 503 with Retry-After before it does anything (server/app.ts, issue 15):
 * the CLI waits the seconds it asks, says so on standard error, and sends a call that is safe to repeat
 * again, a bounded number of times; a call that is not safe to repeat reaches the person as the 503.
 * Against a bare HTTP server that sheds the way Waymark's does.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@shared/client/client';
import { uploadImportImage } from '@shared/client/question-import';
import { createAssessment } from '@shared/contract/authoring';
import { importQuestions } from '@shared/contract/question-import';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { answerBusy, runWaymark } from '../../test/harness';
import { BUSY_ATTEMPTS } from './context';
import { createHttp } from './http';
import { SessionStore } from './session';

const dir = mkdtempSync(join(tmpdir(), 'waymark-busy-'));
const http = createHttp();
let server: Server;
let url = '';
/** How many more requests the server turns away; the requests it saw, as `METHOD path`. */
let shedding = 0;
/** How many more uploads (PUT) it turns away. */
let sheddingPuts = 0;
let retryAfter = '1';
let seen: string[] = [];

const USER = { _id: 'u1', name: 'Asha Rao', email: 'asha@example.com', role: 'TENANT' };

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    req.resume();
    req.on('end', () => {
      if (shedding > 0 || (req.method === 'PUT' && sheddingPuts > 0)) {
        if (req.method === 'PUT' && sheddingPuts > 0) sheddingPuts--;
        else shedding--;
        answerBusy(res, retryAfter);
        return;
      }
      res.setHeader('content-type', 'application/json; charset=utf-8');
      if (req.url === '/api/user/me') res.end(JSON.stringify({ data: USER }));
      else if (req.url === '/api/admin/question/import/signed-url')
        res.end(JSON.stringify({ data: { url: `${url}/files/upload/k1`, key: 'k1', expiresAt: 'x' } }));
      else if (req.method === 'PUT') res.end('{}');
      else res.end(JSON.stringify({ data: [] }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
beforeEach(() => {
  seen = [];
  shedding = 0;
  sheddingPuts = 0;
  retryAfter = '1';
});
afterAll(async () => {
  await http.close();
  await new Promise((r) => server.close(r));
  rmSync(dir, { recursive: true, force: true });
});

const waymark = (args: string[]) =>
  runWaymark(['--server', url, ...args], {
    sessions: new SessionStore(join(dir, 'session.json')),
    http,
    env: { WAYMARK_TOKEN: 'a-token' },
  });

describe('a busy server (503 with Retry-After)', () => {
  it('whoami waits the seconds asked, says so, and answers as usual', async () => {
    shedding = 1;
    const started = Date.now();
    const res = await waymark(['whoami']);
    expect(res.code).toBe(0);
    expect(res.events).toEqual([USER]);
    expect(res.err).toBe(`The server is busy: waiting 1 s before trying again (1 of ${BUSY_ATTEMPTS}).\n`);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(seen).toEqual(['GET /api/user/me', 'GET /api/user/me']);
  });

  it(`gives up after ${BUSY_ATTEMPTS} more tries with the server's message`, async () => {
    shedding = 100;
    retryAfter = '0';
    const res = await waymark(['whoami']);
    expect(res.code).toBe(1);
    expect(res.err).toContain('waymark: The server is busy, please try again shortly.');
    expect(res.err.match(/The server is busy: waiting/g)).toHaveLength(BUSY_ATTEMPTS);
    expect(seen).toHaveLength(1 + BUSY_ATTEMPTS);
  });

  it('does not wait longer than it may (a Retry-After of an hour reaches the person)', async () => {
    shedding = 1;
    retryAfter = '3600';
    const res = await waymark(['whoami']);
    expect(res.code).toBe(1);
    expect(res.err).not.toContain('waiting');
    expect(seen).toHaveLength(1);
  });

  const client = () =>
    createClient({
      baseUrl: `${url}/api`,
      device: 'CLI',
      fetch: http.fetch,
      tokens: { get: () => ({ token: 't', refreshToken: '' }), update: () => {}, clear: () => {} },
      busy: { attempts: 2 },
    });

  it('sends the batch import again: it is safe to re-run (each question is remembered by its key)', async () => {
    shedding = 1;
    retryAfter = '0';
    const question = {
      key: 'k1',
      fingerprint: '0'.repeat(64),
      question: {} as never,
    };
    await expect(client().call(importQuestions, { body: { questions: [question] } })).resolves.toEqual({
      data: [],
    });
    expect(seen).toEqual(['POST /api/admin/question/import', 'POST /api/admin/question/import']);
  });

  it("uploads an import's image again: a PUT to its signed address is safe to repeat", async () => {
    const bytes = new Uint8Array([1, 2, 3]);
    const source = { kind: 'bytes', ref: 'img/a.png', fileType: 'png', size: 3, load: () => bytes } as const;
    sheddingPuts = 1;
    retryAfter = '0';
    await expect(uploadImportImage({ client: client(), fetch: http.fetch }, source)).resolves.toBe('k1');
    expect(seen).toEqual([
      'POST /api/admin/question/import/signed-url',
      'PUT /files/upload/k1',
      'PUT /files/upload/k1',
    ]);
  });

  it('does not send again a call that is not safe to repeat (creating an assessment)', async () => {
    shedding = 1;
    retryAfter = '0';
    await expect(client().call(createAssessment, { body: { name: 'x' } as never })).rejects.toMatchObject({
      status: 503,
      retryAfter: 0,
    });
    expect(seen).toEqual(['POST /api/tenant/assessment/create']);
  });

  it('stops waiting at Ctrl+C', async () => {
    shedding = 1;
    retryAfter = '30';
    const controller = new AbortController();
    const call = client().call(importQuestions, {
      body: { questions: [] as never },
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 50);
    await expect(call).rejects.toMatchObject({ name: 'AbortError' });
    expect(seen).toHaveLength(1);
  });
});
