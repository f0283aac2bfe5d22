/**
 * HTTP for the CLI: undici's fetch over one pooled keep-alive Agent, so a command that makes many calls
 * (thousands of seats) reuses a bounded set of connections instead of opening one per request.
 * Close it when the command is done, or its idle sockets keep the process alive.
 */
import { Agent, fetch as undiciFetch } from 'undici';

export interface Http {
  fetch: typeof globalThis.fetch;
  close(): Promise<void>;
}

export interface HttpOptions {
  /** Connections per origin: the ceiling on concurrent requests to one server. */
  connections?: number;
  connectTimeoutMs?: number;
  /** How long a response may take to start. */
  headersTimeoutMs?: number;
}

export function createHttp(options: HttpOptions = {}): Http {
  let agent: Agent | null = null;
  const dispatcher = () => {
    agent ??= new Agent({
      connections: options.connections ?? 16,
      keepAliveTimeout: 10_000,
      keepAliveMaxTimeout: 60_000,
      connect: { timeout: options.connectTimeoutMs ?? 10_000 },
      headersTimeout: options.headersTimeoutMs ?? 60_000,
    });
    return agent;
  };
  /**
   * Each request gets a signal of its own, tied to the caller's (Ctrl+C) by a listener removed as soon as
   * the response has started: undici only lets go of the listener it adds to a signal when the request is
   * garbage-collected, so thousands of requests under the command's one signal piled up listeners on it
   * (MaxListenersExceededWarning on runs of 1,500 items).
   */
  const fetch = (async (
    input: Parameters<typeof undiciFetch>[0],
    init?: Parameters<typeof undiciFetch>[1],
  ) => {
    const outer = init?.signal ?? undefined;
    if (!outer) return undiciFetch(input, { ...init, dispatcher: dispatcher() });
    outer.throwIfAborted();
    const inner = new AbortController();
    const onAbort = () => inner.abort(outer.reason);
    outer.addEventListener('abort', onAbort, { once: true });
    try {
      return await undiciFetch(input, { ...init, signal: inner.signal, dispatcher: dispatcher() });
    } finally {
      outer.removeEventListener('abort', onAbort);
    }
  }) as unknown as typeof globalThis.fetch;
  return {
    fetch,
    async close() {
      const current = agent;
      agent = null;
      if (current) await current.close();
    },
  };
}
