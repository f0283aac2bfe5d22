/** Reads of the test-link calls: a learner's roadmaps and their parts, links in the API's shape. */
import { retakeOpensAt } from '@shared/rules/retakes';
import type { IntegritySummary, TestLink } from '@shared/schemas/assessment';
import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import {
  assignedRoadmaps,
  assignedSections,
  resources,
  roadmaps,
  sectionResources,
  sections,
} from '../catalogue/tables';
import type { Db } from '../db/client';
import { languages, subjects } from '../db/schema';
import { questions } from '../questions/tables';
import { integrityOfLinks, summaryOf } from './integrity';
import { type LinkRow, testLinks } from './tables';

export interface OwnAssignedRoadmap {
  id: string;
  roadmapId: string;
  name: string;
  subjectId: string;
  /** The roadmap's language: its tests draw questions in it. */
  languageId: string;
  status: 'ONGOING' | 'COMPLETED';
}

/** One of the learner's assigned roadmaps, or null. */
/** The columns of a learner's own assigned roadmap (both reads below). */
const ownAssignedColumns = {
  id: assignedRoadmaps.id,
  roadmapId: assignedRoadmaps.roadmapId,
  name: roadmaps.name,
  subjectId: roadmaps.subjectId,
  languageId: roadmaps.languageId,
  status: assignedRoadmaps.status,
};

export async function ownAssignedRoadmap(
  db: Db,
  userId: string,
  id: string,
): Promise<OwnAssignedRoadmap | null> {
  const [row] = await db
    .select(ownAssignedColumns)
    .from(assignedRoadmaps)
    .innerJoin(roadmaps, eq(roadmaps.id, assignedRoadmaps.roadmapId))
    .where(and(eq(assignedRoadmaps.id, id), eq(assignedRoadmaps.userId, userId)))
    .limit(1);
  return row ?? null;
}

/** All of the learner's assigned roadmaps, ongoing first. */
export async function ownAssignedRoadmaps(db: Db, userId: string): Promise<OwnAssignedRoadmap[]> {
  return db
    .select(ownAssignedColumns)
    .from(assignedRoadmaps)
    .innerJoin(roadmaps, eq(roadmaps.id, assignedRoadmaps.roadmapId))
    .where(eq(assignedRoadmaps.userId, userId))
    .orderBy(asc(assignedRoadmaps.status), desc(assignedRoadmaps.createdAt));
}

/**
 * The sections of an assigned roadmap: the learner's own list (prerequisite sections may come first), or
 * the roadmap's sections when none were copied.
 */
export async function sectionsOfAssigned(
  db: Db,
  ar: Pick<OwnAssignedRoadmap, 'id' | 'roadmapId'>,
): Promise<{ id: string; name: string }[]> {
  const own = await db
    .select({ id: sections.id, name: sections.name })
    .from(assignedSections)
    .innerJoin(sections, eq(sections.id, assignedSections.sectionId))
    .where(eq(assignedSections.assignedRoadmapId, ar.id))
    .orderBy(asc(assignedSections.position));
  if (own.length) return own;
  return db
    .select({ id: sections.id, name: sections.name })
    .from(sections)
    .where(eq(sections.roadmapId, ar.roadmapId))
    .orderBy(asc(sections.position));
}

/** A resource of a section, or null. */
export async function resourceInSection(
  db: Db,
  sectionId: string,
  resourceId: string,
): Promise<{ id: string; title: string } | null> {
  const [row] = await db
    .select({ id: resources.id, title: resources.actualTitle })
    .from(sectionResources)
    .innerJoin(resources, eq(resources.id, sectionResources.resourceId))
    .where(and(eq(sectionResources.sectionId, sectionId), eq(sectionResources.resourceId, resourceId)))
    .limit(1);
  return row ?? null;
}

/** Where a resource sits among the learner's roadmaps (ongoing first), or null. */
export async function findResourceInRoadmaps(
  db: Db,
  userId: string,
  resourceId: string,
): Promise<{ ar: OwnAssignedRoadmap; section: { id: string; name: string }; title: string } | null> {
  const mine = await ownAssignedRoadmaps(db, userId);
  if (mine.length === 0) return null;
  const holders = await db
    .select({ sectionId: sectionResources.sectionId, title: resources.actualTitle })
    .from(sectionResources)
    .innerJoin(resources, eq(resources.id, sectionResources.resourceId))
    .where(eq(sectionResources.resourceId, resourceId));
  if (holders.length === 0) return null;
  const holding = new Map(holders.map((h) => [h.sectionId, h.title]));
  for (const ar of mine) {
    for (const section of await sectionsOfAssigned(db, ar)) {
      const title = holding.get(section.id);
      if (title !== undefined) return { ar, section, title };
    }
  }
  return null;
}

/**
 * The language of a learner's subject test (decision 010): their roadmap in that subject (ongoing first, then
 * the latest); without one, their latest roadmap; without any, the language most of the subject's published
 * questions are in. Null when the subject has no questions at all and the learner no roadmap.
 */
