/**
 * HTTP for the CLI: Node's own fetch (undici, built into Node) over its global keep-alive agent, so a
 * command that makes many calls (thousands of seats) reuses connections instead of opening one per
 * request; the bulk commands' pools bound how many are open at once (at most 16). Node's fetch is part of
 * Node's snapshot, where the npm undici package had to be read and compiled at every start: most of
 * `waymark whoami`'s start-up (docs/PERFORMANCE.md "CLI start-up").
 */

export interface Http {
  fetch: typeof globalThis.fetch;
  close(): Promise<void>;
}

export interface HttpOptions {
  /** How long a response may take to start (its headers), from the request. */
  headersTimeoutMs?: number;
}

/** A response that did not start in time: the server is there but does not answer. */
export class HeadersTimeoutError extends Error {
  constructor(ms: number) {
    super(`no answer within ${Math.round(ms / 1000)} s`);
    this.name = 'HeadersTimeoutError';
  }
}

export function createHttp(options: HttpOptions = {}): Http {
  const headersTimeoutMs = options.headersTimeoutMs ?? 60_000;
  let closed = false;
  /**
   * Each request gets a signal of its own, tied to the caller's (Ctrl+C) by a listener removed as soon as
   * the response has started: fetch only lets go of the listener it adds to a signal when the request is
   * garbage-collected, so thousands of requests under the command's one signal piled up listeners on it
   * (MaxListenersExceededWarning on runs of 1,500 items). The same signal ends a request whose answer does
   * not start within headersTimeoutMs.
   */
  const fetch = (async (input: Parameters<typeof globalThis.fetch>[0], init?: RequestInit) => {
    if (closed) throw new Error('HTTP was closed');
    const outer = init?.signal ?? undefined;
    outer?.throwIfAborted();
    const inner = new AbortController();
    const onAbort = () => inner.abort(outer?.reason);
    outer?.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(() => inner.abort(new HeadersTimeoutError(headersTimeoutMs)), headersTimeoutMs);
    try {
      return await globalThis.fetch(input, { ...init, signal: inner.signal });
    } catch (err) {
      // fetch rejects with the signal's reason: a timeout is a network failure, worded as one
      if (err instanceof HeadersTimeoutError) throw new TypeError('fetch failed', { cause: err });
      throw err;
    } finally {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onAbort);
    }
  }) as typeof globalThis.fetch;
  return {
    fetch,
    async close() {
      // Node's agent unreferences idle sockets: nothing keeps the process alive after the last answer
      closed = true;
    },
  };
}
