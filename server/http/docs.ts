/**
 * The API document at /docs: the OpenAPI document generated from the contract (openapi.ts) at
 * /docs/openapi.json, made on its first request, in Swagger UI served offline from swagger-ui-dist.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';
import { buildOpenApi } from './openapi';

/** Where the API document and its viewer are. */
export const DOCS_PATH = '/docs';

/** Swagger UI's files, by their content types. */
const SWAGGER_FILES: Record<string, string> = {
  'swagger-ui.css': 'text/css',
  'swagger-ui-bundle.js': 'application/javascript',
  'swagger-ui-standalone-preset.js': 'application/javascript',
};

const INIT_SCRIPT =
  "window.ui = SwaggerUIBundle({ url: '/docs/openapi.json', dom_id: '#swagger-ui', presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset], layout: 'StandaloneLayout', deepLinking: true });";

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Waymark API</title><meta name="viewport" content="width=device-width, initial-scale=1"><link rel="stylesheet" href="/docs/assets/swagger-ui.css"></head><body><main id="swagger-ui"></main><script src="/docs/assets/swagger-ui-bundle.js"></script><script src="/docs/assets/swagger-ui-standalone-preset.js"></script><script src="/docs/assets/init.js"></script></body></html>`;

export function docsRoutes(app: FastifyInstance, config: Config) {
  let doc: unknown;
  app.get(`${DOCS_PATH}/openapi.json`, async () => {
    doc ??= buildOpenApi(`${config.publicUrl}`);
    return doc;
  });
  const swaggerDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  for (const [file, type] of Object.entries(SWAGGER_FILES)) {
    const body = readFileSync(join(swaggerDir, file));
    app.get(`${DOCS_PATH}/assets/${file}`, (_req, reply) =>
      reply.type(type).header('cache-control', 'public, max-age=86400').send(body),
    );
  }
  app.get(`${DOCS_PATH}/assets/init.js`, (_req, reply) =>
    reply.type('application/javascript').send(INIT_SCRIPT),
  );
  app.get(DOCS_PATH, (_req, reply) => reply.type('text/html').send(PAGE));
}
