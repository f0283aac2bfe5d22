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
  const fetch = ((input: Parameters<typeof undiciFetch>[0], init?: Parameters<typeof undiciFetch>[1]) =>
    undiciFetch(input, { ...init, dispatcher: dispatcher() })) as unknown as typeof globalThis.fetch;
  return {
    fetch,
    async close() {
      const current = agent;
      agent = null;
      if (current) await current.close();
    },
  };
}