export async function subjectTestLanguage(
  db: Db,
  userId: string,
  subjectId: string,
): Promise<{ id: string; name: string } | null> {
  const [fromRoadmap] = await db
    .select({ id: languages.id, name: languages.name })
    .from(assignedRoadmaps)
    .innerJoin(roadmaps, eq(roadmaps.id, assignedRoadmaps.roadmapId))
    .innerJoin(languages, eq(languages.id, roadmaps.languageId))
    .where(eq(assignedRoadmaps.userId, userId))
    .orderBy(
      desc(sql`${roadmaps.subjectId} = ${subjectId}`),
      desc(sql`${assignedRoadmaps.status} = 'ONGOING'`),
      desc(assignedRoadmaps.createdAt),
    )
    .limit(1);
  if (fromRoadmap) return fromRoadmap;
  const [mostUsed] = await db
    .select({ id: languages.id, name: languages.name })
    .from(questions)
    .innerJoin(languages, eq(languages.id, questions.languageId))
    .where(and(eq(questions.subjectId, subjectId), eq(questions.status, 'PUBLISH')))
    .groupBy(languages.id, languages.name)
    .orderBy(desc(count()), asc(languages.name))
    .limit(1);
  return mostUsed ?? null;
}

export async function subjectById(db: Db, id: string): Promise<{ id: string; name: string } | null> {
  const [row] = await db
    .select({ id: subjects.id, name: subjects.name })
    .from(subjects)
    .where(eq(subjects.id, id))
    .limit(1);
  return row ?? null;
}

/** What a test is about, for the test page's heading. */
export function linkTitle(link: LinkRow): string {
  switch (link.type) {
    case 'RESOURCE':
    case 'RESOURCE-FROM-WHATSAPP':
      return link.assignedResourceName ?? 'Resource assessment';
    case 'SECTION':
      return link.assignedSectionName ?? 'Section assessment';
    case 'ROADMAP':
    case 'INITIAL-ASSESSMENT':
      return link.assignedRoadMapName ?? 'Roadmap assessment';
    case 'SUBJECT':
      return link.assignedSubjectName ?? 'Subject assessment';
    case 'CUSTOM-TEST':
      return link.assignedSubjectName ?? 'Assessment';
  }
}

/**
 * Links in the API's shape, with their subject names and focus records; `cooldownMs` (RETAKE_COOLDOWN_HOURS)
 * dates when each failed one may be retaken.
 */
export async function toApiLinks(
  db: Db,
  rows: LinkRow[],
  cooldownMs: number,
  now = new Date(),
): Promise<TestLink[]> {
  const subjectIds = [...new Set(rows.map((r) => r.subjectId).filter((id): id is string => Boolean(id)))];
  const names = subjectIds.length
    ? await db
        .select({ id: subjects.id, name: subjects.name })
        .from(subjects)
        .where(inArray(subjects.id, subjectIds))
    : [];
  const subjectName = new Map(names.map((s) => [s.id, s.name]));
  const records = await integrityOfLinks(db, rows, now);
  return rows.map((r) =>
    toApiLink(
      r,
      r.subjectId ? (subjectName.get(r.subjectId) ?? null) : null,
      summaryOf(records.get(r.id)),
      cooldownMs,
    ),
  );
}

export function toApiLink(
  r: LinkRow,
  subjectName: string | null,
  integrity: IntegritySummary | null,
  cooldownMs: number,
): TestLink {
  const retakeAt = retakeOpensAt(r, cooldownMs);
  return {
    _id: r.id,
    linkId: r.linkId,
    type: r.type,
    subject: r.subjectId && subjectName ? { _id: r.subjectId, name: subjectName } : null,
    testId:
      r.type === 'CUSTOM-TEST' && r.tenantAssessmentId
        ? { _id: r.tenantAssessmentId, name: r.assignedSubjectName ?? 'Assessment' }
        : null,
    isCompleted: r.isCompleted,
    percentage: r.percentage === null ? null : Number(r.percentage),
    score: r.score === null ? null : Number(r.score),
    createdAt: r.createdAt.toISOString(),
    completedIn: r.completedIn,
    status: r.status,
    startTime: r.startTime ? r.startTime.toISOString() : null,
    duration: r.durationHours,
    userId: r.userId ?? '',
    certificateGenerated: r.certificateGenerated,
    assignedSectionName: r.assignedSectionName,
    assignedRoadMapName: r.assignedRoadMapName,
    assignedResourceName: r.assignedResourceName,
    assignedSubjectName: r.assignedSubjectName,
    questionCount: r.questionCount,
    assignedRoadmapId: r.assignedRoadmapId,
    sectionId: r.sectionId,
    resourceId: r.resourceId,
    integrity,
    attempt: r.attempt,
    retakeAt: retakeAt ? retakeAt.toISOString() : null,
  };
}

/** The learner's links, newest first, optionally of one assigned roadmap. */
export async function linksOf(db: Db, userId: string, assignedRoadmapId?: string): Promise<LinkRow[]> {
  return db
    .select()
    .from(testLinks)
    .where(
      assignedRoadmapId
        ? and(eq(testLinks.userId, userId), eq(testLinks.assignedRoadmapId, assignedRoadmapId))
        : eq(testLinks.userId, userId),
    )
    .orderBy(desc(testLinks.createdAt), desc(testLinks.id));
}
