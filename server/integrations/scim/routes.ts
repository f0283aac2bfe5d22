/**
 * The SCIM 2.0 service provider at `/scim/v2` (RFC 7644; decision 043): a tenant's directory (Okta, Entra ID,
 * OneLogin, …) authenticates with one of the tenant's SCIM tokens and manages Users (learners with seats) and
 * Groups (cohorts). These routes speak SCIM, not the JSON API: bodies are application/scim+json (or JSON),
 * every error is SCIM's error message, and the routes are outside the API contract — they are described by
 * the discovery endpoints (ServiceProviderConfig, ResourceTypes, Schemas), as RFC 7644 §4 asks.
 */
import { scimTokenDisplay } from '@shared/schemas/integrations';
import { jsonTextTooDeep, MAX_JSON_DEPTH } from '@shared/schemas/json-depth';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { MailService } from '../../adapters/mail';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { HttpError } from '../../http/errors';
import { countRequest } from '../../http/rate-limit-store';
import type { SeatPlans } from '../../tenant/accounting';
import { actorOf, type Principal } from '../core/principal';
import { etagOf, type ScimContext } from './context';
import { readOperations } from './document';
import { invalidSyntax, invalidValue, ScimError } from './errors';
import {
  createGroup,
  deleteGroup,
  findGroup,
  listGroups,
  patchGroup,
  presentGroups,
  replaceGroup,
} from './groups';
import {
  ENTERPRISE_ATTRIBUTES,
  ENTERPRISE_URN,
  GROUP_ATTRIBUTES,
  GROUP_URN,
  LIST_URN,
  PATCH_URN,
  RESOURCE_TYPE_URN,
  SPC_URN,
  schemaDocument,
  USER_ATTRIBUTES,
  USER_URN,
} from './schemas';
import { checkScimToken } from './tokens';
import {
  createUser,
  deleteUser,
  findUser,
  listUsers,
  patchUser,
  present,
  presentMany,
  replaceUser,
} from './users';

export const SCIM_PREFIX = '/scim/v2';
const SCIM_JSON = 'application/scim+json; charset=utf-8';
/** The largest page a list returns (ServiceProviderConfig's filter.maxResults). */
export const SCIM_MAX_RESULTS = 200;
const DEFAULT_COUNT = 100;

declare module 'fastify' {
  interface FastifyRequest {
    scim: ScimContext | null;
  }
}

/** SCIM's error body for any error a SCIM route meets. */
function scimErrorOf(err: unknown): ScimError {
  if (err instanceof ScimError) return err;
  if (err instanceof HttpError) {
    if (err.statusCode >= 500)
      return new ScimError(err.statusCode, 'Something went wrong. Please try again later.');
    return new ScimError(err.statusCode, err.message);
  }
  const fe = err as FastifyError;
  if (fe && typeof fe.statusCode === 'number' && fe.statusCode < 500) {
    if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return new ScimError(413, 'The request body is too large');
    if (fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
      return new ScimError(415, 'Send the body as application/scim+json');
    if (fe.statusCode === 400) return invalidSyntax('The request body is not valid JSON');
    return new ScimError(fe.statusCode, fe.message);
  }
  const code =
    (err as { code?: string; cause?: { code?: string } }).code ??
    (err as { cause?: { code?: string } }).cause?.code;
  if (code === '40001' || code === '40P01')
    return new ScimError(503, 'The server is busy, please try again.');
  return new ScimError(500, 'Something went wrong. Please try again later.');
}

function send(reply: FastifyReply, status: number, body: unknown) {
  return reply.code(status).type(SCIM_JSON).send(body);
}

/** startIndex and count (RFC 7644 §3.4.2.4): 1-based, a count below 0 is 0, above the maximum the maximum. */
function page(query: Record<string, unknown>) {
  const int = (v: unknown, name: string, fallback: number) => {
    if (v === undefined || v === '') return fallback;
    const n = Number(v);
    if (!Number.isInteger(n)) throw invalidValue(`${name} must be an integer`);
    return n;
  };
  const startIndex = Math.max(1, int(query.startIndex, 'startIndex', 1));
  const count = Math.min(SCIM_MAX_RESULTS, Math.max(0, int(query.count, 'count', DEFAULT_COUNT)));
  const filter = typeof query.filter === 'string' && query.filter.trim() ? query.filter : undefined;
  return { startIndex, count, filter };
}

/** `attributes` / `excludedAttributes` (RFC 7644 §3.9) on a resource's top-level attributes. */
function project(resource: Record<string, unknown>, query: Record<string, unknown>) {
  const names = (v: unknown) =>
    typeof v === 'string' && v.trim()
      ? v.split(',').map((s) => s.trim().split(':').pop()!.split('.')[0]!.toLowerCase())
      : null;
  const only = names(query.attributes);
  const except = names(query.excludedAttributes);
  if (!only && !except) return resource;
  const always = new Set(['schemas', 'id', 'meta']);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(resource)) {
    const lower = k.toLowerCase();
    if (always.has(lower)) out[k] = v;
    else if (only ? only.includes(lower) : !except!.includes(lower)) out[k] = v;
  }
  return out;
}

