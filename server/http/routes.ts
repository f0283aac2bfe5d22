/**
 * Registers routes from the contract. A domain module calls `serve(app, router, handlers)` with one of the
 * contract's routers and one handler per call; a missing handler, a wrong status or a wrong body fails to
 * compile. Params, query and body are parsed with the declared schemas (a 400 names the field); the caller
 * is authenticated and authorised as the declaration says before the handler runs.
 */

import type {
  CallBody,
  CallDef,
  CallHeaders,
  CallParams,
  CallQuery,
  CallResult,
  Router,
} from '@shared/contract/define';
import type { Device } from '@shared/schemas/common';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { UserRow } from '../auth/current-user';
import type { Actor, Principal } from '../integrations/core/principal';
import { badRequest, forbidden, fromZod, HttpError, unauthorized } from './errors';
import { parsedWithoutEscapes } from './json-body';

export const API_PREFIX = '/api';

/** True for `base` itself and the paths below it (`base/…`), whatever the query: not `/apiary` for `/api`. */
export function underPath(url: string, base: string) {
  return url.startsWith(base) && (url.length === base.length || '/?'.includes(url[base.length]!));
}

/** True for a path the API answers (API_PREFIX and below), whatever its query. */
export const isApiPath = (url: string) => underPath(url, API_PREFIX);

/**
 * Who is asking, once authenticated: the account whose rights apply (an API key's tenant), its principal
 * (a person, or an API key with its scopes; decision 039) and the actor a change it makes is recorded as.
 */
export interface Caller {
  user: UserRow;
  id: string;
  /** The device of a person's session; null for an API key. */
  device: Device | null;
  /** The person's session (token family); null for an API key. */
  familyId: string | null;
  principal: Principal;
  /** Who this caller is in the audit log, and from where. */
  actor: Actor;
  /**
   * A session an LTI launch opened (decision 044): the tenant it is limited to. It makes only the calls
   * declared `lti`; null for every other caller.
   */
  ltiTenantId?: string | null;
}

/**
 * A caller known from the access token's signature and claims alone: the account and the session are not
 * read. Only a statement that carries `sessionHolds` (auth/current-user.ts) for it may act on it.
 */
export interface ClaimedCaller {
  id: string;
  device: Device;
  familyId: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    user: Caller | null;
    /** An API key's rate-limit headers (its count this minute), sent with the answer. */
    apiKeyLimits: Record<string, string> | null;
  }
  interface FastifyInstance {
    authenticate(request: FastifyRequest): Promise<Caller>;
    /** The verified claims of the request's token; null when it has none that verify. */
    claimsOf(request: FastifyRequest): Promise<ClaimedCaller | null>;
  }
}

type CallerFor<C extends CallDef> = C['access'] extends 'public' | 'optional' ? Caller | null : Caller;

export interface HandlerContext<C extends CallDef> {
  params: CallParams<C>;
  query: CallQuery<C>;
  body: CallBody<C>;
  /** The headers the call declares (`headers` in its declaration), parsed. */
  headers: CallHeaders<C>;
  caller: CallerFor<C>;
  request: FastifyRequest;
  reply: FastifyReply;
}

export type Handler<C extends CallDef> = (ctx: HandlerContext<C>) => Promise<CallResult<C>>;
export type Handlers<R extends Router> = { [K in keyof R]: Handler<R[K]> };

export interface QuickContext<C extends CallDef> {
  params: CallParams<C>;
  query: CallQuery<C>;
  body: CallBody<C>;
  headers: CallHeaders<C>;
  /** The token's caller, unread (null: no token, the call is anonymous). */
  claimed: ClaimedCaller | null;
  request: FastifyRequest;
  reply: FastifyReply;
}

/**
 * The common case of a hot call in one statement, the caller's check folded in: it runs before the caller
 * is read, and its statement carries `sessionHolds(claimed)` (when there is a token), so a signed-out session
 * or a deleted account gives no row. It answers only from a row that check let through, or returns null:
 * the call then takes the long way (authenticate, then the handler), which says why. What it answers must
 * be what the handler would answer.
 */
export type QuickHandler<C extends CallDef> = (ctx: QuickContext<C>) => Promise<CallResult<C> | null>;
export type QuickHandlers<R extends Router> = { [K in keyof R]?: QuickHandler<R[K]> };

export const toFastifyPath = (path: string) => path.replace(/\{([A-Za-z0-9_]+)\}/g, ':$1');

/** The path of the first string holding a NUL character (PostgreSQL text cannot store one), or null. */
export function nulAt(value: unknown, path: string[] = []): string[] | null {
  if (typeof value === 'string') return value.includes('\u0000') ? [...path] : null;
  if (value === null || typeof value !== 'object') return null;
  for (const [key, v] of Array.isArray(value) ? value.entries() : Object.entries(value)) {
    path.push(String(key));
    const found = nulAt(v, path);
    path.pop();
    if (found) return found;
  }
  return null;
}

