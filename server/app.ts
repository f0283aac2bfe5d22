/**
 * Builds the HTTP application: outside-world plugins (security headers, CORS, rate limits, load shedding), the one
 * error handler, authentication, the routes of every domain, the API document and the portal's files.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import underPressure from '@fastify/under-pressure';
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from 'fastify';
import { activityRoutes } from './activity/routes';
import type { IdentityAdapter } from './adapters/identity';
import { createIdentityAdapter } from './adapters/identity';
import { MailService, type MailTransport, mailboxTransport, smtpTransport } from './adapters/mail';
import { createStorage, type StorageAdapter } from './adapters/storage';
import { roadmapTests } from './assessments/roadmap-tests';
import { assessmentRoutes } from './assessments/routes';
import { installAuthentication } from './auth/current-user';
import { authRoutes } from './auth/routes';
import { TokenService } from './auth/tokens';
import { authoringRoutes } from './authoring/routes';
import { withAwardMeta } from './awards/og';
import { awardRoutes } from './awards/routes';
import { billingOf, billingRoutes } from './billing/routes';
import { catalogueRoutes } from './catalogue/routes';
import type { Config } from './config';
import { credentialRoutes, credentialService } from './credentials/routes';
import type { CredentialServiceOptions } from './credentials/service';
import type { Database } from './db/client';
import { installErrorHandling } from './http/errors';
import { fileRoutes } from './http/files';
import { installJsonBody } from './http/json-body';
import { buildOpenApi } from './http/openapi';
import { databaseRateLimitStore } from './http/rate-limit-store';
import { isApiPath, underPath } from './http/routes';
import { installSecurityHeaders } from './http/security-headers';
import { startJobs, startTimers } from './jobs/jobs';
import { JobQueue } from './jobs/queue';
import { listRoutes } from './lists/routes';
import { profileRoutes } from './profile/routes';
import type { ProcessRegistry } from './system/processes';
import { mailboxFor, systemRoutes } from './system/routes';
import { tenantRoutes } from './tenant/routes';

export interface AppDeps {
  config: Config;
  database: Database;
  identity?: IdentityAdapter;
  mailTransport?: MailTransport;
  /** false for tests; a pino options object otherwise. */
  logger?: boolean | object;
  /** Credentials: how other issuers' DID documents and status lists are read (tests give their own). */
  credentials?: CredentialServiceOptions;
}

