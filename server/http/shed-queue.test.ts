/**
 * Shedding on the time a request queued before it was served (issue 25 item 7): requests that reach the
 * server while its event loop is busy wait in the kernel (the accept queue, the sockets' buffers) until
 * the loop comes round to them, which neither the event loop's mean delay (under-pressure) nor the pool's
 * wait sees. Past SHED_QUEUE_MS they get the shedding answer (503 + Retry-After); the ones served after the
 * queue drained answer within the bound. Through real sockets on a listening server: `inject` has no queue.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, type Harness, openHarness } from '../test/harness';

interface Answer {
  status: number;
  retryAfter: string | undefined;
  body: string;
  ms: number;
}

/** An open connection to the server, connected before the request is written. */
async function opened(port: number): Promise<Socket> {
  const socket = connect({ host: '127.0.0.1', port, noDelay: true });
  await new Promise<void>((done, fail) => socket.once('connect', done).once('error', fail));
  return socket;
}

/**
 * Writes a GET of `path` on `socket` and gives a promise of its answer (the next whole response; the
 * connection kept open). On a connected socket the write reaches the kernel at once (libuv writes before
 * it returns), before the server's loop can read it.
 */
function send(socket: Socket, path: string): Promise<Answer> {
  const t0 = performance.now();
  const answer = new Promise<Answer>((done, fail) => {
    let text = '';
    const onData = (chunk: Buffer) => {
      text += chunk.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = text.slice(0, end);
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
      if (text.length < end + 4 + length) return;
      socket.off('data', onData);
      socket.off('error', fail);
      done({
        status: Number(head.slice(9, 12)),
        retryAfter: /\r\nretry-after: *(\S+)/i.exec(head)?.[1],
        body: text.slice(end + 4, end + 4 + length),
        ms: performance.now() - t0,
      });
    };
    socket.on('data', onData);
    socket.once('error', fail);
  });
  socket.write(`GET ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n`);
  return answer;
}

/** Connections the server has accepted and served once (it reads them now). */
async function served(port: number, count: number): Promise<Socket[]> {
  const sockets = await Promise.all(Array.from({ length: count }, () => opened(port)));
  for (const a of await Promise.all(sockets.map((s) => send(s, '/api/health')))) expect(a.status).toBe(200);
  return sockets;
}

/** Holds this process's event loop (the server's: it runs in this process) for `ms`. */
function busy(ms: number) {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // the work a saturated server would be doing
  }
}

describe.each(BACKENDS)('shedding on the time queued before the handler (%s)', (kind) => {
  let h: Harness;
  let port: number;
  beforeAll(async () => {
    h = await openHarness(kind, { env: { SHED_QUEUE_MS: '300', SHED_RETRY_AFTER: '3' } });
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    const address = h.app.server.address();
    port = typeof address === 'object' && address ? address.port : 0;
    // the set-up's own long turns (migrations, the first statements) are over before the first request
    await new Promise((r) => setTimeout(r, 200));
  });
  let sockets: Socket[] = [];
  afterEach(() => {
    for (const s of sockets) s.destroy();
  });
  afterAll(() => h.close());

  it('answers 503 with Retry-After to requests that waited past the bound, then serves within it', {
    timeout: 30_000,
  }, async () => {
    sockets = await served(port, 20);
    // every request is in the kernel; the server is busy for 900 ms before it can read any of them
    const answers = sockets.map((s) => send(s, '/api/health'));
    busy(900);
    const queued = await Promise.all(answers);
    const shed = queued.filter((a) => a.status === 503);
    // all of them: each was read after the stall
    expect(shed.length).toBe(20);
    for (const a of shed) {
      expect(a.retryAfter).toBe('3');
      expect(JSON.parse(a.body)).toEqual({
        statusCode: 503,
        error: 'Service Unavailable',
        message: 'The server is busy, please try again shortly.',
      });
    }
    // the queue is gone: the next requests are served, within the bound
    await new Promise((r) => setTimeout(r, 100));
    for (const socket of sockets.slice(0, 5)) {
      const a = await send(socket, '/api/health');
      expect(a.status).toBe(200);
      expect(a.ms).toBeLessThan(300);
    }
  });

  it('forgets a long turn once it has read what queued in it, though later turns still run late', {
    timeout: 30_000,
  }, async () => {
    sockets = await served(port, 2);
    busy(900);
    // a loaded machine after the stall: the loop's turns keep coming 30 ms late, far within the bound
    const late = setInterval(() => busy(30), 5);
    try {
      await new Promise((r) => setTimeout(r, 400));
      const a = await send(sockets[0]!, '/api/health');
      expect(a.status).toBe(200);
    } finally {
      clearInterval(late);
    }
  });

  it('does not shed requests that queue less than the bound', { timeout: 30_000 }, async () => {
    sockets = await served(port, 20);
    const answers = sockets.map((s) => send(s, '/api/health'));
    busy(40);
    for (const a of await Promise.all(answers)) expect(a.status).toBe(200);
  });
});
