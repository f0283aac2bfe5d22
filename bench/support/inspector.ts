/** The server's V8 profiler through its inspector (--inspect), for the benches that profile a phase. */
import { WebSocket } from 'undici';

export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
}

/** The server's V8 profiler through its inspector (--inspect), started and stopped around each phase. */
export async function inspector(port: number) {
  const list = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as {
    webSocketDebuggerUrl: string;
  }[];
  const ws = new WebSocket(list[0]!.webSocketDebuggerUrl);
  await new Promise<void>((done, fail) => {
    ws.addEventListener('open', () => done(), { once: true });
    ws.addEventListener('error', () => fail(new Error('could not reach the server inspector')), {
      once: true,
    });
  });
  let id = 0;
  const waiting = new Map<number, (result: unknown) => void>();
  ws.addEventListener('message', (e) => {
    const msg = JSON.parse(String(e.data)) as { id?: number; result?: unknown };
    if (msg.id !== undefined) waiting.get(msg.id)?.(msg.result);
  });
  const send = <T>(method: string, params: object = {}) =>
    new Promise<T>((done) => {
      const n = ++id;
      waiting.set(n, (r) => done(r as T));
      ws.send(JSON.stringify({ id: n, method, params }));
    });
  await send('Profiler.enable');
  await send('Profiler.setSamplingInterval', { interval: 500 });
  return {
    start: () => send('Profiler.start'),
    stop: async () => (await send<{ profile: CpuProfile }>('Profiler.stop')).profile,
    close: () => ws.close(),
  };
}
