/**
 * Waymark's own tokens. The access token is a short-lived HS256 JWT naming the user, role, device and
 * token family. The refresh token is 32 random bytes, stored only as its SHA-256, bound to one device,
 * rotated on every use; presenting a rotated token again revokes its whole family (a stolen token is
 * useless once either party has used it) — except once, within LOST_ANSWER_GRACE_MS of its rotation, while
 * the token that rotation gave has not been used: the answer was lost (the page reloaded mid-refresh), and
 * that unused token is replaced instead (decision 054). A family is a session (table token_families): revoking it stops
 * its refresh tokens and, through the check on every authenticated request, its access tokens at once.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Device, Role } from '@shared/schemas/common';
import { and, desc, eq, inArray, isNull, type SQL } from 'drizzle-orm';
import { jwtVerify, SignJWT } from 'jose';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { inTx } from '../db/helpers';
import { refreshTokens, tokenFamilies } from '../db/schema';
import { unauthorized } from '../http/errors';
import { TtlCache } from '../lib/ttl-cache';

export interface AccessClaims {
  sub: string;
  role: Role;
  dev: Device;
  fam: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Access tokens whose signature this process has checked, with their claims, until they expire. A token's
 * signature and claims are a function of its bytes and the secret alone, so remembering them changes no
 * answer: the session and the account are still read on every request (current-user.ts), so a sign-out or
 * revocation through any process stops the token at once everywhere. It saves the HMAC, which through
 * WebCrypto cost about a fifth of the server's CPU of an autosave (bench/exam-day.ts, issue 15).
 */
export const VERIFIED_CACHE_SIZE = 20_000;

export const sha256 = (s: string) => createHash('sha256').update(s).digest('base64url');

export class TokenService {
  /**
   * The secret as a WebCrypto key, imported once: given the bytes, jose imports them again on every
   * signature and verification (a tenth of a start's server CPU, when each taker's first token is checked).
   */
  private readonly key: Promise<CryptoKey>;
  /** Verified tokens → their claims, until their exp; bounded by VERIFIED_CACHE_SIZE. */
  private readonly verified = new TtlCache<string, AccessClaims>({ maxEntries: VERIFIED_CACHE_SIZE });
  constructor(
    private readonly db: Db,
    private readonly config: Pick<Config, 'jwtSecret' | 'accessTokenTtl' | 'refreshTokenTtl' | 'publicUrl'>,
  ) {
    this.key = crypto.subtle.importKey(
      'raw',
      new TextEncoder().encode(config.jwtSecret),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign', 'verify'],
    );
  }

  async signAccess(claims: AccessClaims): Promise<string> {
    return new SignJWT({ role: claims.role, dev: claims.dev, fam: claims.fam })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(claims.sub)
      .setIssuer('waymark')
      .setAudience('waymark-api')
      .setIssuedAt()
      .setExpirationTime(`${this.config.accessTokenTtl}s`)
      .sign(await this.key);
  }

  async verifyAccess(token: string): Promise<AccessClaims> {
    const known = this.verified.get(token);
    if (known) return known;
    try {
      const { payload } = await jwtVerify(token, await this.key, {
        algorithms: ['HS256'],
        issuer: 'waymark',
        audience: 'waymark-api',
      });
      if (
        typeof payload.sub !== 'string' ||
        typeof payload.fam !== 'string' ||
        !UUID.test(payload.fam) ||
        typeof payload.exp !== 'number'
      )
        throw new Error('claims');
      // frozen: every request of this token shares it
      const claims: AccessClaims = Object.freeze({
        sub: payload.sub,
        role: payload.role as Role,
        dev: payload.dev as Device,
        fam: payload.fam,
      });
      // jose's own test: expired once `exp` is not after the current second, that is from ⌈exp⌉ s on
      this.verified.set(token, claims, Math.ceil(payload.exp) * 1000);
      return claims;
    } catch (err) {
      const expired = (err as { code?: string }).code === 'ERR_JWT_EXPIRED';
      throw unauthorized(
        expired ? 'Your session has expired.' : 'Please sign in again.',
        expired ? 'TOKEN_EXPIRED' : 'TOKEN_INVALID',
      );
    }
  }

