/**
 * The built files: the portal's (dist/portal; hashed assets cached a year, the rest revalidated) and the
 * embeddable widgets' (dist/widgets, with CORS for partner pages). Both are sent compressed: scripts/compress.mjs
 * writes .br and .gz copies at build time and `preCompressed` picks the one the browser accepts. Page paths
 * get the portal's index.html from the 404 policy (not-found.ts), read here (`portalIndex`).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config';

/** A folder of the widgets' immutable files: a semantic version (1.0.0, 1.2.0-beta.1). */
const VERSION_FOLDER = /^\d+\.\d+\.\d+(-[\w.]+)?$/;

const portalDir = (config: Config) => join(config.staticDir, 'portal');

/** Serves the built portal and widget files. */
export async function staticRoutes(app: FastifyInstance, config: Config) {
  if (existsSync(join(portalDir(config), 'index.html'))) {
    await app.register(fastifyStatic, {
      root: portalDir(config),
      prefix: '/',
      wildcard: true,
      index: false,
      // scripts/compress.mjs writes .br and .gz copies at build time
      preCompressed: true,
      setHeaders: (reply, path) => {
        const immutable = path.includes('/assets/');
        reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  await widgetRoutes(app, config);
  // '/' is the portal's folder itself, which the static plugin refuses (403) since it lists no index:
  // the landing page is the portal's index.html like every other page path
  app.get('/', (_request, reply) => reply.callNotFound());
}

/**
 * The embeddable widgets (node widgets/build-embed.mjs): partner pages load them from other origins, as
 * module scripts, which need CORS; the API calls they make are allowed through CORS_ORIGINS.
 * /widgets/{version}/… never changes (a year, immutable: pin it with SRI); /widgets/… is the moving "latest"
 * (five minutes). Keep earlier version folders in dist/widgets when deploying a new one.
 */
async function widgetRoutes(app: FastifyInstance, config: Config) {
  const widgetsDir = join(config.staticDir, 'widgets');
  if (!existsSync(widgetsDir)) return;
  // the manifest's copy-paste snippets name this server (PUBLIC_URL)
  const manifest = (version?: string) => async (request: FastifyRequest, reply: FastifyReply) => {
    if (version !== undefined && !VERSION_FOLDER.test((request.params as { version: string }).version)) {
      return reply.callNotFound();
    }
    const file = join(
      widgetsDir,
      version === undefined ? '' : (request.params as { version: string }).version,
      'manifest.json',
    );
    if (!existsSync(file)) return reply.callNotFound();
    return reply
      .type('application/json')
      .header('access-control-allow-origin', '*')
      .header(
        'cache-control',
        version === undefined ? 'public, max-age=300' : 'public, max-age=31536000, immutable',
      )
      .send(readFileSync(file, 'utf8').replaceAll('{{WAYMARK_URL}}', config.publicUrl));
  };
  // the playground (widgets/playground.html): every element with its attributes, tokens and events, live
  app.get('/widgets/playground', async (_request, reply) => {
    const file = join(widgetsDir, 'playground.html');
    if (!existsSync(file)) return reply.callNotFound();
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(readFileSync(file));
  });
  app.get('/widgets/manifest.json', manifest());
  app.get('/widgets/:version/manifest.json', manifest(''));
  await app.register(fastifyStatic, {
    root: widgetsDir,
    prefix: '/widgets/',
    decorateReply: false,
    index: false,
    preCompressed: true,
    setHeaders: (reply, path) => {
      const versioned = VERSION_FOLDER.test(relative(widgetsDir, path).split(sep)[0] ?? '');
      reply.header('access-control-allow-origin', '*');
      reply.header(
        'cache-control',
        versioned ? 'public, max-age=31536000, immutable' : 'public, max-age=300',
      );
    },
  });
}

/**
 * The portal's index.html, or null when the portal is not built; read again when a rebuild replaced it, so a
 * running server never points at removed assets.
 */
export function portalIndex(config: Config): () => string | null {
  const indexFile = join(portalDir(config), 'index.html');
  let cached: { mtime: number; html: string } | null = null;
  return () => {
    if (!existsSync(indexFile)) return null;
    const mtime = statSync(indexFile).mtimeMs;
    if (!cached || cached.mtime !== mtime) cached = { mtime, html: readFileSync(indexFile, 'utf8') };
    return cached.html;
  };
}
