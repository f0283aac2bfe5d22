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
import { badRequest, forbidden, fromZod, HttpError, parseOptions, unauthorized } from './errors';
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

/**
 * What a hot call's handler is given (see `hot`): its input, the token's caller as the token's signature and
 * claims alone say (`claimed`, unread), and `caller()`, which reads it.
 */
export interface HotContext<C extends CallDef> {
  params: CallParams<C>;
  query: CallQuery<C>;
  body: CallBody<C>;
  headers: CallHeaders<C>;
  /** The token's caller, unread (null: no token, the call is anonymous). */
  claimed: ClaimedCaller | null;
  /**
   * The caller, read as every other call reads it (authenticate: 401 when the token's session has ended or
   * its account is gone); null without a token. Read once, when first asked.
   */
  caller(): Promise<Caller | null>;
  request: FastifyRequest;
  reply: FastifyReply;
}

/**
 * A hot call's one handler (decision 025, amended by 038): it runs before the caller is read. Its statement
 * carries `sessionHolds(claimed)` (auth/current-user.ts) when there is a token, so a signed-out session or a
 * deleted account gives no row; it answers from a row that check let through, and otherwise — no row, the
 * long way — asks `caller()` first, so a session that has ended is a 401 before any error of the call's
 * own. The statement is not run again.
 */
export type HotHandler<C extends CallDef> = (ctx: HotContext<C>) => Promise<CallResult<C>>;
export interface Hot<C extends CallDef> {
  hot: HotHandler<C>;
}
/** Marks a hot call's handler (see HotHandler): only for calls of access 'optional'. */
export const hot = <C extends CallDef>(handler: HotHandler<C>): Hot<C> => ({ hot: handler });

export type Handlers<R extends Router> = { [K in keyof R]: Handler<R[K]> | Hot<R[K]> };

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
  const result = schema.safeParse(value ?? (where === 'body' ? undefined : {}), parseOptions());
  if (!result.success) throw fromZod(result.error, where);
  // a body parsed from JSON without a \u escape holds no NUL (json-body.ts): nothing to walk
  const nul = where === 'body' && parsedWithoutEscapes(value) ? null : nulAt(result.data);
  if (nul) {
    const field = nul.join('.') || where;
    throw badRequest(`${field}: must not contain the NUL character`, field);
  }
  return result.data;
}

/** The call's input, parsed with its schemas (a 400 names the field). */
function inputOf<C extends CallDef>(call: C, request: FastifyRequest) {
  return {
    params: parse(call.params, request.params, 'params'),
    query: parse(call.query, request.query, 'query'),
    headers: parse(call.headers, request.headers, 'headers'),
    body: call.rawBody ? request.body : parse(call.body, request.body, 'body'),
  } as Pick<HandlerContext<C>, 'params' | 'query' | 'body' | 'headers'>;
}

/**
 * A hot call (see HotHandler): the token's signature and claims checked, the caller not read. A token they
 * refuse, a device the call refuses and input that does not parse read the caller first, so that their
 * errors come in the order every call says them: 401, then 403, then 400.
 */
