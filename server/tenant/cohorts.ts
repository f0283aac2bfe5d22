/**
 * Cohorts (decision 043): named groups of a tenant's learners, made in the portal or pushed as SCIM Groups by
 * the organisation's directory. A roadmap assigned to a cohort is assigned to every member with an active
 * seat — through the catalogue's `assignToLearner`, the rule of a mentor's own assignment (two ongoing at
 * most, a roadmap with prerequisites only with the mentor's INCLUDE or WAIVE) — and to each member who joins
 * later, in the transaction that adds them. Every change is in the activity log (`cohort.*`), with its actor.
 */
import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import {
  assignToLearner,
  hasPrerequisites,
  type PrerequisiteChoice,
  requireRoadmap,
} from '../catalogue/learning';
import { roadmaps } from '../catalogue/tables';
import type { Db } from '../db/client';
import { inTx, isUniqueViolation, type Tx } from '../db/helpers';
import { tenantUsers, users } from '../db/schema';
import { badRequest, conflict, HttpError, notFound } from '../http/errors';
import { recordAudit } from '../integrations/core/audit';
import type { Actor } from '../integrations/core/principal';
import { cohortMembers, cohortRoadmaps, cohorts } from './tables';

export type CohortRow = typeof cohorts.$inferSelect;

/** What assigning a cohort's roadmap came to for one member. */
export type MemberOutcome = 'ASSIGNED' | 'ALREADY_ASSIGNED' | 'ROADMAP_LIMIT' | 'NO_ACTIVE_SEAT';

export const cohortNotFound = () => notFound('Cohort not found');
/**
 * A directory's cohort is the directory's (decision 050): Okta and Entra ID push its name and members again
 * and would undo a mentor's change, so the portal and the CLI may only read it (and assign it roadmaps).
 */
export function refuseIfScimManaged(row: CohortRow) {
  if (row.scimManaged) throw conflict('errors.cohortManagedByScim', { errorCode: 'COHORT_MANAGED_BY_SCIM' });
}

const nameTaken = () =>
  conflict('A cohort with this name already exists.', {
    code: 11000,
    field: 'name',
    keyPattern: { name: 1 },
  });

/** A cohort of the tenant (404 for another tenant's). */
export async function requireCohort(db: Db, tenantId: string, id: string, lock = false): Promise<CohortRow> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) throw cohortNotFound();
  const q = db
    .select()
    .from(cohorts)
    .where(and(eq(cohorts.tenantId, tenantId), eq(cohorts.id, id)))
    .limit(1);
  const [row] = lock ? await q.for('update') : await q;
  if (!row) throw cohortNotFound();
  return row;
}

