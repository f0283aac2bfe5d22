/**
 * The cohorts as the tenant's tables read them (decision 043, 050): one cohort's members, and the cohorts of
 * each learner on a page of the Users list.
 */
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { tenantUsers, users } from '../db/schema';
import { requireCohort } from './cohorts';
import { cohortMembers, cohorts } from './tables';

/** A cohort's members, by name then address: each one's seat, and whether the directory provisioned them. */
export async function membersOfCohort(db: Db, tenantId: string, cohortId: string) {
  await requireCohort(db, tenantId, cohortId);
  const rows = await db
    .select({
      _id: users.id,
      name: users.name,
      email: users.email,
      isDisabled: tenantUsers.isDisabled,
      addedAt: cohortMembers.addedAt,
    })
    .from(cohortMembers)
    .innerJoin(users, eq(users.id, cohortMembers.learnerId))
    .leftJoin(
      tenantUsers,
      and(eq(tenantUsers.learnerId, cohortMembers.learnerId), eq(tenantUsers.tenantId, tenantId)),
    )
    .where(eq(cohortMembers.cohortId, cohortId))
    .orderBy(asc(sql`lower(coalesce(${users.name}, ${users.email}))`), asc(users.email));
  return rows.map((r) => ({
    _id: r._id,
    name: r.name,
    email: r.email,
    // a member whose seat was taken away altogether holds none
    isDisabled: r.isDisabled ?? true,
    addedAt: r.addedAt.toISOString(),
  }));
}

/** The cohorts each of `learnerIds` belongs to (for the Users page's Cohort column), by name. */
export async function cohortsOfLearners(db: Db, tenantId: string, learnerIds: readonly string[]) {
  const by = new Map<string, { _id: string; name: string }[]>();
  if (!learnerIds.length) return by;
  const rows = await db
    .select({ learnerId: cohortMembers.learnerId, _id: cohorts.id, name: cohorts.name })
    .from(cohortMembers)
    .innerJoin(cohorts, eq(cohorts.id, cohortMembers.cohortId))
    .where(and(eq(cohorts.tenantId, tenantId), inArray(cohortMembers.learnerId, [...learnerIds])))
    .orderBy(asc(sql`lower(${cohorts.name})`));
  for (const r of rows) by.set(r.learnerId, [...(by.get(r.learnerId) ?? []), { _id: r._id, name: r.name }]);
  return by;
}