function listResponse(resources: unknown[], total: number, startIndex: number) {
  return {
    schemas: [LIST_URN],
    totalResults: total,
    startIndex,
    itemsPerPage: resources.length,
    Resources: resources,
  };
}

const ifMatch = (request: FastifyRequest) =>
  typeof request.headers['if-match'] === 'string' ? request.headers['if-match'] : undefined;

type ScimDeps = { db: Db; seatPlans: SeatPlans; mail: MailService; config: Config };

/** The SCIM scope's media type (JSON, depth-bounded; an empty body is no body), its errors and its 404. */
function speakScim(scope: FastifyInstance) {
  scope.decorateRequest('scim', null);
  // SCIM's media type, read as JSON with the same depth bound as every JSON body
  const standard = scope.getDefaultJsonParser('error', 'error');
  // (an empty body is no body: directories send DELETE with a Content-Type and nothing after it)
  scope.removeContentTypeParser('application/json');
  scope.addContentTypeParser(
    ['application/scim+json', 'application/json'],
    { parseAs: 'string' },
    (request, text, done) => {
      if ((text as string).trim() === '') return done(null, undefined);
      if (jsonTextTooDeep(text as string))
        return done(invalidSyntax(`The request body nests deeper than ${MAX_JSON_DEPTH} levels`), undefined);
      standard(request, text as string, done);
    },
  );
  scope.setErrorHandler((err, request, reply) => {
    const e = scimErrorOf(err);
    if (e.status >= 500) request.log.error({ err, url: request.url }, 'SCIM request failed');
    if (e.status === 401) reply.header('www-authenticate', 'Bearer realm="Waymark SCIM"');
    reply.headers(e.headers);
    return send(reply, e.status, e.body());
  });
  scope.setNotFoundHandler((request, reply) =>
    send(
      reply,
      404,
      new ScimError(404, `${request.method} ${request.url.split('?')[0]} is not a SCIM endpoint`).body(),
    ),
  );
}

/**
 * Counts a request against a limit per minute shared by every process (the rate-limit store, decision 009);
 * past it, 429 with SCIM's error body and Retry-After — Entra ID and Okta wait that long and retry.
 */
async function withinLimit(db: Db, key: string, limit: number, who: string) {
  const { current, ttl } = await countRequest(db, key, 60_000);
  if (current <= limit) return;
  const wait = Math.max(1, Math.ceil(ttl / 1000));
  throw new ScimError(
    429,
    `${who} made more than ${limit} requests in a minute: wait ${wait} s.`,
    undefined,
    {
      'retry-after': String(wait),
    },
  );
}

/**
 * Every SCIM request carries one of the tenant's tokens; the token's row is read each time, so a revoked
 * token stops at its next request on every process. Sets the request's SCIM context (tenant, actor), after
 * counting the request against the token's limit.
 */
