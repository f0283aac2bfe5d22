/**
 * The attempt token (docs/decisions/031-attempt-credentials.md): the credential of one attempt at a test,
 * held by the browser that started it. The browser makes it (32 random bytes), keeps it, and sends it in the
 * `X-Attempt-Token` header with the start (`PUT /testlink/verify/{id}`), which binds the attempt to it, and
 * with every write of the attempt: an answer saved, the focus record's events, the evaluation. The server
 * keeps only a hash of it. The link id alone opens the Ready page; it writes nothing.
 */

/** The request header that carries the attempt token (HTTP header names are case-insensitive). */
export const ATTEMPT_TOKEN_HEADER = 'x-attempt-token';

/** An attempt token: 32 bytes in base64url without padding, 43 characters. */
export const ATTEMPT_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** The refusals of a write without the attempt's token (403, each with this errorCode). */
export const ATTEMPT_TOKEN_CODES = ['ATTEMPT_TOKEN_REQUIRED', 'ATTEMPT_TOKEN_INVALID'] as const;
export type AttemptTokenCode = (typeof ATTEMPT_TOKEN_CODES)[number];
export const isAttemptTokenCode = (code: string | undefined): code is AttemptTokenCode =>
  (ATTEMPT_TOKEN_CODES as readonly (string | undefined)[]).includes(code);

/** A new attempt token from the platform's cryptographic random source (browsers and Node alike). */
export function newAttemptToken(): string {
  const bytes = new Uint8Array(32);
  globalThis.crypto.getRandomValues(bytes);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The header that carries `token`, to spread into a request's headers. */
export const attemptHeaders = (token: string | null | undefined): Record<string, string> =>
  token ? { [ATTEMPT_TOKEN_HEADER]: token } : {};
