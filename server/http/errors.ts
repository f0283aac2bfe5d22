/**
 * One error shape for every failure, and one handler that produces it. No SQL, parameters or stack traces
 * ever reach a response; 5xx details are logged with the request, not sent. A message may be a message of
 * the catalogues (a key, or a key with values): it is said in the language the request asks for
 * (Accept-Language, decision 040), and logged in English.
 */

import { STATUS_CODES } from 'node:http';
import { formWordsIn, type IssueLike, isKeyOf, issueWords, ownWords, say } from '@shared/i18n/form-words';
import type { MessageKey } from '@shared/i18n/keys';
import { isLocalMessage, type LocalMessage, localMessage } from '@shared/i18n/message';
import type { Translator } from '@shared/i18n/translator';
import type { ErrorBody } from '@shared/schemas/common';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { english, translatorFor, uiLocaleOf } from '../lib/i18n';

/** What an error says: English text as it is, or a message of the catalogues said in the reader's language. */
export type ErrorText = string | LocalMessage;

/** A string that is a key of the catalogues is that message; any other string is text as it is. */
function said(text: ErrorText, translator: Translator): string {
  if (isLocalMessage(text)) {
    const english = (text as { english?: string }).english;
    return english && translator.locale === 'en' ? english : translator.t(text.key, text.values);
  }
  return translator.t(text as MessageKey);
}

export class HttpError extends Error {
  readonly statusCode: number;
  /** The message as given, said in each request's language by `toBody`. */
  readonly text: ErrorText;
  /** The message put together in a language, when it is more than one message (a field's problem). */
  compose?: (translator: Translator) => string;
  /** The fields' messages as given (keys, with their values), said in each request's language. */
  fieldTexts?: Record<string, ErrorText>;
  readonly extra: Omit<ErrorBody, 'statusCode' | 'error' | 'message'>;
  /** Response headers that go with the error (Retry-After). */
  readonly headers: Record<string, string>;
  constructor(
    statusCode: number,
    message: ErrorText,
    extra: Omit<ErrorBody, 'statusCode' | 'error' | 'message'> = {},
    headers: Record<string, string> = {},
  ) {
    super(said(message, english()));
    this.name = 'HttpError';
    this.text = message;
    this.statusCode = statusCode;
    this.extra = extra;
    this.headers = headers;
  }
  /** The body of the answer, its messages in `translator`'s language (English by default). */
  toBody(translator?: Translator): ErrorBody {
    const body: ErrorBody = {
      statusCode: this.statusCode,
      error: STATUS_CODES[this.statusCode] ?? 'Error',
      message: translator ? (this.compose?.(translator) ?? said(this.text, translator)) : this.message,
      ...this.extra,
    };
    if (translator && body.fields) {
      const given = this.fieldTexts ?? {};
      body.fields = Object.fromEntries(
        Object.entries(body.fields).map(([f, m]) => [f, said(given[f] ?? m, translator)]),
      );
    }
    return body;
  }
}

export function badRequest(message: ErrorText, field?: string, extra: Partial<ErrorBody> = {}): HttpError {
  const refusal = new HttpError(400, message, {
    ...(field ? { field, fields: { [field]: said(message, english()) } } : {}),
    ...extra,
  });
  if (field && !extra.fields) refusal.fieldTexts = { [field]: message };
  return refusal;
}
export const unauthorized = (message: ErrorText = 'errors.signInAgain', errorCode?: string) =>
  new HttpError(401, message, errorCode ? { errorCode } : {});
export const forbidden = (message: ErrorText = 'errors.notPermitted', errorCode?: string) =>
  new HttpError(403, message, errorCode ? { errorCode } : {});
export const notFound = (message: ErrorText = 'errors.notFound') => new HttpError(404, message);
export const conflict = (message: ErrorText, extra: Partial<ErrorBody> = {}) =>
  new HttpError(409, message, extra);

