/**
 * What every request passes before its route: the security headers (security-headers.ts), CORS limited to
 * the portal's origin and CORS_ORIGINS, the rate limits' counts in the database (rate-limit-store.ts, shared
 * by every process: decision 009), and load shedding — 503 with Retry-After, one answer whether the event
 * loop is behind on average (SHED_EVENT_LOOP_DELAY_MS), work has queued too long for the loop's turn or
 * for a handler (SHED_QUEUE_MS, queueing.ts) or a request has waited too long for a database connection
 * (SHED_POOL_WAIT_MS).
 */

import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import underPressure from '@fastify/under-pressure';
import { ATTEMPT_TOKEN_HEADER } from '@shared/rules/attempt-token';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Config } from '../config';
import type { Database } from '../db/client';
import { watchQueueing } from './queueing';
import { databaseRateLimitStore } from './rate-limit-store';
import { installSecurityHeaders } from './security-headers';

export async function installProtections(app: FastifyInstance, config: Config, database: Database) {
  installSecurityHeaders(app, config);
  await app.register(cors, {
    origin: (origin, cb) => cb(null, !origin || config.corsOrigins.includes(origin)),
    methods: ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'],
    // a test's attempt token (decision 031): <wm-test-taker> on a partner's page sends it
    allowedHeaders: ['authorization', 'content-type', 'accept', 'x-request-id', ATTEMPT_TOKEN_HEADER],
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
  await installShedding(app, config, database);
}

/**
 * Shedding: 503 + Retry-After, the same answer whether the event loop, the requests before their handlers
 * or the database pool are behind. Each process reads its own queues and turns away its own requests.
 */
async function installShedding(app: FastifyInstance, config: Config, database: Database) {
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
  if (config.shed.queueMs > 0) {
    // a request read now waited at least the loop's turn it arrived in (and its connection's accept); one
    // taken in now would wait behind the oldest request not yet at its handler
    const queue = watchQueueing(app, config.shed.queueMs);
    app.addHook('onRequest', (request, reply, done) => {
      if (queue.queuedMs(request) > config.shed.queueMs) shed(reply);
      else done();
    });
  }
  if (config.shed.poolWaitMs > 0) {
    // a request taken in now would queue behind one that has already waited too long for a connection
    app.addHook('onRequest', (_req, reply, done) => {
      if (database.poolWaitMs() > config.shed.poolWaitMs) shed(reply);
      else done();
    });
  }
}
