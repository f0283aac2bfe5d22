/**
 * The 404 policy, for whatever no route answers. A portal page path (a GET outside /api and /docs, not a
 * file name) gets the portal's index.html — its router shows the page, or its own not-found — dressed by the
 * domain that knows the page (award pages carry Open Graph tags); a page that exists only for some requests
 * (the local mailbox, for a person at this machine) is a plain 404 page to the others. Anything else is a
 * JSON 404 naming the method and path, and unknown paths are rate-limited per address (RATE_LIMIT_NOT_FOUND,
 * counted in the database like every limit), so a scanner's burst gets 429 rather than as many 404s as it
 * asks for; portal pages are not counted.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import { DOCS_PATH } from './docs';
import { isApiPath, underPath } from './routes';
import { portalIndex } from './static';

/** What the domains say about the portal's pages. */
export interface PortalPages {
  /** The page's HTML with what the page's own domain adds (award pages: their Open Graph tags). */
  dress(path: string, html: string): Promise<string>;
  /** Whether this request may see the page at `path` (false: a 404 page). */
  shown(request: FastifyRequest, path: string): boolean;
}

const NOT_FOUND_PAGE =
  '<!doctype html><html lang="en"><title>Not found · Waymark</title><main><h1>Not found</h1><p>There is no such page.</p><p><a href="/">Home</a></p></main></html>';

const NOT_BUILT_PAGE =
  '<!doctype html><html lang="en"><title>Waymark</title><main><h1>Waymark</h1><p>The portal is not built. Run <code>npm start</code>, which builds it.</p></main></html>';

const pathOf = (request: FastifyRequest) => request.url.split('?')[0] ?? '/';

/** A portal page: the portal's index.html answers it (its router shows the page, or its own not-found). */
const isPagePath = (request: FastifyRequest, path: string) =>
  request.method === 'GET' &&
  !isApiPath(path) &&
  !underPath(path, DOCS_PATH) &&
  !/\.[a-z0-9]{1,5}$/i.test(path);

export function installNotFound(app: FastifyInstance, config: Config, pages: PortalPages) {
  const indexHtml = portalIndex(config);
  const limitUnknown = app.rateLimit({
    max: config.rateLimit.notFound,
    timeWindow: '1 minute',
    keyGenerator: (request) => `not-found ${request.ip}`,
  });
  app.setNotFoundHandler(
    {
      preHandler: async (request: FastifyRequest, reply: FastifyReply) => {
        if (!isPagePath(request, pathOf(request))) await limitUnknown.call(app, request, reply);
      },
    },
    async (request, reply) => {
      const path = pathOf(request);
      if (!isPagePath(request, path)) {
        return reply
          .code(404)
          .send({ statusCode: 404, error: 'Not Found', message: `No such call: ${request.method} ${path}` });
      }
      if (!pages.shown(request, path)) return reply.code(404).type('text/html').send(NOT_FOUND_PAGE);
      const html = indexHtml();
      if (!html) return reply.type('text/html').send(await pages.dress(path, NOT_BUILT_PAGE));
      return reply
        .type('text/html')
        .header('cache-control', 'no-cache')
        .send(await pages.dress(path, html));
    },
  );
}