async function authenticateScim(request: FastifyRequest, deps: ScimDeps, base: string) {
  const header = request.headers.authorization ?? '';
  const [scheme, token] = header.split(' ');
  if (scheme?.toLowerCase() !== 'bearer' || !token)
    throw new ScimError(
      401,
      'Send a SCIM token of your Waymark organisation: Authorization: Bearer wmscim_…',
    );
  const check = await checkScimToken(deps.db, token);
  if (!check.ok)
    throw new ScimError(
      401,
      check.reason === 'REVOKED' ? 'This SCIM token has been revoked.' : 'This SCIM token is not valid.',
    );
  const t = check.token;
  await withinLimit(deps.db, `scim-token ${t.id}`, deps.config.rateLimit.scimToken, 'This SCIM token');
  const principal: Principal = {
    kind: 'scimToken',
    tokenId: t.id,
    tenantId: t.tenantId,
    label: `${t.name} (${scimTokenDisplay(t.prefix)})`,
  };
  request.scim = {
    db: deps.db,
    plans: deps.seatPlans,
    mail: deps.mail,
    publicUrl: deps.config.publicUrl.replace(/\/$/, ''),
    tenantId: t.tenantId,
    actor: actorOf(principal, '', {
      ip: request.ip,
      userAgent: typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'] : null,
    }),
    base,
  };
}

export function scimRoutes(app: FastifyInstance, deps: ScimDeps) {
  const base = `${deps.config.publicUrl.replace(/\/$/, '')}${SCIM_PREFIX}`;

  app.register(
    async (scope) => {
      speakScim(scope);

      // every address is counted before its token is read (guessing tokens costs requests), then each token
      scope.addHook('onRequest', (request) =>
        withinLimit(deps.db, `scim-address ${request.ip}`, deps.config.rateLimit.scimAddress, 'This address'),
      );
      // every SCIM request carries one of the tenant's tokens, read each time
      scope.addHook('preHandler', (request) => authenticateScim(request, deps, base));
      const ctx = (request: FastifyRequest) => request.scim!;
      const query = (request: FastifyRequest) => (request.query ?? {}) as Record<string, unknown>;
      const params = (request: FastifyRequest) => request.params as { id: string };
      const withEtag = (reply: FastifyReply, meta: { version: string; location: string }) =>
        reply.header('etag', meta.version).header('location', meta.location);

      // ---- discovery (RFC 7644 §4)
      scope.get('/ServiceProviderConfig', async (_request, reply) =>
        send(reply, 200, serviceProviderConfig(base)),
      );
      scope.get('/ResourceTypes', async (_request, reply) => {
        const types = resourceTypes(base);
        return send(reply, 200, listResponse(types, types.length, 1));
      });
      scope.get('/ResourceTypes/:id', async (request, reply) => {
        const found = resourceTypes(base).find((t) => t.id === params(request).id);
        if (!found) throw new ScimError(404, `ResourceType ${params(request).id} not found`);
        return send(reply, 200, found);
      });
      scope.get('/Schemas', async (_request, reply) => {
        const docs = schemaDocuments(base);
        return send(reply, 200, listResponse(docs, docs.length, 1));
      });
      scope.get('/Schemas/:id', async (request, reply) => {
        const found = schemaDocuments(base).find((s) => s.id === params(request).id);
        if (!found) throw new ScimError(404, `Schema ${params(request).id} not found`);
        return send(reply, 200, found);
      });

      // ---- Users
      scope.get('/Users', async (request, reply) => {
        const q = page(query(request));
        const { total, rows } = await listUsers(ctx(request), q);
        const resources = (await presentMany(ctx(request), rows)).map((r) => project(r, query(request)));
        return send(reply, 200, listResponse(resources, total, q.startIndex));
      });
      scope.get('/Users/:id', async (request, reply) => {
        const row = await findUser(deps.db, ctx(request).tenantId, params(request).id);
        const user = await present(ctx(request), row);
        if (request.headers['if-none-match'] === user.meta.version)
          return reply.code(304).header('etag', user.meta.version).send();
        return send(withEtag(reply, user.meta), 200, project(user, query(request)));
      });
      scope.post('/Users', async (request, reply) => {
        const row = await createUser(ctx(request), request.body);
        const user = await present(ctx(request), row);
        return send(withEtag(reply, user.meta), 201, user);
      });
      scope.put('/Users/:id', async (request, reply) => {
        const row = await replaceUser(ctx(request), params(request).id, request.body, ifMatch(request));
        const user = await present(ctx(request), row);
        return send(withEtag(reply, user.meta), 200, user);
      });
      scope.patch('/Users/:id', async (request, reply) => {
        const ops = readOperations(request.body, PATCH_URN);
        const row = await patchUser(ctx(request), params(request).id, ops, ifMatch(request));
        const user = await present(ctx(request), row);
        return send(withEtag(reply, user.meta), 200, user);
      });
      scope.delete('/Users/:id', async (request, reply) => {
        await deleteUser(ctx(request), params(request).id, ifMatch(request));
        return reply.code(204).send();
      });

      // ---- Groups (cohorts)
      scope.get('/Groups', async (request, reply) => {
        const q = page(query(request));
        const { total, rows } = await listGroups(ctx(request), q);
        const resources = (await presentGroups(ctx(request), rows)).map((r) => project(r, query(request)));
        return send(reply, 200, listResponse(resources, total, q.startIndex));
      });
      scope.get('/Groups/:id', async (request, reply) => {
        const row = await findGroup(deps.db, ctx(request).tenantId, params(request).id);
        const [group] = await presentGroups(ctx(request), [row]);
        if (request.headers['if-none-match'] === group!.meta.version)
          return reply.code(304).header('etag', group!.meta.version).send();
        return send(withEtag(reply, group!.meta), 200, project(group!, query(request)));
      });
      scope.post('/Groups', async (request, reply) => {
        const row = await createGroup(ctx(request), request.body);
        const [group] = await presentGroups(ctx(request), [row]);
        return send(withEtag(reply, group!.meta), 201, group);
      });
      scope.put('/Groups/:id', async (request, reply) => {
        const row = await replaceGroup(ctx(request), params(request).id, request.body, ifMatch(request));
        const [group] = await presentGroups(ctx(request), [row]);
        return send(withEtag(reply, group!.meta), 200, group);
      });
      // 204 without the members (a large group's list is not sent back for each change), as Okta and Entra
      // ID expect; the new version is in the ETag
      scope.patch('/Groups/:id', async (request, reply) => {
        const ops = readOperations(request.body, PATCH_URN);
        const row = await patchGroup(ctx(request), params(request).id, ops, ifMatch(request));
        return reply.code(204).header('etag', etagOf(row.version)).send();
      });
      scope.delete('/Groups/:id', async (request, reply) => {
        await deleteGroup(ctx(request), params(request).id, ifMatch(request));
        return reply.code(204).send();
      });
    },
    { prefix: SCIM_PREFIX },
  );
}

