/**
 * Waymark's own tokens. The access token is a short-lived HS256 JWT naming the user, role, device and
 * token family. The refresh token is 32 random bytes, stored only as its SHA-256, bound to one device,
 * rotated on every use; presenting a rotated token again revokes its whole family (a stolen token is
 * useless once either party has used it).
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Device, Role } from '@shared/schemas/common';
import { and, eq, isNull } from 'drizzle-orm';
import { jwtVerify, SignJWT } from 'jose';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { refreshTokens } from '../db/schema';
import { unauthorized } from '../http/errors';

export interface AccessClaims {
  sub: string;
  role: Role;
  dev: Device;
  fam: string;
}

export const sha256 = (s: string) => createHash('sha256').update(s).digest('base64url');

export class TokenService {
  private readonly key: Uint8Array;
  constructor(
    private readonly db: Db,
    private readonly config: Pick<Config, 'jwtSecret' | 'accessTokenTtl' | 'refreshTokenTtl' | 'publicUrl'>,
  ) {
    this.key = new TextEncoder().encode(config.jwtSecret);
  }

  async signAccess(claims: AccessClaims): Promise<string> {
    return new SignJWT({ role: claims.role, dev: claims.dev, fam: claims.fam })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(claims.sub)
      .setIssuer('waymark')
      .setAudience('waymark-api')
      .setIssuedAt()
      .setExpirationTime(`${this.config.accessTokenTtl}s`)
      .sign(this.key);
  }

  async verifyAccess(token: string): Promise<AccessClaims> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        issuer: 'waymark',
        audience: 'waymark-api',
      });
      if (typeof payload.sub !== 'string' || typeof payload.fam !== 'string') throw new Error('claims');
      return { sub: payload.sub, role: payload.role as Role, dev: payload.dev as Device, fam: payload.fam };
    } catch (err) {
      const expired = (err as { code?: string }).code === 'ERR_JWT_EXPIRED';
      throw unauthorized(
        expired ? 'Your session has expired.' : 'Please sign in again.',
        expired ? 'TOKEN_EXPIRED' : 'TOKEN_INVALID',
      );
    }
  }

  /** Starts a new token family for a sign-in on one device. */
  async issue(user: { id: string; role: Role }, device: Device, deviceInfo?: unknown) {
    return this.mint(user, device, randomUUID(), deviceInfo);
  }

  private async mint(
    user: { id: string; role: Role },
    device: Device,
    familyId: string,
    deviceInfo?: unknown,
  ) {
    const refreshToken = randomBytes(32).toString('base64url');
    const [row] = await this.db
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
   * already rotated revokes its family.
   */
  async rotate(refreshToken: string, device: Device, loadRole: (userId: string) => Promise<Role | null>) {
    const hash = sha256(refreshToken);
    const [row] = await this.db
      .select()
      .from(refreshTokens)
      .where(eq(refreshTokens.tokenHash, hash))
      .limit(1);
    if (!row) throw unauthorized('Your session has ended. Please sign in again.', 'REFRESH_INVALID');
    if (row.revokedAt) throw unauthorized('Your session has ended. Please sign in again.', 'REFRESH_REVOKED');
    if (row.device !== device) throw unauthorized('This token belongs to another device.', 'REFRESH_DEVICE');
    if (row.rotatedAt) {
      await this.revokeFamily(row.familyId);
      throw unauthorized(
        'This session was used elsewhere and has been ended. Please sign in again.',
        'REFRESH_REUSED',
      );
    }
    if (row.expiresAt.getTime() <= Date.now())
      throw unauthorized('Your session has expired. Please sign in again.', 'REFRESH_EXPIRED');
    // claim the token: only one concurrent rotation wins
    const claimed = await this.db
      .update(refreshTokens)
      .set({ rotatedAt: new Date() })
      .where(
        and(eq(refreshTokens.id, row.id), isNull(refreshTokens.rotatedAt), isNull(refreshTokens.revokedAt)),
      )
      .returning({ id: refreshTokens.id });
    if (claimed.length === 0) {
      await this.revokeFamily(row.familyId);
      throw unauthorized(
        'This session was used elsewhere and has been ended. Please sign in again.',
        'REFRESH_REUSED',
      );
    }
    const role = await loadRole(row.userId);
    if (!role) {
      await this.revokeFamily(row.familyId);
      throw unauthorized('Your session has ended. Please sign in again.', 'REFRESH_INVALID');
    }
    const next = await this.mint({ id: row.userId, role }, device, row.familyId, row.deviceInfo);
    return { token: next.token, refreshToken: next.refreshToken, userId: row.userId };
  }

  async revokeFamily(familyId: string) {
    await this.db
      .update(refreshTokens)
      .set({ revokedAt: new Date() })
      .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
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

  async revokeAllForUser(userId: string) {
    await this.db
      .update(refreshTokens)
      .set({ revokedAt: new Date() })
      .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));
  }
}
