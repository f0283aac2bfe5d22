/**
 * The JSON request body: Fastify's own parser (secure-json-parse, which refuses a `__proto__` or
 * `constructor` key with 400) for any text that could hold one, and a plain `JSON.parse` for the rest.
 *
 * The standard parser runs two regular expressions over every body, looking for those keys in any spelling
 * JSON allows (`\u005f_proto__`, …); a body with no `\u` escape and neither word in it cannot hold one, and
 * a plain text search says so in a fraction of the time. The same search tells the input check something
 * more: a NUL character can reach a string of JSON only as the escape `\u0000` (a raw control character is
 * not JSON), so a body without `\u` holds none, and `parse` (routes.ts) need not walk it looking for one.
 * Together 12 µs of each autosave and submission (bench/exam-day.ts --profile, 2026-11-28).
 *
 * **Bounds, before anything parses or checks a body** (issue 25: a credential nested 6,000 deep reached the
 * verify call's schema, whose JSON.stringify threw a RangeError, a 500):
 * - depth: no body nests deeper than 64 levels (shared/schemas/json-depth.ts; the deepest legitimate body,
 *   a credential, has about 6), read from the text before JSON.parse — a 400 "The request body nests deeper
 *   than 64 levels" naming `body`;
 * - size, by class of route (Fastify refuses more with 413 before reading on): JSON calls 1 MiB
 *   (JSON_BODY_LIMIT of shared/contract/define.ts, the app's bodyLimit); a call with a raw body its own `rawBody.maxBytes` (images 5 MB,
 *   the payment webhook 256 KB); the local upload route MAX_UPLOAD_BYTES (files.ts); the sandbox checkout's
 *   form 1 KB. A call's schema may bound a field further (a credential: 200,000 characters).
 */
import { jsonTextTooDeep, MAX_JSON_DEPTH } from '@shared/schemas/json-depth';
import type { FastifyInstance } from 'fastify';
import { badRequest } from './errors';

/** The bodies parsed from a text without a `\u` escape: no NUL in any of their strings. */
const escapeFree = new WeakSet<object>();

/** True when `body` is a request body parsed from JSON text without a `\u` escape (so without a NUL). */
export const parsedWithoutEscapes = (body: unknown): boolean =>
  typeof body === 'object' && body !== null && escapeFree.has(body);

/** Replaces Fastify's application/json parser with the one above (same errors, same limits). */
export function installJsonBody(app: FastifyInstance) {
  const standard = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, text, done) => {
    const body = text as string;
    if (jsonTextTooDeep(body))
      return done(
        badRequest(`The request body nests deeper than ${MAX_JSON_DEPTH} levels`, 'body'),
        undefined,
      );
    if (
      body.length === 0 ||
      body.charCodeAt(0) === 0xfeff ||
      body.includes('\\u') ||
      body.includes('__proto__') ||
      body.includes('constructor')
    )
      return standard(request, body, done);
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      // the standard parser's own error (400, the body named)
      return standard(request, body, done);
    }
    if (typeof parsed === 'object' && parsed !== null) escapeFree.add(parsed);
    done(null, parsed);
  });
}
