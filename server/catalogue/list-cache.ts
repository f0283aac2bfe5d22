/**
 * The catalogue list, kept serialized for a short while (docs/PERFORMANCE.md, bench/catalogue.ts).
 * With a thousand roadmaps the list is about 2 MB of JSON: reading it takes five queries and writing it
 * tens of milliseconds, so fifty visitors at once would wait seconds. The first request for a filter is
 * answered as usual and its JSON kept; later ones within `ttlMs` are answered with the kept bytes —
 * gzipped once for the clients that accept it, with an ETag for revalidation (304) — before the handler
 * runs. The signed-in list shares the bytes but still authenticates every request first.
 *
 * The public list already tells browsers and proxies that it may be 30 s old (cache-control); the kept
 * copy is never older than that either. Roadmaps change rarely and only through the seed and authoring.
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

/** Serialized lists by filter, each for `ttlMs`; at most `maxEntries` filters at a time. */
export class ListCache {
  readonly #entries = new Map<string, CachedList>();
  constructor(
    readonly ttlMs: number,
    private readonly now: () => number = Date.now,
    private readonly maxEntries = 200,
  ) {}

  get(key: string): CachedList | null {
    const entry = this.#entries.get(key);
    if (!entry) return null;
    if (entry.expires <= this.now()) {
      this.#entries.delete(key);
      return null;
    }
    return entry;
  }

  set(key: string, json: string): CachedList {
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
  reply
    .header('cache-control', cacheControl)
    .header('etag', entry.etag)
    .header('vary', 'accept-encoding')
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
    const missed = new WeakSet<FastifyRequest>();
    const onRequest = async (request: FastifyRequest, reply: FastifyReply) => {
      const entry = cache.get(cacheKey(request.url));
      if (!entry) {
        missed.add(request);
        return;
      }
      if (route.authenticate) request.user = await app.authenticate(request);
      return sendCached(request, reply, entry, route.cacheControl);
    };
    const onSend = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
      if (!missed.has(request) || reply.statusCode !== 200 || typeof payload !== 'string') return payload;
      const entry = cache.set(cacheKey(request.url), payload);
      reply.header('etag', entry.etag).header('cache-control', route.cacheControl);
      return payload;
    };
    options.onRequest = [...[options.onRequest ?? []].flat(), onRequest];
    options.onSend = [...[options.onSend ?? []].flat(), onSend];
  });
}
