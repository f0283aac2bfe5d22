import type { User } from '@shared/schemas/user';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import { unauthorized } from '../http/errors';
import { bearer, type Caller } from '../http/routes';
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
    canChangeName: row.nameChanges < 1,
    isDeleted: row.isDeleted,
    deleteReason: row.deleteReason,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Authenticates requests: verifies the access token, then loads the user so a removed account stops at once. */
export function installAuthentication(app: FastifyInstance, db: Db, tokens: TokenService) {
  const byId = db
    .select()
    .from(users)
    .where(eq(users.id, sql.placeholder('id')))
    .limit(1)
    .prepare('user_by_id');
  app.decorateRequest('user', null);
  app.decorate('authenticate', async (request: FastifyRequest): Promise<Caller> => {
    const claims = await tokens.verifyAccess(bearer(request));
    const [row] = await byId.execute({ id: claims.sub });
    if (!row) throw unauthorized('This account no longer exists.', 'USER_GONE');
    if (row.isDeleted)
      throw unauthorized('This account is scheduled for deletion. Sign in again to keep it.', 'USER_DELETED');
    return { user: row, id: row.id, device: claims.dev, familyId: claims.fam };
  });
}
