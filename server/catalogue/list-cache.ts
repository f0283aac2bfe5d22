/**
 * The catalogue list, kept serialized for a short while (docs/PERFORMANCE.md, bench/catalogue.ts).
 * With a thousand roadmaps the list is about 2 MB of JSON: reading it takes five queries and writing it
 * tens of milliseconds, so fifty visitors at once would wait seconds. The first request for a filter is
 * answered as usual and its JSON kept; later ones within `ttlMs` are answered with the kept bytes —
 * gzipped once for the clients that accept it, with an ETag for revalidation (304) — before the handler
 * runs. The signed-in list shares the bytes but still authenticates every request first.
 *
 * When a kept list expires, one request reads it afresh while the others are answered with the expired
 * copy (for at most another `ttlMs`), so fifty visitors arriving as it expires do not all read and
 * serialize two megabytes at once; with no copy at all, they wait for that one request.
 *
 * The public list already tells browsers and proxies that it may be 30 s old (cache-control); the kept
 * copy is not much older than that either. Roadmaps change rarely and only through the seed and authoring.
 */
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';

export interface CachedList {
  json: Buffer;
  gzip: Buffer;
  etag: string;
  expires: number;
}

/** The longest anyone waits for another request's refresh of a list. */
export const REFRESH_TIMEOUT_MS = 15_000;

/** Serialized lists by filter, each fresh for `ttlMs`; at most `maxEntries` filters at a time. */
export class ListCache {
  readonly #entries = new Map<string, CachedList>();
  readonly #refreshing = new Map<string, Promise<void>>();
  constructor(
    readonly ttlMs: number,
    private readonly now: () => number = Date.now,
    private readonly maxEntries = 200,
  ) {}

  /** The list kept for `key` while fresh, else null. */
  get(key: string): CachedList | null {
    const entry = this.#entries.get(key);
    return entry && entry.expires > this.now() ? entry : null;
  }

  /** The list kept for `key` even if expired (for at most another `ttlMs`), else null. */
  stale(key: string): CachedList | null {
    const entry = this.#entries.get(key);
    if (!entry) return null;
    if (entry.expires + this.ttlMs <= this.now()) {
      this.#entries.delete(key);
      return null;
    }
    return entry;
  }

  set(key: string, json: string): CachedList {
    this.#entries.delete(key);
    // arbitrary query strings must not grow the cache without bound: the oldest filter goes first
    if (this.#entries.size >= this.maxEntries) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    const bytes = Buffer.from(json);
    const entry = {
      json: bytes,
      gzip: gzipSync(bytes, { level: 6 }),
      etag: `"${createHash('sha1').update(bytes).digest('base64url')}"`,
      expires: this.now() + this.ttlMs,
    };
    this.#entries.set(key, entry);
    return entry;
  }

  /** The refresh of `key` under way, if one is. */
  refreshing(key: string): Promise<void> | null {
    return this.#refreshing.get(key) ?? null;
  }

  /**
   * Starts the refresh of `key`; the returned function ends it (whether or not it succeeded). A refresh
   * that never ends (a request lost on the way) lets its waiters go after `REFRESH_TIMEOUT_MS`.
   */
  beginRefresh(key: string): () => void {
    let resolve: () => void = () => {};
    const done = new Promise<void>((r) => {
      resolve = r;
    });
    this.#refreshing.set(key, done);
    const end = () => {
      clearTimeout(timer);
      if (this.#refreshing.get(key) === done) this.#refreshing.delete(key);
      resolve();
    };
    const timer = setTimeout(end, REFRESH_TIMEOUT_MS);
    timer.unref?.();
    return end;
  }

  clear() {
    this.#entries.clear();
  }
}

/** The filter part of a request's URL, with its parameters in a stable order. */
export function cacheKey(url: string): string {
  const query = url.includes('?') ? url.slice(url.indexOf('?') + 1) : '';
  const params = new URLSearchParams(query);
  params.sort();
  return params.toString();
}

const acceptsGzip = (request: FastifyRequest) =>
  /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));

function sendCached(request: FastifyRequest, reply: FastifyReply, entry: CachedList, cacheControl: string) {
  // added to what is already there (CORS varies by Origin)
  const vary = reply.getHeader('vary');
  reply
    .header('cache-control', cacheControl)
    .header('etag', entry.etag)
    .header('vary', vary ? `${String(vary)}, accept-encoding` : 'accept-encoding')
    .type('application/json; charset=utf-8');
  if (request.headers['if-none-match'] === entry.etag) return reply.code(304).send();
  if (acceptsGzip(request)) return reply.header('content-encoding', 'gzip').send(entry.gzip);
  return reply.send(entry.json);
}

export interface CachedRoute {
  /** The route's URL as registered, e.g. /api/roadmap/list/no-auth. */
  url: string;
  cacheControl: string;
  /** Sign the caller in before answering from the cache (the route's own rule). */
  authenticate: boolean;
}

/**
 * Makes the given GET routes answer from `cache`. Call before the routes are registered: it adds their
 * hooks as they are added.
 */
export function cacheListRoutes(app: FastifyInstance, cache: ListCache, routes: CachedRoute[]) {
  if (cache.ttlMs <= 0) return;
  const byUrl = new Map(routes.map((r) => [r.url, r]));
  app.addHook('onRoute', (options: RouteOptions) => {
    const route = byUrl.get(options.url ?? '');
    if (!route || options.method !== 'GET') return;
    /** The requests reading a list afresh, each with the end of its refresh. */
    const refreshers = new WeakMap<FastifyRequest, () => void>();
    const onRequest = async (request: FastifyRequest, reply: FastifyReply) => {
      const key = cacheKey(request.url);
      let entry = cache.get(key);
      if (!entry) {
        const underway = cache.refreshing(key);
        if (underway) {
          // another request is reading it: the expired copy now, or the new one once it is there
          entry = cache.stale(key);
          if (!entry) {
            await underway;
            entry = cache.get(key);
          }
        }
        if (!entry) {
          refreshers.set(request, cache.beginRefresh(key));
          return;
        }
      }
      if (route.authenticate) request.user = await app.authenticate(request);
      return sendCached(request, reply, entry, route.cacheControl);
    };
    const onSend = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
      if (!refreshers.has(request) || reply.statusCode !== 200 || typeof payload !== 'string') return payload;
      const entry = cache.set(cacheKey(request.url), payload);
      reply.header('etag', entry.etag).header('cache-control', route.cacheControl);
      return payload;
    };
    // the refresh ends with the response, answered or failed
    const onResponse = async (request: FastifyRequest) => {
      refreshers.get(request)?.();
    };
    options.onRequest = [...[options.onRequest ?? []].flat(), onRequest];
    options.onSend = [...[options.onSend ?? []].flat(), onSend];
    options.onResponse = [...[options.onResponse ?? []].flat(), onResponse];
    options.onRequestAbort = [...[options.onRequestAbort ?? []].flat(), onResponse];
  });
}
