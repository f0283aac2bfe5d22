import { randomBytes, randomInt } from 'node:crypto';
import { authRouter } from '@shared/contract/auth';
import type { Role } from '@shared/schemas/common';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { IdentityAdapter, IdentityClaims } from '../adapters/identity';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { cliLogins, users } from '../db/schema';
import { forbidden, HttpError, notFound } from '../http/errors';
import { answer, ok, serve } from '../http/routes';
import { type Locale, localeOf } from '../lib/i18n';
import { toApiUser, type UserRow } from './current-user';
import { sha256, type TokenService } from './tokens';

/** The refusals of a sign-in, as message keys (said in the request's language). */
export const NOT_REGISTERED_MESSAGE = 'errors.notRegistered';
export const EMAIL_NOT_VERIFIED_MESSAGE = 'errors.emailNotVerified';

/** Microsoft accounts count as verified: the provider vouches for the address. */
export const isVerified = (c: IdentityClaims) => c.emailVerified || c.provider === 'microsoft.com';

export interface AuthDeps {
  db: Db;
  config: Config;
  identity: IdentityAdapter;
  tokens: TokenService;
}

async function findOrRegister(
  db: Db,
  claims: IdentityClaims,
  role: Role | undefined,
  tenantId: string | undefined,
  language: Locale,
): Promise<UserRow> {
  const [byUid] = await db.select().from(users).where(eq(users.firebaseUid, claims.uid)).limit(1);
  if (byUid) return byUid;
  const [byEmail] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${claims.email}`)
    .limit(1);
  if (byEmail) {
    // the same verified address through another identity account (a re-created or linked account)
    if (!isVerified(claims)) {
      throw forbidden(EMAIL_NOT_VERIFIED_MESSAGE, 'EMAIL_NOT_VERIFIED');
    }
    const [moved] = await db
      .update(users)
      .set({ firebaseUid: claims.uid })
      .where(eq(users.id, byEmail.id))
      .returning();
    return moved!;
  }
  if (!role) throw new HttpError(404, NOT_REGISTERED_MESSAGE, { errorCode: 'NOT_REGISTERED' });
  let invitedBy: string | null = null;
  if (tenantId && role === 'USER') {
    const [tenant] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.id, tenantId), eq(users.role, 'TENANT')))
      .limit(1);
    invitedBy = tenant?.id ?? null;
  }
  const [created] = await db
    .insert(users)
    .values({
      firebaseUid: claims.uid,
      email: claims.email,
      emailVerified: isVerified(claims),
      signInProvider: claims.provider,
      role,
      name: claims.name,
      picture: claims.picture,
      invitedByTenantId: invitedBy,
      language,
    })
    .onConflictDoNothing()
    .returning();
  if (created) return created;
  // a concurrent first sign-in of the same account registered it a moment ago
  const [again] = await db.select().from(users).where(eq(users.firebaseUid, claims.uid)).limit(1);
  if (!again) throw new HttpError(409, 'errors.emailRegistered', { code: 11000, field: 'email' });
  return again;
}

const USER_CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const userCode = () =>
  Array.from(
    { length: 8 },
    (_, i) => (i === 4 ? '-' : '') + USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)],
  ).join('');

export function authRoutes(app: FastifyInstance, { db, config, identity, tokens }: AuthDeps) {
  const loadRole = async (tx: Db, userId: string) => {
    const [row] = await tx
      .select({ role: users.role, isDeleted: users.isDeleted })
      .from(users)
      .where(eq(users.id, userId))
      .limit(1);
    return row && !row.isDeleted ? row.role : null;
  };

  serve(app, authRouter, {
    async signInWithFirebase({ body, request }) {
      const claims = await identity.verifyIdToken(body.token);
      // a new account reads Waymark in the language the browser (or the portal's switcher) asks for
      const language = localeOf(request.headers['accept-language']);
      let user = await findOrRegister(db, claims, body.role, body.tenantId, language);
      if (!isVerified(claims)) {
        throw forbidden(EMAIL_NOT_VERIFIED_MESSAGE, 'EMAIL_NOT_VERIFIED');
      }
      const deletionCanceled = user.isDeleted;
      const [updated] = await db
        .update(users)
        .set({
          emailVerified: true,
          signInProvider: claims.provider,
          lastLoginAt: new Date(),
          picture: user.picture ?? claims.picture,
          ...(deletionCanceled ? { isDeleted: false, deletionRequestedAt: null, deleteReason: null } : {}),
        })
        .where(eq(users.id, user.id))
        .returning();
      user = updated!;
      const issued = await tokens.issue(user, body.device);
      return ok({
        data: {
          user: toApiUser(user),
          token: issued.token,
          refreshToken: issued.refreshToken,
          deletionCanceled,
        },
      });
    },

    async refresh({ body }) {
      const next = await tokens.rotate(body.refreshToken, body.device, loadRole);
      return ok({ data: { token: next.token, refreshToken: next.refreshToken } });
    },

    async logout({ body }) {
      await tokens.revokeByToken(body.refreshToken, body.device);
      return ok({ data: { ok: true } });
    },

    async socketToken({ query, caller }) {
      let info: unknown = null;
      if (query.deviceInfo) info = JSON.parse(query.deviceInfo);
      const issued = await tokens.issue(caller.user, query.device, info);
      return ok({
        data: {
          extensionAccessToken: issued.token,
          extensionRefreshToken: issued.refreshToken,
          uuid: caller.user.id,
        },
      });
    },

    async checkEmailExist({ body }) {
      const [row] = await db
        .select({ id: users.id })
        .from(users)
        .where(sql`lower(${users.email}) = ${body.email}`)
        .limit(1);
      return ok({ data: { isExist: Boolean(row) } });
    },

    async cliStart({ body }) {
      const deviceCode = randomBytes(32).toString('base64url');
      const expiresIn = 600;
      let code = userCode();
      for (let i = 0; i < 5; i++) {
        const inserted = await db
          .insert(cliLogins)
          .values({
            deviceCodeHash: sha256(deviceCode),
            userCode: code,
            deviceInfo: body?.deviceInfo ?? null,
            expiresAt: new Date(Date.now() + expiresIn * 1000),
          })
          .onConflictDoNothing()
          .returning({ id: cliLogins.id });
        if (inserted.length) break;
        code = userCode();
      }
      return ok({
        data: {
          deviceCode,
          userCode: code,
          verificationUrl: `${config.publicUrl}/cli-login?code=${code}`,
          expiresIn,
          interval: 2,
        },
      });
    },

    async cliApprove({ body, caller }) {
      const approved = await db
        .update(cliLogins)
        .set({ userId: caller.id, approvedAt: new Date() })
        .where(
          and(
            eq(cliLogins.userCode, body.userCode),
            isNull(cliLogins.approvedAt),
            gt(cliLogins.expiresAt, new Date()),
          ),
        )
        .returning({ id: cliLogins.id });
      if (!approved.length)
        throw notFound('This code is not valid or has expired. Run `waymark login` again.');
      return ok({ data: { ok: true } });
    },

    async cliPoll({ body }) {
      const [row] = await db
        .select()
        .from(cliLogins)
        .where(eq(cliLogins.deviceCodeHash, sha256(body.deviceCode)))
        .limit(1);
      if (!row || row.collectedAt)
        throw new HttpError(410, 'This sign-in request is no longer valid. Run `waymark login` again.', {
          errorCode: 'EXPIRED_TOKEN',
        });
      if (row.expiresAt.getTime() < Date.now())
        throw new HttpError(410, 'This sign-in request has expired. Run `waymark login` again.', {
          errorCode: 'EXPIRED_TOKEN',
        });
      if (!row.approvedAt || !row.userId) {
        return answer(428, {
          statusCode: 428,
          error: 'Precondition Required',
          message: 'Waiting for approval in the browser.',
          errorCode: 'AUTHORIZATION_PENDING',
        });
      }
      const collected = await db
        .update(cliLogins)
        .set({ collectedAt: new Date() })
        .where(and(eq(cliLogins.id, row.id), isNull(cliLogins.collectedAt)))
        .returning({ id: cliLogins.id });
      if (!collected.length)
        throw new HttpError(410, 'This sign-in request is no longer valid.', {
          errorCode: 'EXPIRED_TOKEN',
        });
      const [user] = await db.select().from(users).where(eq(users.id, row.userId)).limit(1);
      if (!user || user.isDeleted)
        throw new HttpError(410, 'This account is not available.', { errorCode: 'EXPIRED_TOKEN' });
      const issued = await tokens.issue(user, 'CLI', row.deviceInfo ? { info: row.deviceInfo } : null);
      return ok({
        data: { user: toApiUser(user), token: issued.token, refreshToken: issued.refreshToken },
      });
    },
  });
}
