/**
 * Choosing a roadmap, before and after sign-in: whether the learner has it, the preview of an assigned
 * roadmap (the page after the prerequisite assessment, which an unsigned-in visitor may hold), what the
 * prerequisite step shows, and selecting one (assigned to a learner, or held unclaimed until sign-in).
 */
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { subjects } from '../db/schema';
import { badRequest, forbidden } from '../http/errors';
import type { Caller } from '../http/routes';
import {
  assessmentRequired,
  assignedSectionIds,
  assignToLearner,
  CATALOGUE_MESSAGES,
  createUnclaimed,
  hasPrerequisites,
  type RoadmapTests,
  requireRoadmap,
  summaryOf,
} from './learning';
import { prerequisitesOf, sectionsWithResources } from './queries';
import { assignedRoadmaps, roadmaps } from './tables';

/** Whether the learner has this roadmap assigned, and which assignment. */
export async function assignmentOf(db: Db, userId: string, roadmapId: string) {
  await requireRoadmap(db, roadmapId);
  const [row] = await db
    .select({ id: assignedRoadmaps.id })
    .from(assignedRoadmaps)
    .where(and(eq(assignedRoadmaps.userId, userId), eq(assignedRoadmaps.roadmapId, roadmapId)))
    .limit(1);
  return { assigned: Boolean(row), assignedRoadmapId: row?.id ?? null };
}

/**
 * An assigned roadmap's preview (its sections and resources by name); the prerequisite assessment's results
 * only to whoever holds the unclaimed assignment, then its learner. 400 when there is none (the page shows
 * the server's message, mentor §8).
 */
export async function assignedPreview(
  db: Db,
  roadmapTests: RoadmapTests,
  assignedRoadmapId: string,
  caller: { id: string } | null,
  now: Date,
) {
  const [row] = await db
    .select({
      id: assignedRoadmaps.id,
      roadmapId: assignedRoadmaps.roadmapId,
      userId: assignedRoadmaps.userId,
      name: roadmaps.name,
      subjectName: subjects.name,
    })
    .from(assignedRoadmaps)
    .innerJoin(roadmaps, eq(roadmaps.id, assignedRoadmaps.roadmapId))
    .innerJoin(subjects, eq(subjects.id, roadmaps.subjectId))
    .where(eq(assignedRoadmaps.id, assignedRoadmapId))
    .limit(1);
  if (!row) throw badRequest(CATALOGUE_MESSAGES.previewNotFound, 'assignedRoadmapId');
  const sectionList = await sectionsWithResources(db, await assignedSectionIds(db, row));
  return {
    _id: row.id,
    roadmapId: row.roadmapId,
    name: row.name,
    subject: { name: row.subjectName },
    sectionCount: sectionList.length,
    resourceCount: sectionList.reduce((n, s) => n + s.resources.length, 0),
    sections: sectionList.map((s) => ({
      name: s.name,
      resources: s.resources.map((r) => ({ actualTitle: r.actualTitle })),
    })),
    claimed: row.userId !== null,
    mine: caller !== null && row.userId === caller.id,
    // the assessment's result is the learner's: whoever holds the unclaimed link, then its learner
    prerequisiteResults:
      row.userId === null || row.userId === caller?.id
        ? await roadmapTests.prerequisiteResults(db, row, now)
        : null,
  };
}

/** The selected roadmap and its prerequisites, for the prerequisite step. */
export async function prerequisiteStep(db: Db, roadmapId: string) {
  const header = await requireRoadmap(db, roadmapId);
  const prerequisites = await prerequisitesOf(db, [roadmapId]);
  return {
    selectedRoadmap: {
      roadmapId: header.id,
      roadmapName: header.name,
      subject: { name: header.subjectName },
    },
    prerequisites: prerequisites.map((p) => ({ roadmapId: p.prerequisiteId, roadmapName: p.name })),
  };
}

/**
 * Selects a roadmap with no prerequisites (one with any needs its assessment first): assigned to the
 * learner signed in, or made unclaimed for a visitor to claim after signing in. Learners only.
 */
export async function selectRoadmap(db: Db, roadmapId: string, caller: Caller | null) {
  if (caller && caller.user.role !== 'USER') {
    throw forbidden('Only learners can select a roadmap for themselves.');
  }
  await requireRoadmap(db, roadmapId);
  if (await hasPrerequisites(db, roadmapId)) throw assessmentRequired('id');
  const row = caller
    ? (await assignToLearner(db, { userId: caller.id, roadmapId, source: 'SELF' })).row
    : await createUnclaimed(db, roadmapId);
  return summaryOf(db, row);
}
