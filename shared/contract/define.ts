/**
 * The declaration form of an API call. Every call the product makes is declared once with `defineCall`;
 * the server registers its routes from these declarations, the client derives its requests from them, and
 * the OpenAPI document is generated from them.
 */
import type { z } from 'zod';
import type { Device, Role } from '../schemas/common';
import type { ApiScope } from '../schemas/integrations';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

/**
 * Who may call:
 * - `public`: anyone, no token read;
 * - `optional`: anyone; a valid token identifies the caller (an invalid one is refused with 401);
 * - `signedIn`: any signed-in person;
 * - a list of roles: signed-in people with one of those roles.
 */
export type Access = 'public' | 'optional' | 'signedIn' | readonly Role[];

export interface CallDef {
  readonly method: Method;
  /** The exact path of the specification, with `{param}` segments, relative to the API prefix. */
  readonly path: string;
  readonly summary: string;
  /** A longer account of what the call does, for the API document. */
  readonly description?: string;
  readonly tags: readonly string[];
  readonly access: Access;
  /**
   * The scopes that let an API key make this call (any one of them; decision 039). A key acts as the tenant
   * that made it, so the call's `access` must admit TENANT. Without `scopes` the call refuses API keys
   * (403 API_KEY_NOT_ALLOWED); a key without one of these gets 403 API_KEY_SCOPE.
   */
  readonly scopes?: readonly ApiScope[];
  /**
   * A session opened by an LTI launch may make this call (decision 044). Such a session is a learner's,
   * limited to one tenant: every other call refuses it (403 LTI_SESSION_LIMITED).
   */
  readonly lti?: boolean;
  /** Devices whose tokens may call (all when absent). */
  readonly devices?: readonly Device[];
  readonly params?: z.ZodType;
  readonly query?: z.ZodType;
  /**
   * Request headers the call reads beside Authorization (an object of lower-case header names; others are
   * ignored). A 400 names the header when one is malformed or missing while required.
   */
  readonly headers?: z.ZodType;
  readonly body?: z.ZodType;
  /** Response bodies by status. The first 2xx is the success body the client returns. */
  readonly responses: { readonly [status: number]: z.ZodType };
  /** Requests per minute per address, for calls that must not be hammered (sign-in, e-mail checks). */
  readonly rateLimit?: 'auth' | 'strict';
  /** Raw request body (for example an uploaded image); the body schema is not applied. */
  readonly rawBody?: { readonly contentTypes: readonly string[]; readonly maxBytes: number };
  /**
   * The call answers a file to download (a CSV report, an export), streamed, instead of a JSON envelope: its
   * success response has one of these content types and an attachment name. Errors are JSON as always.
   */
  readonly download?: { readonly contentTypes: readonly string[] };
  /**
   * A POST that is safe to send again (it writes nothing, or running it twice does what running it once
   * does): a client may repeat it after a 503 with Retry-After, as it does GET, PUT and DELETE.
   */
  readonly idempotent?: boolean;
}

/**
 * The largest JSON request body of any call, in bytes (the server's bodyLimit; more is refused with 413
 * before it is read). A call with a raw body declares its own (`rawBody.maxBytes`); a client that sends
 * many items in one body (the question import's batches) stays under this one.
 */
export const JSON_BODY_LIMIT = 1024 * 1024;

export function defineCall<const D extends CallDef>(def: D): D {
  return def;
}

/**
 * A router: calls one server module serves, by their names (each the name the contract module exports it
 * under). A contract module ends with its router — or one per server module, where its calls are served by
 * more than one (decision 036) — and `registry.ts` lists the routers. The server serves a router with one
 * handler per call (`serve` in server/http/routes.ts: a missing handler does not compile).
 */
export type Router = { readonly [name: string]: CallDef };

export function defineRouter<const R extends Router>(calls: R): Readonly<R> {
  return Object.freeze(calls);
}

type InferOr<T, Fallback> = T extends z.ZodType ? z.infer<T> : Fallback;
type InputOr<T, Fallback> = T extends z.ZodType ? z.input<T> : Fallback;

export type CallParams<C extends CallDef> = InferOr<C['params'], Record<string, never>>;
export type CallQuery<C extends CallDef> = InferOr<C['query'], Record<string, never>>;
export type CallBody<C extends CallDef> = InferOr<C['body'], undefined>;
export type CallHeaders<C extends CallDef> = InferOr<C['headers'], Record<string, never>>;

/** What a caller sends: the input side of each schema (before defaults and coercion). */
export interface CallInput<C extends CallDef> {
  params: InputOr<C['params'], undefined>;
  query: InputOr<C['query'], undefined>;
  body: InputOr<C['body'], undefined>;
}

type SuccessStatus = 200 | 201 | 202 | 204;
export type SuccessStatusOf<C extends CallDef> = Extract<keyof C['responses'], SuccessStatus>;
export type CallSuccess<C extends CallDef> = z.infer<C['responses'][SuccessStatusOf<C>]>;

/** What a handler may answer: one of the declared statuses with its body. */
export type CallResult<C extends CallDef> = {
  [S in keyof C['responses'] & number]: { status: S; body: z.input<C['responses'][S]> };
}[keyof C['responses'] & number];

/** `/user/delete/{userId}` with `{ userId: 'x' }` → `/user/delete/x` */
export function fillPath(path: string, params: Record<string, unknown> | undefined): string {
  return path.replace(/\{([A-Za-z0-9_]+)\}/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null || value === '') {
      throw new Error(`Missing path parameter ${name} for ${path}`);
    }
    return encodeURIComponent(String(value));
  });
}

export function successStatus(call: CallDef): number {
  const statuses = Object.keys(call.responses)
    .map(Number)
    .filter((s) => s >= 200 && s < 300)
    .sort((a, b) => a - b);
  return statuses[0] ?? 200;
}
