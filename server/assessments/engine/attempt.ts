/**
 * Who writes an attempt (decision 031): the browser that started it, by the attempt token it made
 * (shared/rules/attempt-token.ts). The link keeps the token's hash (test_links.attempt_token_hash), never the
 * token; the hot statements compare it in their WHERE (`holderHolds`, the placeholder `holder`), the long
 * ways on the row they read (`assertHolder`).
 */
import { createHash } from 'node:crypto';
import { LINK_MESSAGES } from '@shared/rules/test-links';
import { type SQL, sql } from 'drizzle-orm';
import { HttpError } from '../../http/errors';
import type { LinkRow } from '../tables';

/** The mark of an attempt started before tokens (migration 0017): any write is its holder's until it ends. */
export const LEGACY_ATTEMPT = 'legacy';

/**
 * The hash kept for `token` on link `linkId`: SHA-256 over both, base64url (43 characters; never 'legacy').
 * The link's id is in it so that one attempt's hash says nothing of another's, whatever token a page sends.
 * Null without a token.
 */
export function attemptTokenHash(linkId: string, token: string | null | undefined): string | null {
  if (!token) return null;
  return createHash('sha256').update(`waymark-attempt\n${linkId}\n${token}`).digest('base64url');
}

/** 403 ATTEMPT_TOKEN_REQUIRED: a write of a started attempt without its token. */
export const attemptTokenRequired = () =>
  new HttpError(403, LINK_MESSAGES.heldElsewhere, {
    errorCode: 'ATTEMPT_TOKEN_REQUIRED',
    field: 'x-attempt-token',
  });

/** 403 ATTEMPT_TOKEN_INVALID: a write with a token that is not the attempt's (another browser, a takeover). */
export const attemptTokenInvalid = () =>
  new HttpError(403, LINK_MESSAGES.heldElsewhere, {
    errorCode: 'ATTEMPT_TOKEN_INVALID',
    field: 'x-attempt-token',
  });

/** Whether a request with this token hash may write the link's attempt. */
export const holds = (link: Pick<LinkRow, 'attemptTokenHash'>, hash: string | null) =>
  link.attemptTokenHash === LEGACY_ATTEMPT || (hash !== null && link.attemptTokenHash === hash);

/** Refuses a write that does not carry the attempt's token (after the link's own errors). */
export function assertHolder(link: Pick<LinkRow, 'attemptTokenHash'>, hash: string | null) {
  if (holds(link, hash)) return;
  throw hash === null ? attemptTokenRequired() : attemptTokenInvalid();
}

/**
 * `holds` in a statement, for the link whose hash column this names; the statement takes the placeholder
 * `holder` (the request's hash, or null).
 */
export const holderHolds = (column: SQL) =>
  sql`(${column} = ${sql.placeholder('holder')}::text or ${column} = ${sql.raw(`'${LEGACY_ATTEMPT}'`)})`;