function parse(
  schema: z.ZodType | undefined,
  value: unknown,
  where: 'body' | 'query' | 'params' | 'headers',
) {
  if (!schema) return where === 'body' ? undefined : {};
  const result = schema.safeParse(value ?? (where === 'body' ? undefined : {}));
  if (!result.success) throw fromZod(result.error, where);
  // a body parsed from JSON without a \u escape holds no NUL (json-body.ts): nothing to walk
  const nul = where === 'body' && parsedWithoutEscapes(value) ? null : nulAt(result.data);
  if (nul) {
    const field = nul.join('.') || where;
    throw badRequest(`${field}: must not contain the NUL character`, field);
  }
  return result.data;
}

/**
 * The quick handler's answer, or null for the long way: a token that does not verify, a device the call
 * refuses, or input that does not parse go the long way, so its errors (and their order) stay the handler's.
 */
async function tryQuick<C extends CallDef>(
  app: FastifyInstance,
  call: C,
  quick: QuickHandler<C>,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<CallResult<C> | null> {
  let claimed: ClaimedCaller | null = null;
  if (typeof request.headers.authorization === 'string') {
    claimed = await app.claimsOf(request);
    if (!claimed) return null;
    if (call.devices && !call.devices.includes(claimed.device)) return null;
  }
  let input: Pick<QuickContext<C>, 'params' | 'query' | 'body' | 'headers'>;
  try {
    input = {
      params: parse(call.params, request.params, 'params'),
      query: parse(call.query, request.query, 'query'),
      headers: parse(call.headers, request.headers, 'headers'),
      body: call.rawBody ? request.body : parse(call.body, request.body, 'body'),
    } as Pick<QuickContext<C>, 'params' | 'query' | 'body' | 'headers'>;
  } catch {
    return null;
  }
  return quick({ ...input, claimed, request, reply });
}

/**
 * Registers one call; `quick`, when given, answers its common case first (see QuickHandler). A call that
 * reads its body raw (`rawBody`: an uploaded image, a signed webhook) gets it as a Buffer of any content
 * type, in a scope of its own: the handler says what is wrong with a type (415) rather than a parser.
 */
export function serveCall<C extends CallDef>(
  app: FastifyInstance,
  call: C,
  handler: Handler<C>,
  quick?: QuickHandler<C>,
) {
  // an API key acts as its tenant: only a call a tenant may make can name the scopes that reach it
  if (call.scopes && !(Array.isArray(call.access) && call.access.includes('TENANT')))
    throw new Error(`${call.method} ${call.path}: scopes are for calls a TENANT may make`);
  // a statement can check a session, not a role: a quick handler is for calls open to anyone with the link
  if (quick && call.access !== 'optional')
    throw new Error(`${call.method} ${call.path}: a quick handler needs access 'optional'`);
  if (call.rawBody) {
    const { maxBytes } = call.rawBody;
    app.register(async (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: maxBytes }, (_req, body, done) =>
        done(null, body),
      );
      route(scope, call, handler, quick);
    });
  } else route(app, call, handler, quick);
}

function route<C extends CallDef>(
  app: FastifyInstance,
  call: C,
  handler: Handler<C>,
  quick: QuickHandler<C> | undefined,
) {
  const limit = call.rateLimit ? app.rateLimits?.[call.rateLimit] : undefined;
  const validateResponses = process.env.NODE_ENV === 'test';
  app.route({
    method: call.method,
    url: API_PREFIX + toFastifyPath(call.path),
    config: limit ? { rateLimit: { max: limit, timeWindow: '1 minute' } } : {},
    ...(call.rawBody ? { bodyLimit: call.rawBody.maxBytes } : {}),
    handler: async (request, reply) => {
      const early = quick ? await tryQuick(app, call, quick, request, reply) : null;
      if (early) return respond(early);
      let caller: Caller | null = null;
      const hasAuth = typeof request.headers.authorization === 'string';
      if (call.access !== 'public' && (call.access !== 'optional' || hasAuth)) {
        caller = await app.authenticate(request);
        if (request.apiKeyLimits) reply.headers(request.apiKeyLimits);
        assertScopes(call, caller);
        if (caller.ltiTenantId && !call.lti) {
          throw forbidden(
            'This session was opened from your course and cannot do this: open Waymark itself to do it.',
            'LTI_SESSION_LIMITED',
          );
        }
        if (Array.isArray(call.access) && !call.access.includes(caller.user.role)) {
          throw forbidden('Not permitted');
        }
        if (call.devices && (!caller.device || !call.devices.includes(caller.device))) {
          throw forbidden('This call is not available to this device.');
        }
      }
      request.user = caller;
      const params = parse(call.params, request.params, 'params');
      const query = parse(call.query, request.query, 'query');
      const headers = parse(call.headers, request.headers, 'headers');
      const body = call.rawBody ? request.body : parse(call.body, request.body, 'body');
      return respond(
        await handler({ params, query, headers, body, caller, request, reply } as HandlerContext<C>),
      );

      function respond(result: CallResult<C>) {
        // a download's success body is the file itself (a stream): nothing to check against a schema
        const file = call.download !== undefined && result.status >= 200 && result.status < 300;
        if (validateResponses && !file) {
          const schema = call.responses[result.status];
          if (!schema)
            throw new HttpError(500, `Undeclared status ${result.status} for ${call.method} ${call.path}`);
          const check = schema.safeParse(result.body);
          if (!check.success) {
            request.log.error(
              { issues: check.error.issues, path: call.path },
              'response does not match the contract',
            );
            throw new HttpError(
              500,
              `Response of ${call.method} ${call.path} does not match the contract: ${check.error.issues[0]?.path.join('.')} ${check.error.issues[0]?.message}`,
            );
          }
        }
        reply.code(result.status);
        const text = typeof result.body === 'object' && result.body ? jsonTexts.get(result.body) : undefined;
        if (text !== undefined) {
          if (!reply.hasHeader('content-type')) reply.type('application/json; charset=utf-8');
          return reply.send(text);
        }
        return reply.send(result.body);
      }
    },
  });
}

