/**
 * Builds the HTTP application: every service first (services.ts), then what every request passes (the one
 * error handler, JSON bodies, security headers, CORS, rate limits, load shedding, authentication), the
 * routes of every domain, and the HTTP core's own (files, the API document, the portal and widget files,
 * the 404 policy). The jobs start when the app is ready.
 */
import { JSON_BODY_LIMIT } from '@shared/contract/define';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import { activityRoutes } from './activity/routes';
import { analysisRoutes } from './analysis/routes';
import { assessmentRoutes } from './assessments/routes';
import { installAuthentication } from './auth/current-user';
import { authRoutes } from './auth/routes';
import { authoringRoutes } from './authoring/routes';
import { withAwardMeta } from './awards/og';
import { awardRoutes } from './awards/routes';
import { billingRoutes } from './billing/routes';
import { catalogueRoutes } from './catalogue/routes';
import type { Config } from './config';
import { credentialRoutes } from './credentials/routes';
import type { Database } from './db/client';
import { docsRoutes } from './http/docs';
import { installErrorHandling } from './http/errors';
import { fileRoutes } from './http/files';
import { installJsonBody } from './http/json-body';
import { installNotFound } from './http/not-found';
import { installProtections } from './http/protections';
import { staticRoutes } from './http/static';
import { auditRoutes } from './integrations/audit/routes';
import { apiKeyRoutes } from './integrations/keys/routes';
import { ltiRoutes } from './integrations/lti/routes';
import { scimRoutes } from './integrations/scim/routes';
import { scimSettingsRoutes } from './integrations/scim/settings';
import { ssoRoutes } from './integrations/sso/routes';
import { ssoRequiredFor } from './integrations/sso/service';
import { webhookRoutes } from './integrations/webhooks/routes';
import { xapiRoutes } from './integrations/xapi/routes';
import { startJobs, startTimers } from './jobs/jobs';
import { listRoutes } from './lists/routes';
import { profileRoutes } from './profile/routes';
import { renewalRoutes } from './renewals/routes';
import { sandboxRoutes } from './sandbox/routes';
import { createServices, type ServiceOverrides, type Services } from './services';
import { pageShown } from './system/mailbox';
import { systemRoutes } from './system/routes';
import { cohortRoutes } from './tenant/cohort-routes';
import { tenantRoutes } from './tenant/routes';

export interface AppDeps {
  config: Config;
  database: Database;
  /** Services to use instead of the ones the settings would build (tests). */
  services?: ServiceOverrides;
  /** false for tests; a pino options object otherwise. */
  logger?: boolean | object;
  /**
   * A server process (server/main.ts): it joins the registry of processes on its PostgreSQL, and refuses to
   * start beside one whose files or secret live elsewhere (ProcessConflictError, decision 009).
   */
  serverProcess?: boolean;
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
    bodyLimit: JSON_BODY_LIMIT,
    logController: new LogController({
      disableRequestLogging: config.logLevel !== 'debug' && config.logLevel !== 'trace',
    }),
    requestIdHeader: 'x-request-id',
  });
  const services = await createServices(config, database, app.log, deps.services, {
    serverProcess: deps.serverProcess,
  });
  app.decorate('services', services);

  installErrorHandling(app);
  installJsonBody(app);
  await installProtections(app, config, database);
  installAuthentication(app, services.db, services.tokens, config.rateLimit.apiKey);

  serveDomains(app, services);
  fileRoutes(app, services);
  docsRoutes(app, config);
  await staticRoutes(app, config);
  installNotFound(app, config, {
    dress: (path, html) => withAwardMeta(services, path, html),
    shown: pageShown(config, services.mail),
  });

  // every timer, scheduled and queued job starts from one module (server/jobs/jobs.ts)
  let stopTimers = () => {};
  app.addHook('onReady', async () => {
    stopTimers = startTimers(services);
    await startJobs(services.jobs, services);
  });
  app.addHook('onClose', async () => {
    stopTimers();
    await services.jobs.stop();
  });
  return app;
}

/** The calls of every domain, each registration given the services it uses. */
function serveDomains(app: FastifyInstance, services: Services) {
  authRoutes(app, { ...services, ssoRequiredFor: (email) => ssoRequiredFor(services.db, email) });
  profileRoutes(app, services);
  listRoutes(app, services);
  systemRoutes(app, services);
  tenantRoutes(app, services);
  cohortRoutes(app, services);
  sandboxRoutes(app, services);
  billingRoutes(app, services);
  authoringRoutes(app, services);
  analysisRoutes(app, services);
  renewalRoutes(app, services);
  activityRoutes(app, services);
  catalogueRoutes(app, services);
  assessmentRoutes(app, services);
  awardRoutes(app, services);
  credentialRoutes(app, services);
  apiKeyRoutes(app, services);
  auditRoutes(app, services);
  scimSettingsRoutes(app, services);
  scimRoutes(app, services);
  ssoRoutes(app, services);
  webhookRoutes(app, services);
  xapiRoutes(app, services);
  ltiRoutes(app, services);
}
