/**
 * One error shape for every failure, and one handler that produces it. No SQL, parameters or stack traces
 * ever reach a response; 5xx details are logged with the request, not sent.
 */

import { STATUS_CODES } from 'node:http';
import type { ErrorBody } from '@shared/schemas/common';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';

export class HttpError extends Error {
  readonly statusCode: number;
  readonly extra: Omit<ErrorBody, 'statusCode' | 'error' | 'message'>;
  /** Response headers that go with the error (Retry-After). */
  readonly headers: Record<string, string>;
  constructor(
    statusCode: number,
    message: string,
    extra: Omit<ErrorBody, 'statusCode' | 'error' | 'message'> = {},
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpError';
    this.statusCode = statusCode;
    this.extra = extra;
    this.headers = headers;
  }
  toBody(): ErrorBody {
    return {
      statusCode: this.statusCode,
      error: STATUS_CODES[this.statusCode] ?? 'Error',
      message: this.message,
      ...this.extra,
    };
  }
}

export const badRequest = (message: string, field?: string, extra: Partial<ErrorBody> = {}) =>
  new HttpError(400, message, { ...(field ? { field, fields: { [field]: message } } : {}), ...extra });
export const unauthorized = (message = 'Please sign in again.', errorCode?: string) =>
  new HttpError(401, message, errorCode ? { errorCode } : {});
export const forbidden = (message = 'Not permitted', errorCode?: string) =>
  new HttpError(403, message, errorCode ? { errorCode } : {});
export const notFound = (message = 'Not found') => new HttpError(404, message);
export const conflict = (message: string, extra: Partial<ErrorBody> = {}) =>
  new HttpError(409, message, extra);

/** A zod failure as a 400 that names every invalid field; `where` prefixes query and params fields. */
export function fromZod(
  error: z.ZodError,
  where: 'body' | 'query' | 'params' | 'headers' | 'settings' = 'body',
): HttpError {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const path = issue.path.map(String).join('.');
    const key = path || where;
    if (!(key in fields)) fields[key] = issue.message;
  }
  const [first] = Object.entries(fields);
  const field = first?.[0] ?? where;
  const message = first ? (first[0] === where ? first[1] : `${first[0]}: ${first[1]}`) : 'Invalid input';
  return new HttpError(400, message, { field, fields });
}

/** Unique indexes, by name, and the field a duplicate is about. */
const UNIQUE_FIELDS: Record<string, string> = {
  users_phone_number_key: 'phoneNumber',
  users_email_key: 'email',
  users_firebase_uid_key: 'email',
  subjects_name_key: 'name',
  languages_name_key: 'name',
  topics_subject_name_key: 'name',
  tenant_users_pair_key: 'email',
  roadmaps_name_key: 'name',
  resources_short_id_key: 'shortId',
  assigned_roadmaps_user_roadmap_key: 'roadmapId',
  test_links_link_id_key: 'linkId',
};

interface PgLikeError {
  code?: string;
  constraint?: string;
  constraint_name?: string;
}

function pgCause(err: unknown): PgLikeError | null {
  let e: unknown = err;
  for (let i = 0; i < 4 && e && typeof e === 'object'; i++) {
    const code = (e as PgLikeError).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return e as PgLikeError;
    e = (e as { cause?: unknown }).cause;
  }
  return null;
}

/** Maps an error of any origin to the one error body. */
export function toHttpError(err: unknown): HttpError {
  if (err instanceof HttpError) return err;
  const pgErr = pgCause(err);
  if (pgErr) {
    const constraint = pgErr.constraint ?? pgErr.constraint_name ?? '';
    if (pgErr.code === '23505') {
      const field = UNIQUE_FIELDS[constraint] ?? 'value';
      return new HttpError(409, `${field} is already used`, {
        code: 11000,
        field,
        keyPattern: { [field]: 1 },
      });
    }
    if (pgErr.code === '23503') return new HttpError(400, 'refers to a record that does not exist');
    if (pgErr.code === '22P02' || pgErr.code === '22003' || pgErr.code === '22001') {
      return new HttpError(400, 'A value is not in the expected form');
    }
    if (pgErr.code === '40001' || pgErr.code === '40P01') {
      return new HttpError(503, 'The server is busy, please try again.');
    }
  }
  const fe = err as FastifyError;
  if (fe && typeof fe === 'object' && typeof fe.statusCode === 'number' && fe.statusCode < 500) {
    if (
      fe.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
      fe.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
      (fe.statusCode === 400 && /JSON/.test(fe.message))
    ) {
      return new HttpError(400, 'The body is not valid JSON', { field: 'body' });
    }
    if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return new HttpError(413, 'The body is too large');
    if (fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return new HttpError(415, 'Send the body as application/json');
    }
    if (fe.statusCode === 429)
      return new HttpError(429, 'Too many requests, please wait a minute and try again.');
    return new HttpError(
      fe.statusCode,
      fe.statusCode === 404 ? 'Not found' : 'The request could not be handled',
    );
  }
  return new HttpError(500, 'Something went wrong. Please try again later.');
}

export function installErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((err: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const httpErr = toHttpError(err);
    if (httpErr.statusCode >= 500) {
      request.log.error(
        { err, url: request.url, method: request.method, userId: request.user?.id },
        'request failed',
      );
    } else if (httpErr.statusCode !== 401 && httpErr.statusCode !== 404) {
      request.log.info(
        { statusCode: httpErr.statusCode, message: httpErr.message, field: httpErr.extra.field },
        'request refused',
      );
    }
    if (httpErr.statusCode === 429 && (err as { headers?: Record<string, string> }).headers) {
      reply.headers((err as { headers: Record<string, string> }).headers);
    }
    if (Object.keys(httpErr.headers).length) reply.headers(httpErr.headers);
    reply.code(httpErr.statusCode).send(httpErr.toBody());
  });
}
