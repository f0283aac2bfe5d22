/**
 * The bench's lean HTTP client (lean-http.ts) against Node's own HTTP server and against responses written
 * a few bytes at a time: whatever way a response arrives, the status, Retry-After and body come out whole,
 * connections are kept and reused up to the limit, and a connection that drops fails its request.
 */
import { createServer as createHttpServer, type Server } from 'node:http';
import { type AddressInfo, createServer as createNetServer, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { LeanAgent } from './lean-http';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function listen(server: Server | ReturnType<typeof createNetServer>) {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        // a test that failed midway may leave the client's connection open
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  );
  return (server.address() as AddressInfo).port;
}

describe('LeanAgent', () => {
  it("reads Node's responses: a fixed length, chunked, a shed 503, Connection: close; sends method, path, headers and body", async () => {
    const sockets = new Set<unknown>();
    const seen: string[] = [];
    const server = createHttpServer((req, res) => {
      sockets.add(req.socket);
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        seen.push(`${req.method} ${req.url} ${req.headers.authorization ?? '-'} ${body}`);
        if (req.url === '/api/chunked') {
          res.write('{"a":');
          res.end('"é"}');
        } else if (req.url === '/api/busy') {
          res.writeHead(503, { 'retry-after': '7', 'content-type': 'application/json' });
          res.end('{"busy":true}');
        } else if (req.url === '/api/bye') {
          res.writeHead(200, { connection: 'close', 'content-length': '2' });
          res.end('ok');
        } else {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ body }));
        }
      });
    });
    const port = await listen(server);
    const agent = new LeanAgent(`http://127.0.0.1:${port}/api`, { connections: 2, timeoutMs: 5000 });
    const fixed = await agent.request('POST', '/x', 'authorization: Bearer t\r\n', '{"ü":1}');
    expect(fixed).toEqual({ status: 200, retryAfter: 0, text: JSON.stringify({ body: '{"ü":1}' }) });
    expect(await agent.request('GET', '/chunked', '')).toEqual({
      status: 200,
      retryAfter: 0,
      text: '{"a":"é"}',
    });
    expect(await agent.request('GET', '/busy', '')).toEqual({
      status: 503,
      retryAfter: 7,
      text: '{"busy":true}',
    });
    expect(await agent.request('GET', '/bye', '')).toEqual({ status: 200, retryAfter: 0, text: 'ok' });
    expect(seen[0]).toBe('POST /api/x Bearer t {"ü":1}');
    // one after another on one kept connection, until the server closed it
    expect(sockets.size).toBe(1);
    // ten at once share the two connections allowed
    const many = await Promise.all(
      Array.from({ length: 10 }, (_, i) => agent.request('PUT', `/n${i}`, '', `${i}`)),
    );
    expect(many.map((r) => JSON.parse(r.text).body)).toEqual(Array.from({ length: 10 }, (_, i) => `${i}`));
    expect(sockets.size).toBe(3);
    await agent.close();
  });

  it('reads a response that arrives a few bytes at a time, and two that arrive in one piece', async () => {
    const responses = [
      'HTTP/1.1 200 OK\r\nContent-Length: 5\r\nRetry-After: 3\r\n\r\nhello',
      'HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n',
    ];
    const server = createNetServer((socket) => {
      let requests = 0;
      socket.on('data', async (data) => {
        const n = data.toString().split('HTTP/1.1\r\n').length - 1;
        for (let k = 0; k < n; k++) {
          // the request's number taken before the first await: the next request may arrive meanwhile
          const number = requests++;
          const text = responses[number % 2]!;
          if (number === 0) {
            for (let i = 0; i < text.length; i += 3) {
              socket.write(text.slice(i, i + 3));
              await new Promise((r) => setTimeout(r, 1));
            }
          } else socket.write(text);
        }
      });
    });
    const port = await listen(server);
    const agent = new LeanAgent(`http://127.0.0.1:${port}`, { connections: 1, timeoutMs: 5000 });
    expect(await agent.request('GET', '/', '')).toEqual({ status: 200, retryAfter: 3, text: 'hello' });
    expect(await agent.request('GET', '/', '')).toEqual({ status: 201, retryAfter: 0, text: 'abcde' });
    await agent.close();
  });

  it('fails the request of a connection that drops before its response, and opens a new one for the next', async () => {
    let connections = 0;
    const server = createNetServer((socket) => {
      const first = connections++ === 0;
      socket.on('data', () => {
        if (first) socket.destroy();
        else socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok');
      });
    });
    const port = await listen(server);
    const agent = new LeanAgent(`http://127.0.0.1:${port}`, { connections: 1, timeoutMs: 5000 });
    await expect(agent.request('GET', '/', '')).rejects.toMatchObject({ code: expect.any(String) });
    expect(await agent.request('GET', '/', '')).toEqual({ status: 200, retryAfter: 0, text: 'ok' });
    await agent.close();
  });
});
