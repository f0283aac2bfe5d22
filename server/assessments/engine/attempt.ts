/**
 * Who writes an attempt (decision 031): the browser that started it, by the attempt token it made
 * (shared/rules/attempt-token.ts). The link keeps the token's hash (test_links.attempt_token_hash), never the
 * token; the hot statements compare it in their WHERE (rules-sql.ts `holdsSql`, over the placeholder
 * `holder`), the long ways on the row they read (rules.ts `assertHolder`).
 */
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { holdsSql, linkCols } from './rules-sql';

/**
 * The hash kept for `token` on link `linkId`: SHA-256 over both, base64url (43 characters; never 'legacy').
 * The link's id is in it so that one attempt's hash says nothing of another's, whatever token a page sends.
 * Null without a token.
 */
export function attemptTokenHash(linkId: string, token: string | null | undefined): string | null {
  if (!token) return null;
  return createHash('sha256').update(`waymark-attempt\n${linkId}\n${token}`).digest('base64url');
}

/** holdsSql for the link row `alias`, against the placeholder `holder` (the request's hash, or null). */
export const holderHolds = (alias: string) =>
  holdsSql(linkCols(alias), sql`${sql.placeholder('holder')}::text`);
