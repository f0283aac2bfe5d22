/**
 * A lean HTTP/1.1 client for load generators that share the machine with what they measure: keep-alive
 * sockets to one origin, each request written as one buffer, each response read by a small parser (status
 * line, the headers it needs, a Content-Length or chunked body). The exam-day bench spent about 0.2 ms of CPU
 * per submission in undici's request() (its Request and handler objects, the body as a Readable stream,
 * every header parsed into an object) — CPU taken from the server and PostgreSQL on the same two cores,
 * which a real exam's browsers, each on its own machine, do not take. This client does what the bench
 * needs and no more; it is not a general client (no redirects, no TLS, no pipelining, no 1xx).
 */
import { connect, type Socket } from 'node:net';

export interface LeanResponse {
  status: number;
  /** The Retry-After header in seconds, 0 when absent. */
  retryAfter: number;
  /** The body as text (UTF-8). */
  text: string;
}

interface Pending {
  resolve: (r: LeanResponse) => void;
  reject: (e: Error) => void;
  timer: NodeJS.Timeout;
}

const CRLF2 = Buffer.from('\r\n\r\n');

/** A socket's response parser: fed chunks, it calls back with each whole response. */
class ResponseReader {
  private buf: Buffer | null = null;
  private head: {
    status: number;
    retryAfter: number;
    length: number;
    chunked: boolean;
    close: boolean;
  } | null = null;
  private bodyStart = 0;
  constructor(private readonly done: (r: LeanResponse, close: boolean) => void) {}

  feed(chunk: Buffer) {
    this.buf = this.buf?.length ? Buffer.concat([this.buf, chunk]) : chunk;
    for (;;) {
      if (!this.head) {
        const end = this.buf.indexOf(CRLF2);
        if (end < 0) return;
        this.head = parseHead(this.buf.toString('latin1', 0, end));
        this.bodyStart = end + 4;
      }
      const body = this.head.chunked
        ? dechunk(this.buf, this.bodyStart)
        : fixed(this.buf, this.bodyStart, this.head.length);
      if (!body) return;
      const { status, retryAfter, close } = this.head;
      this.head = null;
      this.buf = this.buf.subarray(body.next);
      this.done({ status, retryAfter, text: body.text }, close);
      if (!this.buf.length) return;
    }
  }
}

function parseHead(head: string) {
  const lines = head.split('\r\n');
  const status = Number(lines[0]!.slice(9, 12));
  if (!(status >= 100 && status < 600)) throw new Error(`not an HTTP response: ${lines[0]}`);
  let length = 0;
  let chunked = false;
  let close = false;
  let retryAfter = 0;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'content-length') length = Number(value);
    else if (name === 'transfer-encoding') chunked = value.toLowerCase().includes('chunked');
    else if (name === 'connection') close = value.toLowerCase() === 'close';
    else if (name === 'retry-after') retryAfter = Number(value) || 0;
  }
  return { status, retryAfter, length, chunked, close };
}

function fixed(buf: Buffer, start: number, length: number) {
  if (buf.length < start + length) return null;
  return { text: buf.toString('utf8', start, start + length), next: start + length };
}

function dechunk(buf: Buffer, start: number) {
  const parts: Buffer[] = [];
  let at = start;
  for (;;) {
    const eol = buf.indexOf('\r\n', at);
    if (eol < 0) return null;
    const size = Number.parseInt(buf.toString('latin1', at, eol), 16);
    if (Number.isNaN(size)) throw new Error('bad chunk size');
    if (size === 0) {
      // no trailers from the servers this reads: the last chunk, then the blank line
      if (buf.length < eol + 4) return null;
      return { text: Buffer.concat(parts).toString('utf8'), next: eol + 4 };
    }
    if (buf.length < eol + 2 + size + 2) return null;
    parts.push(buf.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
}

/**
 * Keep-alive connections to one server, at most `connections` open; `base` is its URL (`http://host:port`,
 * with a path prefix for every request if it has one).
 */
export class LeanAgent {
  private readonly host: string;
  private readonly port: number;
  private readonly prefix: string;
  private readonly idle: Socket[] = [];
  private readonly waiting: (() => void)[] = [];
  private open = 0;
  private closed = false;
  constructor(
    base: string,
    private readonly opts: { connections: number; timeoutMs: number },
  ) {
    const url = new URL(base);
    if (url.protocol !== 'http:') throw new Error(`LeanAgent speaks plain HTTP only, not ${url.protocol}`);
    this.host = url.hostname;
    this.port = Number(url.port || 80);
    this.prefix = url.pathname.replace(/\/$/, '');
  }

  /** One request; rejects (with `code`, as a dropped connection) when the socket fails or closes first. */
  async request(method: string, path: string, headers: string, body?: string): Promise<LeanResponse> {
    const socket = await this.take();
    const bytes = body === undefined ? 0 : Buffer.byteLength(body);
    const text =
      `${method} ${this.prefix}${path} HTTP/1.1\r\nhost: ${this.host}:${this.port}\r\n${headers}` +
      (body === undefined ? '\r\n' : `content-length: ${bytes}\r\n\r\n${body}`);
    return new Promise<LeanResponse>((resolve, reject) => {
      const pending: Pending = {
        resolve,
        reject,
        timer: setTimeout(
          () => socket.destroy(Object.assign(new Error('timeout'), { code: 'UND_ERR_TIMEOUT' })),
          this.opts.timeoutMs,
        ),
      };
      (socket as SocketWith).inFlight = pending;
      socket.write(text);
    });
  }

  private take(): Promise<Socket> {
    const socket = this.idle.pop();
    if (socket) return Promise.resolve(socket);
    if (this.open < this.opts.connections) return Promise.resolve(this.connect());
    return new Promise((resolve) => this.waiting.push(() => resolve(this.take())));
  }

  private connect(): Socket {
    this.open++;
    const socket = connect({ host: this.host, port: this.port, noDelay: true }) as SocketWith;
    socket.setKeepAlive(true);
    const reader = new ResponseReader((r, close) => {
      const p = socket.inFlight;
      socket.inFlight = undefined;
      if (p) {
        clearTimeout(p.timer);
        p.resolve(r);
      }
      if (close) socket.destroy();
      else this.release(socket);
    });
    socket.on('data', (chunk: Buffer) => {
      try {
        reader.feed(chunk);
      } catch (err) {
        socket.destroy(err as Error);
      }
    });
    // the close that follows fails the request in flight, with this error's code
    socket.on('error', (err: Error & { code?: string }) => {
      socket.failure = err.code ?? err.message;
    });
    socket.on('close', () => {
      this.open--;
      const at = this.idle.indexOf(socket);
      if (at >= 0) this.idle.splice(at, 1);
      const p = socket.inFlight;
      socket.inFlight = undefined;
      if (p) {
        clearTimeout(p.timer);
        const code = socket.failure ?? 'ECONNRESET';
        p.reject(Object.assign(new Error(`the connection closed before the response (${code})`), { code }));
      }
      this.waiting.shift()?.();
    });
    return socket;
  }

  private release(socket: Socket) {
    if (this.closed) {
      socket.destroy();
      return;
    }
    const next = this.waiting.shift();
    this.idle.push(socket);
    next?.();
  }

  async close() {
    this.closed = true;
    for (const s of this.idle.splice(0)) s.destroy();
  }
}

type SocketWith = Socket & { inFlight?: Pending; failure?: string };