  /**
   * Starts a new token family (a session) for a sign-in on one device; `ltiTenantId`: a session an LTI
   * launch opened, limited to that tenant's learner calls (decision 044).
   */
  async issue(user: { id: string; role: Role }, device: Device, deviceInfo?: unknown, ltiTenantId?: string) {
    const familyId = randomUUID();
    return inTx(this.db, async (tx) => {
      await tx
        .insert(tokenFamilies)
        .values({ id: familyId, userId: user.id, device, ltiTenantId: ltiTenantId ?? null });
      return this.mint(tx, user, device, familyId, deviceInfo);
    });
  }

  private async mint(
    tx: Db,
    user: { id: string; role: Role },
    device: Device,
    familyId: string,
    deviceInfo?: unknown,
  ) {
    const refreshToken = randomBytes(32).toString('base64url');
    const [row] = await tx
      .insert(refreshTokens)
      .values({
        userId: user.id,
        familyId,
        tokenHash: sha256(refreshToken),
        device,
        deviceInfo: deviceInfo ?? null,
        expiresAt: new Date(Date.now() + this.config.refreshTokenTtl * 1000),
      })
      .returning({ id: refreshTokens.id });
    const token = await this.signAccess({ sub: user.id, role: user.role, dev: device, fam: familyId });
    return { token, refreshToken, familyId, id: row!.id };
  }

  /**
   * Rotates a refresh token. Unknown, expired, revoked or wrong-device tokens are refused; a token that was
   * already rotated revokes its family (but for a lost answer's one retry: lostAnswer). It runs in one transaction holding the family's row lock, so
   * simultaneous refreshes of one session run one after another whatever the interleaving: the first
   * rotates, every later one finds the token rotated and revokes the family — new token included, since it
   * was committed before the lock was released.
   */
  async rotate(
    refreshToken: string,
    device: Device,
    loadRole: (tx: Db, userId: string) => Promise<Role | null>,
  ) {
    const outcome = await inTx(this.db, async (tx) => {
      const hash = sha256(refreshToken);
      // lock the session first, then read the token: a statement that waited for a row lock sees only the
      // locked rows at their newest version (PostgreSQL's EvalPlanQual), so the token is read afterwards,
      // in a statement of its own, to see what the refresh that held the lock wrote
      const [family] = await tx
        .select({ revokedAt: tokenFamilies.revokedAt })
        .from(tokenFamilies)
        .where(
          eq(
            tokenFamilies.id,
            tx
              .select({ id: refreshTokens.familyId })
              .from(refreshTokens)
              .where(eq(refreshTokens.tokenHash, hash)),
          ),
        )
        .for('update');
      const [token] = await tx.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, hash)).limit(1);
      if (!family || !token) return { refused: 'REFRESH_INVALID' as const };
      if (family.revokedAt || token.revokedAt) return { refused: 'REFRESH_REVOKED' as const };
      if (token.device !== device) return { refused: 'REFRESH_DEVICE' as const };
      // a rotated token again: a lost answer's one retry replaces the unused token it was given, else reuse
      const replaced = token.rotatedAt ? await lostAnswer(tx, token) : null;
      if (token.rotatedAt && !replaced) {
        await revokeFamilies(tx, eq(tokenFamilies.id, token.familyId));
        return { refused: 'REFRESH_REUSED' as const };
      }
      if (token.expiresAt.getTime() <= Date.now()) return { refused: 'REFRESH_EXPIRED' as const };
      const role = await loadRole(tx, token.userId);
      if (!role) {
        await revokeFamilies(tx, eq(tokenFamilies.id, token.familyId));
        return { refused: 'REFRESH_INVALID' as const };
      }
      await tx
        .update(refreshTokens)
        .set({ rotatedAt: new Date() })
        .where(eq(refreshTokens.id, replaced ?? token.id));
      const next = await this.mint(tx, { id: token.userId, role }, device, token.familyId, token.deviceInfo);
      return { next: { token: next.token, refreshToken: next.refreshToken, userId: token.userId } };
    });
    if (outcome.refused) throw REFUSALS[outcome.refused]();
    return outcome.next!;
  }

  async revokeFamily(familyId: string) {
    await revokeFamilies(this.db, eq(tokenFamilies.id, familyId));
  }

  /** Ends the session a refresh token belongs to (logout). Unknown tokens are ignored. */
  async revokeByToken(refreshToken: string, device: Device) {
    const [row] = await this.db
      .select({ familyId: refreshTokens.familyId, device: refreshTokens.device })
      .from(refreshTokens)
      .where(eq(refreshTokens.tokenHash, sha256(refreshToken)))
      .limit(1);
    if (row && row.device === device) await this.revokeFamily(row.familyId);
  }

  /** Ends every session of a person (account deletion). */
  async revokeAllForUser(userId: string) {
    await revokeFamilies(this.db, eq(tokenFamilies.userId, userId));
  }
}