async function hotCall<C extends CallDef>(
  app: FastifyInstance,
  call: C,
  handler: HotHandler<C>,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<CallResult<C>> {
  const token = typeof request.headers.authorization === 'string';
  let read: Promise<Caller> | undefined;
  const caller = async () => {
    if (!token) return null;
    // a hot call names no scopes: an API key's caller is refused here (assertScopes), as by any such call
    read ??= app.authenticate(request).then((read) => {
      if (request.apiKeyLimits) reply.headers(request.apiKeyLimits);
      assertScopes(call, read);
      return read;
    });
    request.user = await read;
    return request.user;
  };
  let claimed: ClaimedCaller | null = null;
  if (token) {
    claimed = await app.claimsOf(request);
    if (!claimed) {
      // a person's session (assertScopes let no other principal through): its device and family are set
      const { id, device, familyId } = (await caller())!;
      claimed = { id, device: device!, familyId: familyId! };
    }
    if (call.devices && !call.devices.includes(claimed.device)) {
      await caller();
      throw forbidden('This call is not available to this device.');
    }
  }
  let input: Pick<HandlerContext<C>, 'params' | 'query' | 'body' | 'headers'>;
  try {
    input = inputOf(call, request);
  } catch (error) {
    await caller();
    throw error;
  }
  return handler({ ...input, claimed, caller, request, reply });
}

/**
 * Registers one call, with its handler or a hot call's (see HotHandler). A call that reads its body raw
 * (`rawBody`: an uploaded image, a signed webhook) gets it as a Buffer of any content type, in a scope of its
 * own: the handler says what is wrong with a type (415) rather than a parser.
 */
export function serveCall<C extends CallDef>(app: FastifyInstance, call: C, handler: Handler<C> | Hot<C>) {
  // an API key acts as its tenant: only a call a tenant may make can name the scopes that reach it
  if (call.scopes && !(Array.isArray(call.access) && call.access.includes('TENANT')))
    throw new Error(`${call.method} ${call.path}: scopes are for calls a TENANT may make`);
  // a statement can check a session, not a role: a hot handler is for calls open to anyone with the link
  if (typeof handler !== 'function' && call.access !== 'optional')
    throw new Error(`${call.method} ${call.path}: a hot handler needs access 'optional'`);
  if (call.rawBody) {
    const { maxBytes } = call.rawBody;
    app.register(async (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: maxBytes }, (_req, body, done) =>
        done(null, body),
      );
      route(scope, call, handler);
    });
  } else route(app, call, handler);
}

function route<C extends CallDef>(app: FastifyInstance, call: C, handler: Handler<C> | Hot<C>) {
  const limit = call.rateLimit ? app.rateLimits?.[call.rateLimit] : undefined;
  const validateResponses = process.env.NODE_ENV === 'test';
  app.route({
    method: call.method,
    url: API_PREFIX + toFastifyPath(call.path),
    config: limit ? { rateLimit: { max: limit, timeWindow: '1 minute' } } : {},
    ...(call.rawBody ? { bodyLimit: call.rawBody.maxBytes } : {}),
    handler: async (request, reply) => {
      if (typeof handler !== 'function')
        return respond(await hotCall(app, call, handler.hot, request, reply));
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
          throw forbidden('errors.notPermitted');
        }
        if (call.devices && (!caller.device || !call.devices.includes(caller.device))) {
          throw forbidden('errors.notThisDevice');
        }
      }
      request.user = caller;
      const input = inputOf(call, request);
      return respond(await handler({ ...input, caller, request, reply } as HandlerContext<C>));

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
 * does not compile, and is refused here too); a hot call's handler is marked with `hot`.
 */
export function serve<R extends Router>(app: FastifyInstance, router: R, handlers: Handlers<R>) {
  const names = Object.keys(router) as (keyof R & string)[];
  const isHandler = (h: unknown) =>
    typeof h === 'function' || typeof (h as Partial<Hot<CallDef>> | undefined)?.hot === 'function';
  const missing = names.filter((name) => !isHandler(handlers[name]));
  const unknown = Object.keys(handlers).filter((name) => !(name in router));
  if (missing.length || unknown.length) {
    throw new Error(
      `serve: ${[...missing.map((n) => `no handler for ${n}`), ...unknown.map((n) => `${n} is no call of the router`)].join('; ')}`,
    );
  }
  for (const name of names) {
    serveCall(app, router[name] as R[typeof name], handlers[name] as Handler<R[typeof name]>);
  }
}

/** Reads the bearer token of a request. */
export function bearer(request: FastifyRequest): string {
  const header = request.headers.authorization;
  if (!header) throw unauthorized('errors.signIn', 'TOKEN_MISSING');
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
