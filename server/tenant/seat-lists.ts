/**
 * The tenant's seats as its tables read them: the page of learners (with a search), the short list a picker
 * searches, and one learner's card. A removed seat stays visible until its access ends (`visibleSeat`).
 */
import { and, asc, count, eq, ilike, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { escapeLike } from '../db/like';
import { tenantUsers, users } from '../db/schema';
import { visibleSeat } from './accounting';
import { cohortsOfLearners } from './cohort-lists';
import { type requireLearner, toEntry } from './seats';
import { cohortMembers } from './tables';

/**
 * A page of the tenant's learners in the order their seats were made (only one cohort's members when
 * `cohortId` is given), each with the cohorts they belong to, and how many match.
 */
export async function seatPage(
  db: Db,
  tenantId: string,
  query: { searchText?: string; cohortId?: string; page: number; limit: number },
  now: Date,
) {
  const conditions: SQL[] = [visibleSeat(tenantId, now)];
  if (query.searchText) {
    const pattern = `%${escapeLike(query.searchText)}%`;
    conditions.push(or(ilike(users.name, pattern), ilike(users.email, pattern))!);
  }
  if (query.cohortId) {
    // the cohort must be the tenant's: another tenant's id finds nobody (requireCohort 404s it first)
    conditions.push(
      sql`exists (select 1 from ${cohortMembers} where ${cohortMembers.cohortId} = ${query.cohortId} and ${cohortMembers.learnerId} = ${tenantUsers.learnerId})`,
    );
  }
  const where = and(...conditions);
  const [rows, [total]] = await Promise.all([
    db
      .select({ seat: tenantUsers, learner: users })
      .from(tenantUsers)
      .innerJoin(users, eq(users.id, tenantUsers.learnerId))
      .where(where)
      .orderBy(asc(tenantUsers.createdAt), asc(tenantUsers.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    db
      .select({ n: count() })
      .from(tenantUsers)
      .innerJoin(users, eq(users.id, tenantUsers.learnerId))
      .where(where),
  ]);
  const cohortsBy = await cohortsOfLearners(
    db,
    tenantId,
    rows.map((r) => r.learner.id),
  );
  return {
    tenantUserList: rows.map(({ seat, learner }) => ({
      ...toEntry(seat, learner),
      cohorts: cohortsBy.get(learner.id) ?? [],
    })),
    totalUserCount: total?.n ?? 0,
  };
}

/** At most 50 of the tenant's learners by address or name, by address. */
export async function searchSeats(db: Db, tenantId: string, searchText: string | undefined, now: Date) {
  const conditions: SQL[] = [visibleSeat(tenantId, now)];
  if (searchText) {
    const pattern = `%${escapeLike(searchText.toLowerCase())}%`;
    conditions.push(or(ilike(users.email, pattern), ilike(users.name, pattern))!);
  }
  return db
    .select({ _id: users.id, email: users.email, name: users.name })
    .from(tenantUsers)
    .innerJoin(users, eq(users.id, tenantUsers.learnerId))
    .where(and(...conditions))
    .orderBy(asc(users.email))
    .limit(50);
}

/** One of the tenant's learners with their seat (requireLearner's answer), as the learner's card shows it. */
export function seatCard({ seat, learner: l }: Awaited<ReturnType<typeof requireLearner>>) {
  return {
    _id: l.id,
    name: l.name,
    email: l.email,
    phoneNumber: l.phoneNumber,
    countrycode: l.countrycode,
    picture: l.picture,
    isDisabled: seat.isDisabled,
    accessUntil: seat.accessUntil?.toISOString() ?? null,
    createdAt: seat.createdAt.toISOString(),
  };
}