/** How long after its rotation a refresh token may be presented again when the answer was lost. */
export const LOST_ANSWER_GRACE_MS = 30_000;

/**
 * The token a rotated `token`'s rotation gave, when its answer may have been lost: `token` was rotated less
 * than LOST_ANSWER_GRACE_MS ago and is the family's second newest, and the newest — what the rotation gave
 * — has not been used. Then only this one retry is allowed: after it `token` is third newest. Runs under the
 * family's lock (rotate).
 */
async function lostAnswer(tx: Db, token: typeof refreshTokens.$inferSelect): Promise<string | null> {
  if (!token.rotatedAt || Date.now() - token.rotatedAt.getTime() >= LOST_ANSWER_GRACE_MS) return null;
  const [newest, second] = await tx
    .select({ id: refreshTokens.id, rotatedAt: refreshTokens.rotatedAt, revokedAt: refreshTokens.revokedAt })
    .from(refreshTokens)
    .where(eq(refreshTokens.familyId, token.familyId))
    .orderBy(desc(refreshTokens.createdAt), desc(refreshTokens.id))
    .limit(2);
  if (second?.id !== token.id || !newest || newest.rotatedAt || newest.revokedAt) return null;
  return newest.id;
}

const ended = 'dashboard.sessionEnded';
const REFUSALS = {
  REFRESH_INVALID: () => unauthorized(ended, 'REFRESH_INVALID'),
  REFRESH_REVOKED: () => unauthorized(ended, 'REFRESH_REVOKED'),
  REFRESH_DEVICE: () => unauthorized('errors.otherDevice', 'REFRESH_DEVICE'),
  REFRESH_REUSED: () => unauthorized('errors.sessionReused', 'REFRESH_REUSED'),
  REFRESH_EXPIRED: () => unauthorized('errors.sessionExpired', 'REFRESH_EXPIRED'),
};

/**
 * Revokes the families the condition selects: the family row is what every request and every refresh reads;
 * the token rows are marked too, for a process of the release before token_families.
 */
async function revokeFamilies(db: Db, which: SQL | undefined) {
  const now = new Date();
  const revoked = await db
    .update(tokenFamilies)
    .set({ revokedAt: now })
    .where(and(which, isNull(tokenFamilies.revokedAt)))
    .returning({ id: tokenFamilies.id });
  if (revoked.length === 0) return;
  await db
    .update(refreshTokens)
    .set({ revokedAt: now })
    .where(
      and(
        inArray(
          refreshTokens.familyId,
          revoked.map((r) => r.id),
        ),
        isNull(refreshTokens.revokedAt),
      ),
    );
}
