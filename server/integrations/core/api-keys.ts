/**
 * API keys as the request path sees them (decision 039): the format, the hash kept of the secret, and the
 * one statement that authenticates a key on every request.
 *
 * A key is `wm_{prefix}_{secret}`: a 12-character prefix (shown, finds the row) and a 43-character secret
 * (32 random bytes, base64url; only its SHA-256 is kept). Every request reads the key's row — revoked and
 * expired keys stop on the next request on every process; nothing about a key's validity is remembered
 * between requests — and, in the same statement, records its use (at most once a minute) and counts it
 * against the key's rate limit, both only when the secret's hash matches. The decisive comparison of the
 * hash is made here in constant time.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { API_KEY_PATTERN, type ApiScope } from '@shared/schemas/integrations';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { preparedPer } from '../../db/helpers';
import { users } from '../../db/schema';
import { apiKeys } from './tables';

/** A bearer token that is meant as an API key (it may still be malformed). */
export const looksLikeApiKey = (token: string) => token.startsWith('wm_');

const PREFIX_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/**
 * A new `{kind}_{prefix}_{secret}` credential (an API key `wm_…`, a SCIM token `wmscim_…`): its prefix, the
 * whole token (shown once) and the hash that is kept.
 */
export function newPrefixedSecret(kind: string): { prefix: string; token: string; secretHash: string } {
  // 12 characters of 36: 62 bits, enough that two keys never share one (the index would refuse it)
  const prefix = [...randomBytes(12)].map((b) => PREFIX_ALPHABET[b % 36]).join('');
  const secret = randomBytes(32).toString('base64url');
  return { prefix, token: `${kind}_${prefix}_${secret}`, secretHash: hashSecret(secret) };
}

/** A new key: its prefix, the whole key (shown once) and the hash that is kept. */
export function newApiKey(): { prefix: string; key: string; secretHash: string } {
  const { token, ...made } = newPrefixedSecret('wm');
  return { ...made, key: token };
}

export const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

/** The prefix and secret of a well-formed key; null otherwise. */
export function parseApiKey(token: string): { prefix: string; secret: string } | null {
  const m = API_KEY_PATTERN.exec(token);
  return m ? { prefix: m[1]!, secret: m[2]! } : null;
}

/** Whether `secret` is the one whose hash is kept, compared in constant time. */
export function secretMatches(secret: string, storedHash: string): boolean {
  const given = Buffer.from(hashSecret(secret), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}

/** The rate limit's window: a count per key per minute. */
export const KEY_WINDOW_MS = 60_000;

const usable = sql`k.revoked_at is null and (k.expires_at is null or k.expires_at > now())`;

/**
 * The key of a prefix with its tenant's account, in one prepared statement that also — for the right secret
 * of a usable key only — records the key's use when the last record is a minute old, and counts the request
 * in the key's rate-limit window (rate_limit_counters, shared by every process).
 */
const keyCaller = preparedPer((db) => {
  const p = (name: string) => sql.placeholder(name);
  const k = db.$with('k', {}).as(sql`
    select k.* from ${apiKeys} k
    where k.prefix = ${p('prefix')} and k.secret_hash = ${p('hash')} and ${usable}`);
  const touched = db.$with('touched', {}).as(sql`
    update ${apiKeys} set last_used_at = now()
    where id = (select id from k) and (last_used_at is null or last_used_at < now() - interval '1 minute')
    returning 1`);
  const counted = db.$with('counted', {}).as(sql`
    insert into rate_limit_counters as c (key, count, window_ends_at)
    select 'apikey:' || k.id::text, 1, now() + make_interval(secs => ${p('windowSeconds')}::int) from k
    on conflict (key) do update set
      count = case when c.window_ends_at <= now() then 1 else c.count + 1 end,
      window_ends_at = case when c.window_ends_at <= now() then excluded.window_ends_at else c.window_ends_at end
    returning count, greatest(0, ceil(extract(epoch from (window_ends_at - now())) * 1000))::int as ttl`);
  return db
    .with(k, touched, counted)
    .select({
      key: apiKeys,
      user: users,
      usableNow: sql<boolean>`(${apiKeys.revokedAt} is null and (${apiKeys.expiresAt} is null or ${apiKeys.expiresAt} > now()))`,
      count: sql<number | null>`(select count from counted)`,
      ttl: sql<number | null>`(select ttl from counted)`,
      // the touch is part of the statement however it is read
      touched: sql<number>`(select count(*)::int from touched)`,
    })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.tenantId))
    .where(eq(apiKeys.prefix, sql.placeholder('prefix')))
    .limit(1)
    .prepare('api_key_caller');
});

export type ApiKeyRow = typeof apiKeys.$inferSelect;
export type KeyUser = typeof users.$inferSelect;

export type KeyCheck =
  | { ok: false; reason: 'INVALID' | 'REVOKED' | 'EXPIRED' }
  | { ok: true; key: ApiKeyRow; user: KeyUser; count: number; resetMs: number };

/** Checks a key on a request: one statement (above), then the hash compared in constant time. */
export async function checkApiKey(db: Db, token: string): Promise<KeyCheck> {
  const parsed = parseApiKey(token);
  if (!parsed) return { ok: false, reason: 'INVALID' };
  const [row] = await keyCaller(db).execute({
    prefix: parsed.prefix,
    hash: hashSecret(parsed.secret),
    windowSeconds: KEY_WINDOW_MS / 1000,
  });
  if (!row || !secretMatches(parsed.secret, row.key.secretHash)) return { ok: false, reason: 'INVALID' };
  if (row.key.revokedAt) return { ok: false, reason: 'REVOKED' };
  if (!row.usableNow) return { ok: false, reason: 'EXPIRED' };
  return {
    ok: true,
    key: row.key,
    user: row.user,
    count: Number(row.count ?? 1),
    resetMs: Number(row.ttl ?? KEY_WINDOW_MS),
  };
}

/** The scopes a key row holds, as the principal carries them. */
export const scopesOf = (row: ApiKeyRow) => row.scopes as ApiScope[];