/**
 * An API key reaches only the calls that name one of its scopes (decision 039): a call without `scopes`
 * refuses every key, and a key without one of the call's scopes is refused — before anything else is read.
 * A person's rights are their role's.
 */
export function assertScopes(call: CallDef, caller: Caller) {
  const { principal } = caller;
  if (principal.kind === 'person') return;
  if (principal.kind !== 'apiKey' || !call.scopes?.length) {
    throw forbidden(
      principal.kind === 'apiKey'
        ? 'API keys cannot make this call: sign in as a person to make it.'
        : 'Not permitted',
      'API_KEY_NOT_ALLOWED',
    );
  }
  if (!call.scopes.some((scope) => principal.scopes.includes(scope))) {
    throw forbidden(
      `This API key cannot make this call: it needs the scope ${call.scopes.join(' or ')}.`,
      'API_KEY_SCOPE',
    );
  }
}

/**
 * Serves every call of a router: the handler map covers the router exactly (a missing or an unknown handler
 * does not compile, and is refused here too); `quick` gives some of them a quick handler.
 */
export function serve<R extends Router>(
  app: FastifyInstance,
  router: R,
  handlers: Handlers<R>,
  quick: QuickHandlers<R> = {},
) {
  const names = Object.keys(router) as (keyof R & string)[];
  const missing = names.filter((name) => typeof handlers[name] !== 'function');
  const unknown = Object.keys({ ...handlers, ...quick }).filter((name) => !(name in router));
  if (missing.length || unknown.length) {
    throw new Error(
      `serve: ${[...missing.map((n) => `no handler for ${n}`), ...unknown.map((n) => `${n} is no call of the router`)].join('; ')}`,
    );
  }
  for (const name of names) {
    serveCall(
      app,
      router[name] as R[typeof name],
      handlers[name] as Handler<R[typeof name]>,
      quick[name] as QuickHandler<R[typeof name]> | undefined,
    );
  }
}

/** Reads the bearer token of a request. */
export function bearer(request: FastifyRequest): string {
  const header = request.headers.authorization;
  if (!header) throw unauthorized('Please sign in.', 'TOKEN_MISSING');
  const [scheme, token] = header.split(' ');
  if (scheme?.toLowerCase() !== 'bearer' || !token)
    throw badRequest('Authorization must be "Bearer <token>"', 'authorization');
  return token;
}

declare module 'fastify' {
  interface FastifyInstance {
    rateLimits?: { auth: number; strict: number };
  }
}

/**
 * The JSON text of documents that never change once made (a signed credential, a status list), kept beside
 * the document: a cached document is then sent as its text instead of being serialized again on every read
 * (7.5 % of the server's CPU on a credential read, bench/credentials.ts --profile). The document must not be
 * changed afterwards; it is frozen to make sure.
 */
const jsonTexts = new WeakMap<object, string>();

/** Remembers `document`'s JSON text for serveCall (see above) and returns the (frozen) document. */
export function withJsonText<T extends object>(document: T): T {
  if (!jsonTexts.has(document)) jsonTexts.set(Object.freeze(document), JSON.stringify(document));
  return document;
}

/** Success results, typed so the status stays a literal. */
export const ok = <T>(body: T) => ({ status: 200 as const, body });
export const created = <T>(body: T) => ({ status: 201 as const, body });
export const answer = <const S extends number, T>(status: S, body: T) => ({ status, body });
