import type { User } from '@shared/schemas/user';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/client';
import { tokenFamilies, users } from '../db/schema';
import { HttpError, unauthorized } from '../http/errors';
import { bearer, type Caller, type ClaimedCaller } from '../http/routes';
import { checkApiKey, looksLikeApiKey, scopesOf } from '../integrations/core/api-keys';
import { actorOf, type Principal } from '../integrations/core/principal';
import type { TokenService } from './tokens';

export type UserRow = typeof users.$inferSelect;

/** The current user as the API shows it. */
export function toApiUser(row: UserRow): User {
  return {
    _id: row.id,
    email: row.email,
    role: row.role,
    name: row.name,
    picture: row.picture,
    isProfileCompleted: row.isProfileCompleted,
    isFirstLogin: row.isFirstLogin,
    emailVerified: row.emailVerified,
    phoneNumber: row.phoneNumber,
    countrycode: row.countrycode,
    phoneCountry: row.phoneCountry,
    linkedIn: row.linkedIn,
    iam: row.iam,
    tShirtSize: row.tShirtSize,
    addressLine1: row.addressLine1,
    addressLine2: row.addressLine2,
    country: row.country,
    state: row.state,
    city: row.city,
    pincode: row.pincode,
    language: row.language,
    canChangeName: row.nameChanges < 1,
    isDeleted: row.isDeleted,
    deleteReason: row.deleteReason,
    createdAt: row.createdAt.toISOString(),
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The check `authenticate` makes on every request, as a condition a statement can carry: the account `id`
 * exists and is not deleted, and its session `fam` exists and has not ended. A call's own statement that
 * carries it (a hot call's handler, routes.ts `hot`) needs no read of its own for the caller: when the
 * condition fails the statement gives no row, and the handler reads the caller, where `authenticate` says why.
 */
export const sessionHolds = (id: SQL, fam: SQL) => sql`exists (
  select 1 from ${users} u join ${tokenFamilies} f on f.user_id = u.id
  where u.id = ${id} and f.id = ${fam} and f.revoked_at is null and not u.is_deleted)`;

/**
 * Authenticates requests: verifies the access token, then — in one prepared statement, by primary keys —
 * loads the user and the session the token names, so a removed account and an ended session (logout, reuse
 * of a refresh token, account deletion) stop at once rather than when the token expires. Only the token's
 * signature check is remembered by a process (tokens.ts: a function of the token's bytes alone); the user and
 * the session are read on every request, so a session ended through one process is ended on all.
 */
export function installAuthentication(
  app: FastifyInstance,
  db: Db,
  tokens: TokenService,
  /** Requests per minute one API key may make (RATE_LIMIT_API_KEY). */
  keyLimit = 600,
) {
  const callerById = db
    .select({
      user: users,
      sessionRevokedAt: tokenFamilies.revokedAt,
      sessionId: tokenFamilies.id,
      ltiTenantId: tokenFamilies.ltiTenantId,
    })
    .from(users)
    .leftJoin(
      tokenFamilies,
      and(eq(tokenFamilies.id, sql.placeholder('fam')), eq(tokenFamilies.userId, users.id)),
    )
    .where(eq(users.id, sql.placeholder('id')))
    .limit(1)
    .prepare('caller_by_id');
  app.decorateRequest('user', null);
  app.decorateRequest('apiKeyLimits', null);
  const from = (request: FastifyRequest) => ({
    ip: request.ip,
    userAgent: typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'] : null,
  });
  app.decorate('authenticate', async (request: FastifyRequest): Promise<Caller> => {
    const token = bearer(request);
    if (looksLikeApiKey(token)) return keyCaller(request, token);
    const claims = await tokens.verifyAccess(token);
    const [found] = await callerById.execute({ id: claims.sub, fam: claims.fam });
    if (!found) throw unauthorized('errors.accountGone', 'USER_GONE');
    const row = found.user;
    if (row.isDeleted) throw unauthorized('errors.accountDeleted', 'USER_DELETED');
    if (!found.sessionId || found.sessionRevokedAt)
      throw unauthorized('dashboard.sessionEnded', 'SESSION_REVOKED');
    const principal: Principal = { kind: 'person', userId: row.id };
    return {
      user: row,
      id: row.id,
      device: claims.dev,
      familyId: claims.fam,
      principal,
      actor: actorOf(principal, row.name ?? row.email, from(request)),
      ltiTenantId: found.ltiTenantId,
    };
  });

  /**
   * An API key's caller (decision 039): its tenant's account, read with the key in one statement that also
   * records its use and counts it against the key's limit; a revoked or expired key stops at once.
   */
  async function keyCaller(request: FastifyRequest, token: string): Promise<Caller> {
    const check = await checkApiKey(db, token);
    if (!check.ok) {
      throw unauthorized(
        {
          INVALID: 'This API key is not valid.',
          REVOKED: 'This API key has been revoked.',
          EXPIRED: 'This API key has expired.',
        }[check.reason],
        `API_KEY_${check.reason}`,
      );
    }
    const { key, user } = check;
    if (user.isDeleted || user.role !== 'TENANT')
      throw unauthorized("This API key's account no longer exists.", 'USER_GONE');
    const reset = Math.max(1, Math.ceil(check.resetMs / 1000));
    const limits = {
      'x-ratelimit-limit': String(keyLimit),
      'x-ratelimit-remaining': String(Math.max(0, keyLimit - check.count)),
      'x-ratelimit-reset': String(reset),
    };
    request.apiKeyLimits = limits;
    if (check.count > keyLimit) {
      throw new HttpError(
        429,
        `This API key made more than ${keyLimit} requests in a minute: wait ${reset} s.`,
        { errorCode: 'RATE_LIMITED' },
        { ...limits, 'retry-after': String(reset) },
      );
    }
    const principal: Principal = {
      kind: 'apiKey',
      keyId: key.id,
      tenantId: key.tenantId,
      scopes: scopesOf(key),
      label: `${key.name} (wm_${key.prefix}_…)`,
    };
    return {
      user,
      id: user.id,
      device: null,
      familyId: null,
      principal,
      actor: actorOf(principal, '', from(request)),
    };
  }
  // the token's signature and claims alone, for a statement that carries sessionHolds itself
  app.decorate('claimsOf', async (request: FastifyRequest): Promise<ClaimedCaller | null> => {
    const token = bearer(request);
    // an API key is never a session's token: its calls take the long way, which refuses or admits it
    if (looksLikeApiKey(token)) return null;
    const claims = await tokens.verifyAccess(token).catch(() => null);
    if (!claims || !UUID.test(claims.sub)) return null;
    return { id: claims.sub, device: claims.dev, familyId: claims.fam };
  });
}
