/**
 * A learner's copies of roadmaps: assigning (at most two ongoing, idempotent), selecting before sign-in
 * and claiming afterwards, the learner's view with scores and submitted tasks, task submission, and
 * completion when the final assessment earns its certificate.
 */

import {
  MAX_ONGOING_ROADMAPS,
  type PrerequisiteScore,
  ROADMAP_LIMIT_MESSAGE,
} from '@shared/contract/catalogue';
import { messageKey } from '@shared/i18n/keys';
import type { AssignedRoadmap } from '@shared/schemas/catalogue';
import { and, asc, count, desc, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../db/client';
import { inTx, type Tx } from '../db/helpers';
import { users } from '../db/schema';
import { badRequest, HttpError, notFound } from '../http/errors';
import { recordAudit } from '../integrations/core/audit';
import type { Actor } from '../integrations/core/principal';
import {
  anyRoadmapHeader,
  prerequisitesOf,
  roadmapHeader,
  sectionIdsOf,
  sectionsWithResources,
  subjectAndLanguage,
  tasksOf,
} from './queries';
import { assignedRoadmaps, assignedSections, roadmaps, taskSubmissions, tasks } from './tables';

export type AssignedRow = typeof assignedRoadmaps.$inferSelect;
export type Source = AssignedRow['source'];

/** The catalogue's refusals: message keys, said in the language of the request (decision 040). */
export const CATALOGUE_MESSAGES = {
  roadmapNotFound: messageKey('errors.catalogue.roadmapNotFound'),
  assignedNotFound: messageKey('errors.catalogue.assignedNotFound'),
  previewNotFound: messageKey('errors.catalogue.previewNotFound'),
  claimedByAnother: messageKey('errors.catalogue.claimedByAnother'),
  hasPrerequisites: messageKey('errors.catalogue.hasPrerequisites'),
  prerequisitesChoice: messageKey('errors.catalogue.prerequisitesChoice'),
  taskNotFound: messageKey('errors.catalogue.taskNotFound'),
  resourceNotFound: messageKey('errors.catalogue.resourceNotFound'),
} as const;

/**
 * What a learner's roadmap needs of their test links, which are the assessments' own: the catalogue imports
 * no assessment (decision 018), so it declares this and server/assessments/roadmap-tests.ts implements it
 * (server/services.ts hands it to the catalogue's routes, as the bank's loader is handed `QuestionCounts`).
 */
export interface RoadmapTests {
  /** In the claim's transaction: the links taken on the unclaimed copy (its prerequisite assessment) become the learner's. */
  claim(tx: Tx, assignedRoadmapId: string, userId: string): Promise<void>;
  /** The learner's links on the copy, oldest first: section links by section, resource links by resource. */
  linksOf(
    db: Db,
    userId: string,
    assignedRoadmapId: string,
  ): Promise<{ sectionLinks: Map<string, string[]>; resourceLinks: Map<string, string[]> }>;
  /** The learner's best percentage per resource, from their completed resource assessments. */
  bestResourceScores(db: Db, userId: string, resourceIds: readonly string[]): Promise<Map<string, number>>;
  /** The prerequisite assessment's result that made the copy, per prerequisite; null without one (or not evaluated). */
  prerequisiteResults(
    db: Db,
    assigned: { id: string; roadmapId: string },
    now: Date,
  ): Promise<z.infer<typeof PrerequisiteScore>[] | null>;
}

export const roadmapLimit = () => new HttpError(400, ROADMAP_LIMIT_MESSAGE, { errorCode: 'ROADMAP_LIMIT' });

/** A learner tried to take a roadmap with prerequisites without their assessment (mentor §2.9, §4). */
export const PREREQUISITE_ASSESSMENT_REQUIRED = 'PREREQUISITE_ASSESSMENT_REQUIRED';
export const assessmentRequired = (field: string) =>
  badRequest(CATALOGUE_MESSAGES.hasPrerequisites, field, { errorCode: PREREQUISITE_ASSESSMENT_REQUIRED });

/**
 * What a mentor assigning a roadmap with prerequisites decides in place of the assessment (decision 011):
 * INCLUDE puts every prerequisite's sections first (what the assessment gives a learner who knows none of
 * them); WAIVE vouches for the learner and gives the roadmap's own sections only.
 */
export type PrerequisiteChoice = 'INCLUDE' | 'WAIVE';

export interface AssignedSummary {
  _id: string;
  roadmapId: string;
  name: string;
  status: 'ONGOING' | 'COMPLETED';
  userId: string | null;
  createdAt: string;
}

export function toSummary(row: AssignedRow, name: string): AssignedSummary {
  return {
    _id: row.id,
    roadmapId: row.roadmapId,
    name,
    status: row.status,
    userId: row.userId,
    createdAt: row.createdAt.toISOString(),
  };
}

async function roadmapName(db: Db, roadmapId: string): Promise<string> {
  const [row] = await db.select({ name: roadmaps.name }).from(roadmaps).where(eq(roadmaps.id, roadmapId));
  return row?.name ?? '';
}

export async function summaryOf(db: Db, row: AssignedRow): Promise<AssignedSummary> {
  return toSummary(row, await roadmapName(db, row.roadmapId));
}

/** A published roadmap, or 404. */
export async function requireRoadmap(db: Db, roadmapId: string) {
  const header = await roadmapHeader(db, roadmapId);
  if (!header) throw notFound(CATALOGUE_MESSAGES.roadmapNotFound);
  return header;
}

export async function hasPrerequisites(db: Db, roadmapId: string): Promise<boolean> {
  return (await prerequisitesOf(db, [roadmapId])).length > 0;
}

/** Serialises a learner's assignments (the two-roadmap limit holds under concurrent requests). */
async function lockUser(tx: Db, userId: string) {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
}

async function ongoingCount(tx: Db, userId: string): Promise<number> {
  const [row] = await tx
    .select({ n: count() })
    .from(assignedRoadmaps)
    .where(and(eq(assignedRoadmaps.userId, userId), eq(assignedRoadmaps.status, 'ONGOING')));
  return Number(row?.n ?? 0);
}

async function existingFor(tx: Db, userId: string, roadmapId: string): Promise<AssignedRow | null> {
  const [row] = await tx
    .select()
    .from(assignedRoadmaps)
    .where(and(eq(assignedRoadmaps.userId, userId), eq(assignedRoadmaps.roadmapId, roadmapId)))
    .limit(1);
  return row ?? null;
}

/** Creates the copy with its sections (the roadmap's own, or the given order). */
export async function insertAssigned(
  tx: Db,
  spec: {
    userId: string | null;
    roadmapId: string;
    source: Source;
    assignedBy?: string | null;
    sectionIds?: readonly string[];
    prerequisites?: AssignedRow['prerequisites'];
    now?: Date;
  },
): Promise<AssignedRow> {
  const now = spec.now ?? new Date();
  const [row] = await tx
    .insert(assignedRoadmaps)
    .values({
      userId: spec.userId,
      roadmapId: spec.roadmapId,
      source: spec.source,
      assignedBy: spec.assignedBy ?? null,
      prerequisites: spec.prerequisites ?? null,
      status: 'ONGOING',
      createdAt: now,
      claimedAt: spec.userId ? now : null,
    })
    .returning();
  const sectionIds = [...new Set(spec.sectionIds ?? (await sectionIdsOf(tx, spec.roadmapId)))];
  if (sectionIds.length) {
    await tx
      .insert(assignedSections)
      .values(sectionIds.map((sectionId, position) => ({ assignedRoadmapId: row!.id, sectionId, position })));
  }
  return row!;
}

/**
 * Inside a transaction holding the learner's lock: the learner's copy of the roadmap if there is one
 * (assigning again answers with it), else a check that one more ongoing roadmap is allowed.
 */
export async function existingOrRoom(tx: Db, userId: string, roadmapId: string): Promise<AssignedRow | null> {
  await lockUser(tx, userId);
  const existing = await existingFor(tx, userId, roadmapId);
  if (existing) return existing;
  if ((await ongoingCount(tx, userId)) >= MAX_ONGOING_ROADMAPS) throw roadmapLimit();
  return null;
}

/**
 * Assigns a published roadmap to a learner: the existing copy when there is one (idempotent), else a new
 * one unless two are ongoing already. A roadmap with prerequisites is never assigned past its assessment:
 * without a mentor's `prerequisites` choice the answer is 400 (the learner's way in is the assessment,
 * POST /roadmap/generate-initial-assessment-questions/{id}); `refuseWith` says how.
 */
export async function assignToLearner(
  db: Db,
  spec: {
    userId: string;
    roadmapId: string;
    source: Source;
    assignedBy?: string | null;
    prerequisites?: PrerequisiteChoice;
    /** The refusal when the roadmap has prerequisites and no choice was given. */
    refuseWith?: () => HttpError;
    /** A mentor's assignment: recorded in the tenant's activity log (who, and the learner's address). */
    audit?: { by: Actor; tenantId: string; learnerEmail: string };
  },
): Promise<{ row: AssignedRow; created: boolean }> {
  const roadmap = await requireRoadmap(db, spec.roadmapId);
  return inTx(db, async (tx) => {
    const existing = await existingOrRoom(tx, spec.userId, spec.roadmapId);
    if (existing) return { row: existing, created: false };
    const prerequisites = await prerequisitesOf(tx, [spec.roadmapId]);
    const { userId, roadmapId, source, assignedBy, audit } = spec;
    const made = async (row: AssignedRow) => {
      if (audit) {
        await recordAudit(tx, audit.by, {
          tenantId: audit.tenantId,
          action: 'roadmap.assigned',
          target: { kind: 'assignedRoadmap', id: row.id },
          summary: `${roadmap.name} assigned to ${audit.learnerEmail}`,
          details: {
            roadmapId,
            roadmap: roadmap.name,
            learnerId: userId,
            email: audit.learnerEmail,
            prerequisites: row.prerequisites,
          },
        });
      }
      return { row, created: true };
    };
    if (prerequisites.length === 0) {
      return made(await insertAssigned(tx, { userId, roadmapId, source, assignedBy }));
    }
    if (!spec.prerequisites) throw (spec.refuseWith ?? (() => assessmentRequired('roadmapId')))();
    const sectionIds: string[] = [];
    if (spec.prerequisites === 'INCLUDE') {
      for (const p of prerequisites) sectionIds.push(...(await sectionIdsOf(tx, p.prerequisiteId)));
    }
    sectionIds.push(...(await sectionIdsOf(tx, spec.roadmapId)));
    const row = await insertAssigned(tx, {
      userId,
      roadmapId,
      source,
      assignedBy,
      sectionIds,
      prerequisites: spec.prerequisites === 'INCLUDE' ? 'INCLUDED' : 'WAIVED',
    });
    return made(row);
  });
}

/** Selection before sign-in: an unclaimed copy, previewed and claimed after sign-in. */
export async function createUnclaimed(db: Db, roadmapId: string): Promise<AssignedRow> {
  await requireRoadmap(db, roadmapId);
  return inTx(db, (tx) => insertAssigned(tx, { userId: null, roadmapId, source: 'PUBLIC' }));
}

/**
 * Claims an unclaimed copy for the signed-in learner. Claiming one's own again answers with it; a copy
 * claimed by someone else is refused; a learner who already has that roadmap gets their copy back.
 */
export async function claim(
  db: Db,
  userId: string,
  assignedRoadmapId: string,
  tests: RoadmapTests,
): Promise<AssignedRow> {
  return inTx(db, async (tx) => {
    await lockUser(tx, userId);
    const [row] = await tx
      .select()
      .from(assignedRoadmaps)
      .where(eq(assignedRoadmaps.id, assignedRoadmapId))
      .for('update');
    if (!row) throw notFound(CATALOGUE_MESSAGES.assignedNotFound);
    if (row.userId === userId) return row;
    if (row.userId !== null) throw badRequest(CATALOGUE_MESSAGES.claimedByAnother, 'id');
    const existing = await existingFor(tx, userId, row.roadmapId);
    if (existing) return existing;
    if (row.status === 'ONGOING' && (await ongoingCount(tx, userId)) >= MAX_ONGOING_ROADMAPS) {
      throw roadmapLimit();
    }
    const [claimed] = await tx
      .update(assignedRoadmaps)
      .set({ userId, claimedAt: new Date() })
      .where(and(eq(assignedRoadmaps.id, row.id), isNull(assignedRoadmaps.userId)))
      .returning();
    // the prerequisite assessment taken before sign-in becomes the learner's too
    await tests.claim(tx, row.id, userId);
    return claimed!;
  });
}

/** The learner's own copy, or null (someone else's is as good as missing). */
export async function ownAssigned(db: Db, userId: string, id: string): Promise<AssignedRow | null> {
  const [row] = await db
    .select()
    .from(assignedRoadmaps)
    .where(and(eq(assignedRoadmaps.id, id), eq(assignedRoadmaps.userId, userId)))
    .limit(1);
  return row ?? null;
}

/** The learner's copies: ongoing first, newest first. */
export async function learnerRoadmaps(db: Db, userId: string): Promise<AssignedSummary[]> {
  const rows = await db
    .select({ row: assignedRoadmaps, name: roadmaps.name })
    .from(assignedRoadmaps)
    .innerJoin(roadmaps, eq(roadmaps.id, assignedRoadmaps.roadmapId))
    .where(eq(assignedRoadmaps.userId, userId))
    .orderBy(
      sql`case when ${assignedRoadmaps.status} = 'ONGOING' then 0 else 1 end`,
      desc(assignedRoadmaps.createdAt),
      asc(assignedRoadmaps.id),
    );
  return rows.map((r) => toSummary(r.row, r.name));
}

/** The sections of a copy in the learner's order (the roadmap's own when none were copied). */
export async function assignedSectionIds(
  db: Db,
  row: Pick<AssignedRow, 'id' | 'roadmapId'>,
): Promise<string[]> {
  const own = await db
    .select({ id: assignedSections.sectionId })
    .from(assignedSections)
    .where(eq(assignedSections.assignedRoadmapId, row.id))
    .orderBy(asc(assignedSections.position));
  return own.length ? own.map((r) => r.id) : sectionIdsOf(db, row.roadmapId);
}

/** The learner's copy with sections, resources, their test links and best scores, and tasks. */
export async function learnerRoadmap(
  db: Db,
  userId: string,
  id: string,
  tests: RoadmapTests,
): Promise<AssignedRoadmap | null> {
  const row = await ownAssigned(db, userId, id);
  if (!row) return null;
  const header = await anyRoadmapHeader(db, row.roadmapId);
  if (!header) return null;
  const sectionIds = await assignedSectionIds(db, row);
  const [{ sectionLinks, resourceLinks }, submitted, meta] = await Promise.all([
    tests.linksOf(db, userId, row.id),
    db
      .select({ taskId: taskSubmissions.taskId })
      .from(taskSubmissions)
      .where(eq(taskSubmissions.assignedRoadmapId, row.id)),
    subjectAndLanguage(db, header),
  ]);
  const sectionList = await sectionsWithResources(db, sectionIds, { sectionLinks, resourceLinks });
  const resourceIds = [...new Set(sectionList.flatMap((s) => s.resources.map((r) => r._id)))];
  const best = await tests.bestResourceScores(db, userId, resourceIds);
  return {
    _id: row.id,
    roadmapId: row.roadmapId,
    name: header.name,
    description: header.description,
    subject: meta.subject,
    language: meta.language,
    status: row.status,
    userId,
    sections: sectionList.map((s) => ({
      ...s,
      resourceScores: Object.fromEntries(
        s.resources.filter((r) => best.has(r._id)).map((r) => [r._id, best.get(r._id)!]),
      ),
    })),
    tasks: await tasksOf(db, row.roadmapId, new Set(submitted.map((s) => s.taskId))),
    finalAssesmentId: row.finalAssesmentId,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Marks a task of the learner's copy as submitted (again: the new link replaces the old one). */
export async function submitTask(
  db: Db,
  userId: string,
  assignedRoadmapId: string,
  taskId: string,
  url: string | undefined,
): Promise<void> {
  const row = await ownAssigned(db, userId, assignedRoadmapId);
  if (!row) throw notFound(CATALOGUE_MESSAGES.assignedNotFound);
  const [task] = await db
    .select({ id: tasks.id })
    .from(tasks)
    .where(and(eq(tasks.id, taskId), eq(tasks.roadmapId, row.roadmapId)))
    .limit(1);
  if (!task) throw notFound(CATALOGUE_MESSAGES.taskNotFound);
  await db
    .insert(taskSubmissions)
    .values({ assignedRoadmapId: row.id, taskId, url: url ?? null })
    .onConflictDoUpdate({
      target: [taskSubmissions.assignedRoadmapId, taskSubmissions.taskId],
      set: { url: url ?? null, submittedAt: new Date() },
    });
}

/**
 * For the assessment engine: final (roadmap) links that earned their certificate complete the learner's copy,
 * which remembers the link as its final assessment and the link's completion time as its own; safe to run
 * again. `earned` is a table expression of such links (link_id, type, assigned_roadmap_id, completed_at): the
 * evaluation's one statement carries this over the link it evaluates (assessments/completion.ts), and
 * markRoadmapCompleted runs it for one link.
 */
export const roadmapsCompletedBy = (earned: SQL) => sql`
  update ${assignedRoadmaps} a
  set status = 'COMPLETED', final_assesment_id = d.link_id, completed_at = d.completed_at
  from ${earned} d
  where d.type = 'ROADMAP' and a.id = d.assigned_roadmap_id and a.status <> 'COMPLETED'`;

/** roadmapsCompletedBy for one final link that earned its certificate at `completedAt` (now by default). */
export async function markRoadmapCompleted(
  db: Db,
  assignedRoadmapId: string,
  linkId: string,
  completedAt: Date = new Date(),
): Promise<void> {
  await db.execute(
    roadmapsCompletedBy(sql`(select ${linkId}::text as link_id, 'ROADMAP'::text as type,
      ${assignedRoadmapId}::uuid as assigned_roadmap_id, ${completedAt.toISOString()}::timestamptz as completed_at)`),
  );
}
