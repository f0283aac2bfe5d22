/**
 * The CLI's HTTP: thousands of requests under one Ctrl+C signal (a bulk command over 1,500 seats or
 * questions) must not pile listeners on it — undici's fetch only lets go of its abort listener when the
 * request is garbage-collected, which printed MaxListenersExceededWarning on long runs.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHttp, HeadersTimeoutError } from './http';

let server: ReturnType<typeof createServer>;
let url: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/hang') return; // never answers
    res.end('{"ok":true}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

it('sends 1,600 requests under one signal without a MaxListenersExceededWarning, and still aborts', async () => {
  const warnings: string[] = [];
  const onWarning = (w: Error) => warnings.push(w.name);
  process.on('warning', onWarning);
  const http = createHttp();
  const controller = new AbortController();
  try {
    for (let i = 0; i < 1600; i += 8) {
      await Promise.all(
        Array.from({ length: 8 }, async () => (await http.fetch(url, { signal: controller.signal })).json()),
      );
    }
    await new Promise((r) => setTimeout(r, 50));
    expect(warnings).not.toContain('MaxListenersExceededWarning');
    const pending = http.fetch(`${url}slow`, { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toThrow();
  } finally {
    process.off('warning', onWarning);
    await http.close();
  }
}, 60_000);

it('gives up on a server that accepts the request but never starts its answer, as a network failure', async () => {
  const http = createHttp({ headersTimeoutMs: 300 });
  try {
    const failure = await http.fetch(`${url}hang`).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(TypeError);
    expect((failure as Error).cause).toBeInstanceOf(HeadersTimeoutError);
    // a request that is answered in time is untouched by the timer
    expect(await (await http.fetch(url)).json()).toEqual({ ok: true });
  } finally {
    await http.close();
  }
});