export async function createCohort(
  db: Db,
  tenantId: string,
  input: { name: string; externalId?: string | null; scimManaged?: boolean },
  by: Actor,
): Promise<CohortRow> {
  try {
    return await inTx(db, async (tx) => {
      const [row] = await tx
        .insert(cohorts)
        .values({
          tenantId,
          name: input.name.trim(),
          externalId: input.externalId ?? null,
          scimManaged: input.scimManaged ?? false,
        })
        .returning();
      await recordAudit(tx, by, {
        tenantId,
        action: 'cohort.created',
        target: { kind: 'cohort', id: row!.id },
        summary: `Cohort “${row!.name}” created`,
        details: { name: row!.name, externalId: row!.externalId },
      });
      return row!;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw nameTaken();
    throw err;
  }
}

/** Renames a cohort (and sets the directory's id for it, and whether the directory holds it); the version moves. */
export async function updateCohort(
  tx: Tx,
  current: CohortRow,
  input: { name: string; externalId: string | null; scimManaged?: boolean },
  by: Actor,
): Promise<CohortRow> {
  const name = input.name.trim();
  try {
    return await inTx(tx, async (t) => {
      const [row] = await t
        .update(cohorts)
        .set({
          name,
          externalId: input.externalId,
          scimManaged: input.scimManaged ?? current.scimManaged,
          version: sql`${cohorts.version} + 1`,
          updatedAt: sql`now()`,
        })
        .where(eq(cohorts.id, current.id))
        .returning();
      if (name !== current.name) {
        await recordAudit(t, by, {
          tenantId: current.tenantId,
          action: 'cohort.renamed',
          target: { kind: 'cohort', id: current.id },
          summary: `Cohort “${current.name}” renamed “${name}”`,
          details: { from: current.name, to: name },
        });
      }
      return row!;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw nameTaken();
    throw err;
  }
}

/** Moves a cohort's version (its members changed). */
export async function touchCohort(tx: Db, id: string) {
  await tx
    .update(cohorts)
    .set({ version: sql`${cohorts.version} + 1`, updatedAt: sql`now()` })
    .where(eq(cohorts.id, id));
}

export async function deleteCohort(db: Db, tenantId: string, id: string, by: Actor): Promise<void> {
  await inTx(db, async (tx) => {
    const row = await requireCohort(tx, tenantId, id, true);
    await tx.delete(cohorts).where(eq(cohorts.id, row.id));
    await recordAudit(tx, by, {
      tenantId,
      action: 'cohort.deleted',
      target: { kind: 'cohort', id },
      summary: `Cohort “${row.name}” deleted (its members keep their seats and roadmaps)`,
      details: { name: row.name },
    });
  });
}

/** The learners among `ids` who hold a seat of the tenant (active or not), with their addresses. */
async function seatedOf(tx: Db, tenantId: string, ids: readonly string[]) {
  if (!ids.length) return [];
  return tx
    .select({ id: users.id, email: users.email, active: sql<boolean>`not ${tenantUsers.isDisabled}` })
    .from(tenantUsers)
    .innerJoin(users, eq(users.id, tenantUsers.learnerId))
    .where(and(eq(tenantUsers.tenantId, tenantId), inArray(tenantUsers.learnerId, [...ids])));
}

/**
 * Adds learners to a cohort; each new member gets the cohort's roadmaps (as far as the assignment rules
 * allow: the outcome per member and roadmap is in the activity log). `learners` are the tenant's learners
 * (the caller checked they are); members already in it are left as they are.
 */
export async function addMembers(
  tx: Tx,
  cohort: CohortRow,
  learners: readonly { id: string; email: string }[],
  by: Actor,
): Promise<string[]> {
  if (!learners.length) return [];
  const added = await tx
    .insert(cohortMembers)
    .values(learners.map((l) => ({ cohortId: cohort.id, learnerId: l.id })))
    .onConflictDoNothing()
    .returning({ learnerId: cohortMembers.learnerId });
  if (!added.length) return [];
  const addedIds = added.map((a) => a.learnerId);
  const email = new Map(learners.map((l) => [l.id, l.email]));
  await recordAudit(
    tx,
    by,
    addedIds.map((id) => ({
      tenantId: cohort.tenantId,
      action: 'cohort.member_added',
      target: { kind: 'user', id },
      summary: `${email.get(id)} joined cohort “${cohort.name}”`,
      details: { cohortId: cohort.id, cohort: cohort.name, email: email.get(id) },
    })),
  );
  const plans = await tx
    .select({ roadmapId: cohortRoadmaps.roadmapId, prerequisites: cohortRoadmaps.prerequisites })
    .from(cohortRoadmaps)
    .where(eq(cohortRoadmaps.cohortId, cohort.id));
  if (plans.length) {
    const seated = await seatedOf(tx, cohort.tenantId, addedIds);
    for (const plan of plans) {
      for (const learner of seated) {
        await assignOne(tx, cohort, learner, plan.roadmapId, plan.prerequisites ?? undefined, by);
      }
    }
  }
  await touchCohort(tx, cohort.id);
  return addedIds;
}

export async function removeMembers(
  tx: Tx,
  cohort: CohortRow,
  learnerIds: readonly string[] | 'all',
  by: Actor,
): Promise<string[]> {
  const gone = await tx
    .delete(cohortMembers)
    .where(
      and(
        eq(cohortMembers.cohortId, cohort.id),
        learnerIds === 'all'
          ? undefined
          : inArray(
              cohortMembers.learnerId,
              learnerIds.length ? [...learnerIds] : ['00000000-0000-0000-0000-000000000000'],
            ),
      ),
    )
    .returning({ learnerId: cohortMembers.learnerId });
  if (!gone.length) return [];
  const emails = new Map(
    (
      await tx
        .select({ id: users.id, email: users.email })
        .from(users)
        .where(
          inArray(
            users.id,
            gone.map((g) => g.learnerId),
          ),
        )
    ).map((u) => [u.id, u.email]),
  );
  await recordAudit(
    tx,
    by,
    gone.map((g) => ({
      tenantId: cohort.tenantId,
      action: 'cohort.member_removed',
      target: { kind: 'user', id: g.learnerId },
      summary: `${emails.get(g.learnerId) ?? 'A learner'} left cohort “${cohort.name}” (roadmaps assigned stay)`,
      details: { cohortId: cohort.id, cohort: cohort.name, email: emails.get(g.learnerId) ?? null },
    })),
  );
  await touchCohort(tx, cohort.id);
  return gone.map((g) => g.learnerId);
}

/** One member given one of the cohort's roadmaps: what came of it. */
async function assignOne(
  tx: Tx,
  cohort: CohortRow,
  learner: { id: string; email: string; active: boolean },
  roadmapId: string,
  prerequisites: PrerequisiteChoice | undefined,
  by: Actor,
): Promise<MemberOutcome> {
  if (!learner.active) return 'NO_ACTIVE_SEAT';
  try {
    const { created } = await assignToLearner(tx, {
      userId: learner.id,
      roadmapId,
      source: 'TENANT',
      assignedBy: cohort.tenantId,
      prerequisites,
      audit: { by, tenantId: cohort.tenantId, learnerEmail: learner.email },
    });
    return created ? 'ASSIGNED' : 'ALREADY_ASSIGNED';
  } catch (err) {
    if (err instanceof HttpError && err.extra.errorCode === 'ROADMAP_LIMIT') return 'ROADMAP_LIMIT';
    throw err;
  }
}

/**
 * Assigns a roadmap to a cohort: every member with an active seat gets it now, every later member when they
 * join. A roadmap with prerequisites needs the mentor's choice (INCLUDE or WAIVE), as for one learner.
 */
export async function assignRoadmapToCohort(
  db: Db,
  tenantId: string,
  cohortId: string,
  input: { roadmapId: string; prerequisites?: PrerequisiteChoice },
  by: Actor,
) {
  const roadmap = await requireRoadmap(db, input.roadmapId);
  if (!input.prerequisites && (await hasPrerequisites(db, input.roadmapId))) {
    throw badRequest(
      'This roadmap has prerequisites: choose whether its members take their sections first (INCLUDE) or skip them (WAIVE).',
      'prerequisites',
      { errorCode: 'PREREQUISITES_CHOICE_REQUIRED' },
    );
  }
  return inTx(db, async (tx) => {
    const cohort = await requireCohort(tx, tenantId, cohortId, true);
    await tx
      .insert(cohortRoadmaps)
      .values({ cohortId, roadmapId: input.roadmapId, prerequisites: input.prerequisites ?? null })
      .onConflictDoUpdate({
        target: [cohortRoadmaps.cohortId, cohortRoadmaps.roadmapId],
        set: { prerequisites: input.prerequisites ?? null },
      });
    const memberIds = (
      await tx
        .select({ id: cohortMembers.learnerId })
        .from(cohortMembers)
        .where(eq(cohortMembers.cohortId, cohortId))
    ).map((m) => m.id);
    const seated = await seatedOf(tx, tenantId, memberIds);
    const results: { learnerId: string; email: string; outcome: MemberOutcome }[] = [];
    for (const learner of seated) {
      results.push({
        learnerId: learner.id,
        email: learner.email,
        outcome: await assignOne(tx, cohort, learner, input.roadmapId, input.prerequisites, by),
      });
    }
    const tally = (o: MemberOutcome) => results.filter((r) => r.outcome === o).length;
    await recordAudit(tx, by, {
      tenantId,
      action: 'cohort.roadmap_assigned',
      target: { kind: 'cohort', id: cohortId },
      summary: `${roadmap.name} assigned to cohort “${cohort.name}” (${tally('ASSIGNED')} assigned now, ${tally('ROADMAP_LIMIT')} already have two roadmaps)`,
      details: {
        roadmapId: input.roadmapId,
        roadmap: roadmap.name,
        cohort: cohort.name,
        prerequisites: input.prerequisites ?? null,
        assigned: tally('ASSIGNED'),
        alreadyAssigned: tally('ALREADY_ASSIGNED'),
        roadmapLimit: tally('ROADMAP_LIMIT'),
        noActiveSeat: tally('NO_ACTIVE_SEAT'),
      },
    });
    await touchCohort(tx, cohortId);
    return { roadmapId: input.roadmapId, roadmapName: roadmap.name, results };
  });
}

/** The tenant's cohorts by name, with how many members each has and the roadmaps assigned to it. */
export async function cohortsOf(db: Db, tenantId: string) {
  const rows = await db
    .select({ cohort: cohorts, members: count(cohortMembers.learnerId) })
    .from(cohorts)
    .leftJoin(cohortMembers, eq(cohortMembers.cohortId, cohorts.id))
    .where(eq(cohorts.tenantId, tenantId))
    .groupBy(cohorts.id)
    .orderBy(asc(sql`lower(${cohorts.name})`));
  const ids = rows.map((r) => r.cohort.id);
  const assigned = ids.length
    ? await db
        .select({
          cohortId: cohortRoadmaps.cohortId,
          roadmapId: cohortRoadmaps.roadmapId,
          name: roadmaps.name,
        })
        .from(cohortRoadmaps)
        .innerJoin(roadmaps, eq(roadmaps.id, cohortRoadmaps.roadmapId))
        .where(inArray(cohortRoadmaps.cohortId, ids))
    : [];
  return rows.map((r) => ({
    _id: r.cohort.id,
    name: r.cohort.name,
    externalId: r.cohort.externalId,
    scimManaged: r.cohort.scimManaged,
    memberCount: Number(r.members),
    roadmaps: assigned
      .filter((a) => a.cohortId === r.cohort.id)
      .map((a) => ({ _id: a.roadmapId, name: a.name })),
    createdAt: r.cohort.createdAt.toISOString(),
  }));
}

/**
 * Adds learners to a cohort by their ids, checking each holds a seat of the tenant (404 naming the first
 * that does not); for the portal and the CLI.
 */
export async function addLearnersToCohort(
  db: Db,
  tenantId: string,
  cohortId: string,
  learnerIds: string[],
  by: Actor,
) {
  return inTx(db, async (tx) => {
    const cohort = await requireCohort(tx, tenantId, cohortId, true);
    refuseIfScimManaged(cohort);
    const seated = await seatedOf(tx, tenantId, learnerIds);
    const missing = learnerIds.find((id) => !seated.some((s) => s.id === id));
    if (missing) throw new HttpError(404, 'Learner not found among your seats', { field: 'learnerIds' });
    return { added: await addMembers(tx, cohort, seated, by) };
  });
}

export async function removeLearnersFromCohort(
  db: Db,
  tenantId: string,
  cohortId: string,
  learnerIds: string[],
  by: Actor,
) {
  return inTx(db, async (tx) => {
    const cohort = await requireCohort(tx, tenantId, cohortId, true);
    refuseIfScimManaged(cohort);
    return { removed: await removeMembers(tx, cohort, learnerIds, by) };
  });
}

export async function renameCohort(db: Db, tenantId: string, cohortId: string, name: string, by: Actor) {
  return inTx(db, async (tx) => {
    const cohort = await requireCohort(tx, tenantId, cohortId, true);
    refuseIfScimManaged(cohort);
    return updateCohort(tx, cohort, { name, externalId: cohort.externalId }, by);
  });
}

/** The portal's and the CLI's delete: a directory's cohort is the directory's to delete. */
export async function deleteOwnCohort(db: Db, tenantId: string, id: string, by: Actor) {
  refuseIfScimManaged(await requireCohort(db, tenantId, id));
  await deleteCohort(db, tenantId, id, by);
}
