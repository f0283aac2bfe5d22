import { tenantUsersList } from '@shared/contract/tenant';
import { and, asc, count, eq, ilike, or, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/client';
import { tenantUsers, users } from '../db/schema';
import { ok, serve } from '../http/routes';

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export function tenantRoutes(app: FastifyInstance, { db }: { db: Db }) {
  serve(
    app,
    { tenantUsersList },
    {
      async tenantUsersList({ query, caller }) {
        const conditions: SQL[] = [eq(tenantUsers.tenantId, caller.id)];
        if (query.searchText) {
          const pattern = `%${escapeLike(query.searchText)}%`;
          conditions.push(or(ilike(users.name, pattern), ilike(users.email, pattern))!);
        }
        const where = and(...conditions);
        const [rows, [total]] = await Promise.all([
          db
            .select({ seat: tenantUsers, learner: users })
            .from(tenantUsers)
            .innerJoin(users, eq(users.id, tenantUsers.learnerId))
            .where(where)
            .orderBy(asc(tenantUsers.createdAt))
            .limit(query.limit)
            .offset((query.page - 1) * query.limit),
          db
            .select({ n: count() })
            .from(tenantUsers)
            .innerJoin(users, eq(users.id, tenantUsers.learnerId))
            .where(where),
        ]);
        return ok({
          data: {
            tenantUserList: rows.map(({ seat, learner }) => ({
              _id: seat.id,
              learnerId: {
                _id: learner.id,
                name: learner.name,
                phoneNumber: learner.phoneNumber,
                countrycode: learner.countrycode,
                email: learner.email,
              },
              isDisabled: seat.isDisabled,
            })),
            totalUserCount: total?.n ?? 0,
          },
        });
      },
    },
  );
}