/**
 * The words of a zod issue by code (decision 052): a schema's own key or English, else zod's own complaint
 * said by `formWordsIn(english())` at the parse (`parseOptions`); null for other text, sent as it is.
 */
function wordsOf(issue: z.core.$ZodIssue): (LocalMessage & { english?: string }) | null {
  const en = english();
  const own = ownWords(issue.message, isKeyOf(en));
  // a schema's own English stays as it was for an English reader
  if (own) return isKeyOf(en)(issue.message) ? own : { ...own, english: issue.message };
  // a final issue has no input: the words are those whose English the parse gave it
  for (const missing of [true, false]) {
    const words = issueWords(issue as IssueLike, missing);
    if (say(en, words) === issue.message) return words;
  }
  return null;
}

/** What the server's parses pass zod: its complaints in the catalogue's English, found again by `wordsOf`. */
export const parseOptions = () => formWordsIn(english());

/** A zod failure as a 400 that names every invalid field; `where` prefixes query and params fields. */
export function fromZod(
  error: z.ZodError,
  where: 'body' | 'query' | 'params' | 'headers' | 'settings' = 'body',
): HttpError {
  const fields: Record<string, string> = {};
  const texts: Record<string, ErrorText> = {};
  const fieldCodes: NonNullable<ErrorBody['fieldCodes']> = {};
  for (const issue of error.issues) {
    const path = issue.path.map(String).join('.');
    const key = path || where;
    if (key in fields) continue;
    fields[key] = issue.message;
    const words = wordsOf(issue);
    texts[key] = words ?? issue.message;
    if (words)
      fieldCodes[key] = words.values ? { code: words.key, params: { ...words.values } } : { code: words.key };
  }
  const [first] = Object.entries(texts);
  const field = first?.[0] ?? where;
  // a field's words are said in the request's language
  const compose = (tr: Translator) =>
    first
      ? first[0] === where
        ? said(first[1], tr)
        : `${first[0]}: ${said(first[1], tr)}`
      : said('errors.invalidInput', tr);
  const refusal = new HttpError(400, compose(english()), {
    field,
    fields,
    ...(Object.keys(fieldCodes).length ? { fieldCodes } : {}),
  });
  refusal.compose = compose;
  refusal.fieldTexts = texts;
  return refusal;
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
      return new HttpError(409, localMessage('errors.alreadyUsed', { field }), {
        code: 11000,
        field,
        keyPattern: { [field]: 1 },
      });
    }
    if (pgErr.code === '23503') return new HttpError(400, 'errors.noSuchRecord');
    if (pgErr.code === '22P02' || pgErr.code === '22003' || pgErr.code === '22001') {
      return new HttpError(400, 'errors.badValue');
    }
    if (pgErr.code === '40001' || pgErr.code === '40P01') {
      return new HttpError(503, 'errors.busy');
    }
  }
  const fe = err as FastifyError;
  if (fe && typeof fe === 'object' && typeof fe.statusCode === 'number' && fe.statusCode < 500) {
    if (
      fe.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
      fe.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
      (fe.statusCode === 400 && /JSON/.test(fe.message))
    ) {
      return new HttpError(400, 'errors.invalidJson', { field: 'body' });
    }
    if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return new HttpError(413, 'errors.bodyTooLarge');
    if (fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return new HttpError(415, 'errors.jsonOnly');
    }
    if (fe.statusCode === 429) return new HttpError(429, 'errors.tooManyRequests');
    return new HttpError(fe.statusCode, fe.statusCode === 404 ? 'errors.notFound' : 'errors.unhandled');
  }
  return new HttpError(500, 'errors.server');
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
    // said in the language the request asks for (the portal and the elements ask for their reader's)
    const translator = translatorFor(uiLocaleOf(request.headers['accept-language']));
    reply.code(httpErr.statusCode).send(httpErr.toBody(translator));
  });
}
