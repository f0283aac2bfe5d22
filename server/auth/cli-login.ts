/**
 * Signing the CLI in from a browser (the device authorization grant's shape, RFC 8628): the CLI starts a
 * request and shows a code, the person approves it signed in on the portal, and the CLI's polls collect the
 * session's tokens once. The device code is kept hashed.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../db/client';
import { cliLogins, users } from '../db/schema';
import { HttpError, notFound } from '../http/errors';
import { toApiUser } from './current-user';
import { sha256, type TokenService } from './tokens';

const USER_CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const userCode = () =>
  Array.from(
    { length: 8 },
    (_, i) => (i === 4 ? '-' : '') + USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)],
  ).join('');

/** A new request: the device code the CLI polls with and the code the person approves. */
export async function startCliLogin(db: Db, publicUrl: string, deviceInfo: string | null | undefined) {
  const deviceCode = randomBytes(32).toString('base64url');
  const expiresIn = 600;
  let code = userCode();
  for (let i = 0; i < 5; i++) {
    const inserted = await db
      .insert(cliLogins)
      .values({
        deviceCodeHash: sha256(deviceCode),
        userCode: code,
        deviceInfo: deviceInfo ?? null,
        expiresAt: new Date(Date.now() + expiresIn * 1000),
      })
      .onConflictDoNothing()
      .returning({ id: cliLogins.id });
    if (inserted.length) break;
    code = userCode();
  }
  return {
    deviceCode,
    userCode: code,
    verificationUrl: `${publicUrl}/cli-login?code=${code}`,
    expiresIn,
    interval: 2,
  };
}

/** The person (signed in) approves the request of this code. */
export async function approveCliLogin(db: Db, userId: string, code: string) {
  const approved = await db
    .update(cliLogins)
    .set({ userId, approvedAt: new Date() })
    .where(
      and(eq(cliLogins.userCode, code), isNull(cliLogins.approvedAt), gt(cliLogins.expiresAt, new Date())),
    )
    .returning({ id: cliLogins.id });
  if (!approved.length) throw notFound('This code is not valid or has expired. Run `waymark login` again.');
}

/**
 * The CLI's poll: `pending` until the request is approved, then the session's tokens, once (410 for a
 * request collected, expired or unknown).
 */
export async function pollCliLogin(db: Db, tokens: TokenService, deviceCode: string) {
  const [row] = await db
    .select()
    .from(cliLogins)
    .where(eq(cliLogins.deviceCodeHash, sha256(deviceCode)))
    .limit(1);
  if (!row || row.collectedAt)
    throw new HttpError(410, 'This sign-in request is no longer valid. Run `waymark login` again.', {
      errorCode: 'EXPIRED_TOKEN',
    });
  if (row.expiresAt.getTime() < Date.now())
    throw new HttpError(410, 'This sign-in request has expired. Run `waymark login` again.', {
      errorCode: 'EXPIRED_TOKEN',
    });
  if (!row.approvedAt || !row.userId) return { pending: true as const };
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
  return { user: toApiUser(user), token: issued.token, refreshToken: issued.refreshToken };
}