export interface Services {
  config: Config;
  database: Database;
  identity: IdentityAdapter;
  tokens: TokenService;
  mail: MailService;
  /** Files (award and question images, import files): local under DATA_DIR, or an S3 bucket. */
  storage: StorageAdapter;
  jobs: JobQueue;
  /**
   * This process in the registry of processes on one PostgreSQL: server/main.ts joins it before the app is
   * ready (the jobs module keeps it alive); null on PGlite and in tests.
   */
  processes: ProcessRegistry | null;
}

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, database } = deps;
  const app = Fastify({
    logger:
      deps.logger === false
        ? false
        : {
            level: config.logLevel,
            redact: ['req.headers.authorization', 'req.headers.cookie', 'body.token', 'body.refreshToken'],
            ...(typeof deps.logger === 'object' ? deps.logger : {}),
          },
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    logController: new LogController({
      disableRequestLogging: config.logLevel !== 'debug' && config.logLevel !== 'trace',
    }),
    requestIdHeader: 'x-request-id',
  });

  const identity =
    deps.identity ??
    createIdentityAdapter({
      projectId: config.firebase.projectId,
      emulatorHost: config.firebase.emulatorHost,
    });
  const tokens = new TokenService(database.db, config);
  const jobs = new JobQueue(database, { work: config.jobs.work, log: app.log });
  const mail = new MailService(
    database.db,
    deps.mailTransport ??
      (config.smtpUrl ? smtpTransport(config.smtpUrl, config.mailFrom) : mailboxTransport),
    app.log,
    jobs,
    config.mailRetry,
    mailDomain(config.mailFrom),
  );
  const storage = createStorage(config.storage, config.publicUrl);
  app.decorate('services', { config, database, identity, tokens, mail, storage, jobs, processes: null });

  installErrorHandling(app);
  installJsonBody(app);

  installSecurityHeaders(app, config);
  await app.register(cors, {
    origin: (origin, cb) => cb(null, !origin || config.corsOrigins.includes(origin)),
    methods: ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'],
    allowedHeaders: ['authorization', 'content-type', 'accept', 'x-request-id'],
    maxAge: 600,
  });
  // counts shared by every process on the database, so a limit means what it says (decision 009)
  await app.register(rateLimit, {
    global: false,
    store: databaseRateLimitStore(database.db),
    // a counting failure lets the request through rather than failing it
    skipOnError: true,
  });
  app.decorate('rateLimits', config.rateLimit);
  // shedding: 503 + Retry-After, the same answer whether the event loop or the database pool is behind
  const shed = (reply: FastifyReply) => {
    reply.code(503).header('retry-after', String(config.shed.retryAfterSeconds)).send({
      statusCode: 503,
      error: 'Service Unavailable',
      message: 'The server is busy, please try again shortly.',
    });
  };
  if (config.shed.eventLoopDelayMs > 0) {
    await app.register(underPressure, {
      maxEventLoopDelay: config.shed.eventLoopDelayMs,
      retryAfter: config.shed.retryAfterSeconds,
      exposeStatusRoute: false,
      pressureHandler: (_req, reply) => shed(reply),
    });
  }
  if (config.shed.poolWaitMs > 0) {
    // a request taken in now would queue behind one that has already waited too long for a connection
    app.addHook('onRequest', (_req, reply, done) => {
      if (database.poolWaitMs() > config.shed.poolWaitMs) shed(reply);
      else done();
    });
  }

  installAuthentication(app, database.db, tokens);

  // `reads`: where a read that may lag goes (the replica while it is in use); `db`: everything else
  const services = {
    db: database.db,
    reads: () => database.reads(),
    replica: database.replica,
    config,
    identity,
    tokens,
    mail,
  };
  database.replica?.setLog(app.log);
  authRoutes(app, services);
  profileRoutes(app, services);
  listRoutes(app, services);
  systemRoutes(app, services);
  tenantRoutes(app, services);
  billingRoutes(app, services);
  authoringRoutes(app, services);
  activityRoutes(app, services);
  catalogueRoutes(app, { ...services, tests: roadmapTests });
  assessmentRoutes(app, services);
  awardRoutes(app, services);
  await credentialService(app, services, deps.credentials);
  credentialRoutes(app, services);

  // the HTTP core's own routes: uploads and stored files, the API document, the portal and widget files
  fileRoutes(app, { storage });
  registerDocs(app, config);
  await registerStatic(app, config);

  // every timer, scheduled and queued job starts from one module (server/jobs/jobs.ts)
  let stopTimers = () => {};
  app.addHook('onReady', async () => {
    const deps = {
      db: database.db,
      database,
      config,
      identity,
      mail,
      billing: billingOf(app),
      processes: app.services.processes,
      log: app.log,
    };
    stopTimers = startTimers(deps);
    await startJobs(jobs, deps);
  });
  app.addHook('onClose', async () => {
    stopTimers();
    await jobs.stop();
  });
  return app;
}

/** The domain of MAIL_FROM's address, for Message-ID headers. */
function mailDomain(from: string): string {
  return /@([A-Za-z0-9.-]+)>?\s*$/.exec(from)?.[1] ?? 'waymark.local';
}

/** Where the API document and its viewer are. */
const DOCS_PATH = '/docs';