export function serviceProviderConfig(base: string) {
  return {
    schemas: [SPC_URN],
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: SCIM_MAX_RESULTS },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: true },
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'SCIM token',
        description:
          'A bearer token made by the organisation in Waymark (Integrations, Provisioning (SCIM)): Authorization: Bearer wmscim_…',
        primary: true,
      },
    ],
    meta: { resourceType: 'ServiceProviderConfig', location: `${base}/ServiceProviderConfig` },
  };
}

function resourceTypes(base: string) {
  return [
    {
      schemas: [RESOURCE_TYPE_URN],
      id: 'User',
      name: 'User',
      endpoint: '/Users',
      description: 'A learner of the organisation: active users hold a seat.',
      schema: USER_URN,
      schemaExtensions: [{ schema: ENTERPRISE_URN, required: false }],
      meta: { resourceType: 'ResourceType', location: `${base}/ResourceTypes/User` },
    },
    {
      schemas: [RESOURCE_TYPE_URN],
      id: 'Group',
      name: 'Group',
      endpoint: '/Groups',
      description: "A cohort of the organisation's learners.",
      schema: GROUP_URN,
      meta: { resourceType: 'ResourceType', location: `${base}/ResourceTypes/Group` },
    },
  ];
}

function schemaDocuments(base: string) {
  return [
    schemaDocument(USER_URN, 'User', 'User Account', USER_ATTRIBUTES, base),
    schemaDocument(ENTERPRISE_URN, 'EnterpriseUser', 'Enterprise User', ENTERPRISE_ATTRIBUTES, base),
    schemaDocument(GROUP_URN, 'Group', 'Group (a cohort)', GROUP_ATTRIBUTES, base),
  ];
}