function registerDocs(app: FastifyInstance, config: Config) {
  let doc: unknown;
  app.get(`${DOCS_PATH}/openapi.json`, async () => {
    doc ??= buildOpenApi(`${config.publicUrl}`);
    return doc;
  });
  const require = createRequire(import.meta.url);
  const swaggerDir = dirname(require.resolve('swagger-ui-dist/package.json'));
  const files: Record<string, string> = {
    'swagger-ui.css': 'text/css',
    'swagger-ui-bundle.js': 'application/javascript',
    'swagger-ui-standalone-preset.js': 'application/javascript',
  };
  for (const [file, type] of Object.entries(files)) {
    const body = readFileSync(join(swaggerDir, file));
    app.get(`${DOCS_PATH}/assets/${file}`, (_req, reply) =>
      reply.type(type).header('cache-control', 'public, max-age=86400').send(body),
    );
  }
  app.get(`${DOCS_PATH}/assets/init.js`, (_req, reply) =>
    reply
      .type('application/javascript')
      .send(
        "window.ui = SwaggerUIBundle({ url: '/docs/openapi.json', dom_id: '#swagger-ui', presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset], layout: 'StandaloneLayout', deepLinking: true });",
      ),
  );
  const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Waymark API</title><meta name="viewport" content="width=device-width, initial-scale=1"><link rel="stylesheet" href="/docs/assets/swagger-ui.css"></head><body><main id="swagger-ui"></main><script src="/docs/assets/swagger-ui-bundle.js"></script><script src="/docs/assets/swagger-ui-standalone-preset.js"></script><script src="/docs/assets/init.js"></script></body></html>`;
  app.get(DOCS_PATH, (_req, reply) => reply.type('text/html').send(page));
}

/** A folder of the widgets' immutable files: a semantic version (1.0.0, 1.2.0-beta.1). */
const VERSION_FOLDER = /^\d+\.\d+\.\d+(-[\w.]+)?$/;

/** Serves the built portal and widget files; every other page path gets the portal's index.html. */
async function registerStatic(app: FastifyInstance, config: Config) {
  const portalDir = join(config.staticDir, 'portal');
  const hasPortal = existsSync(join(portalDir, 'index.html'));
  if (hasPortal) {
    await app.register(fastifyStatic, {
      root: portalDir,
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
  // the embeddable widgets (node widgets/build-embed.mjs): partner pages load them from other origins,
  // as module scripts, which need CORS; the API calls they make are allowed through CORS_ORIGINS.
  // /widgets/{version}/… never changes (a year, immutable: pin it with SRI); /widgets/… is the moving
  // "latest" (five minutes). Keep earlier version folders in dist/widgets when deploying a new one.
  const widgetsDir = join(config.staticDir, 'widgets');
  if (existsSync(widgetsDir)) {
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
  // '/' is the portal's folder itself, which the static plugin refuses (403) since it lists no index:
  // the landing page is the portal's index.html like every other page path
  app.get('/', (_request, reply) => reply.callNotFound());
  // re-read index.html when a rebuild replaced it, so a running server never points at removed assets
  const indexFile = join(portalDir, 'index.html');
  let cached: { mtime: number; html: string } | null = null;
  const indexHtml = () => {
    if (!existsSync(indexFile)) return null;
    const mtime = statSync(indexFile).mtimeMs;
    if (!cached || cached.mtime !== mtime) cached = { mtime, html: readFileSync(indexFile, 'utf8') };
    return cached.html;
  };
  const pathOf = (request: FastifyRequest) => request.url.split('?')[0] ?? '/';
  /** A portal page: the portal's index.html answers it (its router shows the page, or its own not-found). */
  const isPagePath = (request: FastifyRequest, path: string) =>
    request.method === 'GET' &&
    !isApiPath(path) &&
    !underPath(path, DOCS_PATH) &&
    !/\.[a-z0-9]{1,5}$/i.test(path);
  // unknown paths are rate-limited per address (counted in the database like every limit), so a scanner's
  // burst gets 429 rather than as many 404s as it asks for; portal pages are not counted
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
      const isPage = isPagePath(request, path);
      if (
        isPage &&
        /^\/mailbox\/?$/.test(path) &&
        mailboxFor(config, app.services.mail, request) !== 'open'
      ) {
        // the local mailbox page exists only in the development setup, for a person at this machine
        return reply
          .code(404)
          .type('text/html')
          .send(
            '<!doctype html><html lang="en"><title>Not found · Waymark</title><main><h1>Not found</h1><p>There is no such page.</p><p><a href="/">Home</a></p></main></html>',
          );
      }
      const html = isPage ? indexHtml() : null;
      if (html) {
        // award pages carry Open Graph tags so a shared link shows the image
        return reply
          .type('text/html')
          .header('cache-control', 'no-cache')
          .send(await withAwardMeta(app, path, html));
      }
      if (isPage) {
        return reply
          .type('text/html')
          .send(
            await withAwardMeta(
              app,
              path,
              '<!doctype html><html lang="en"><title>Waymark</title><main><h1>Waymark</h1><p>The portal is not built. Run <code>npm start</code>, which builds it.</p></main></html>',
            ),
          );
      }
      return reply
        .code(404)
        .send({ statusCode: 404, error: 'Not Found', message: `No such call: ${request.method} ${path}` });
    },
  );
}
