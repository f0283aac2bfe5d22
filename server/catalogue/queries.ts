/**
 * Reads of the catalogue: roadmap summaries with their derived duration and lecture counts, whole roadmaps
 * (sections of resources, tasks, curators, prerequisites) and the parts a learner's copy is made of.
 * Durations come from resource start and end marks: end − start seconds, a negative span or a resource
 * without an end mark counting 0.
 */
import type { Roadmap, RoadmapSummary, Section, Task } from '@shared/schemas/catalogue';
import type { Subject } from '@shared/schemas/lists';
import { type AnyColumn, and, asc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { languages, subjects, topics } from '../db/schema';
import {
  authors,
  resources,
  roadmapAuthors,
  roadmapPrerequisites,
  roadmaps,
  sectionResources,
  sections,
  tasks,
} from './tables';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (s: string) => UUID.test(s);

/** Seconds → the {hour, minute, second} mark the API shows; null stays null. */
export function toTimeMark(seconds: number | null): { hour: number; minute: number; second: number } | null {
  if (seconds === null || seconds === undefined) return null;
  const s = Math.max(0, Math.floor(seconds));
  return { hour: Math.floor(s / 3600), minute: Math.floor((s % 3600) / 60), second: s % 60 };
}

/** A resource's duration: end minus start, negative or unknown spans counted as 0. */
export function spanSeconds(start: number | null, end: number | null): number {
  if (end === null || end === undefined) return 0;
  return Math.max(0, end - (start ?? 0));
}

/** The same rule in SQL, for the aggregates of the catalogue list. */
const SPAN_SQL = sql`greatest(coalesce(${resources.endSeconds}, 0) - coalesce(${resources.startSeconds}, 0), 0)`;

export interface RoadmapFilterInput {
  language?: string;
  subject?: string;
  topic?: string;
}

/** A filter value is an id or a name (any case). */
function matches(idColumn: AnyColumn, nameColumn: AnyColumn, v: string): SQL {
  return isUuid(v) ? sql`${idColumn} = ${v}` : sql`lower(${nameColumn}) = lower(${v})`;
}

interface HeaderRow {
  id: string;
  name: string;
  description: string;
  languageId: string;
  languageName: string;
  subjectId: string;
  subjectName: string;
  topicId: string | null;
  topicName: string | null;
  imgPath: string | null;
  createdAt: Date;
}

const headerColumns = {
  id: roadmaps.id,
  name: roadmaps.name,
  description: roadmaps.description,
  languageId: roadmaps.languageId,
  languageName: languages.name,
  subjectId: roadmaps.subjectId,
  subjectName: subjects.name,
  topicId: roadmaps.topicId,
  topicName: topics.name,
  imgPath: roadmaps.imgPath,
  createdAt: roadmaps.createdAt,
};

function headers(db: Db) {
  return db
    .select(headerColumns)
    .from(roadmaps)
    .innerJoin(languages, eq(languages.id, roadmaps.languageId))
    .innerJoin(subjects, eq(subjects.id, roadmaps.subjectId))
    .leftJoin(topics, eq(topics.id, roadmaps.topicId));
}

/** Published roadmaps matching the filter, by name. */
async function headerRows(db: Db, filter: RoadmapFilterInput): Promise<HeaderRow[]> {
  const where: SQL[] = [eq(roadmaps.isPublished, true)];
  if (filter.language) where.push(matches(roadmaps.languageId, languages.name, filter.language));
  if (filter.subject) where.push(matches(roadmaps.subjectId, subjects.name, filter.subject));
  if (filter.topic) where.push(matches(roadmaps.topicId, topics.name, filter.topic));
  return headers(db)
    .where(and(...where))
    .orderBy(asc(roadmaps.name), asc(roadmaps.id));
}

/** One published roadmap's header, or null. */
export async function roadmapHeader(db: Db, id: string): Promise<HeaderRow | null> {
  const [row] = await headers(db)
    .where(and(eq(roadmaps.id, id), eq(roadmaps.isPublished, true)))
    .limit(1);
  return row ?? null;
}

/** Subjects with their topics, by id. */
async function subjectsById(db: Db, ids: string[]): Promise<Map<string, Subject>> {
  if (ids.length === 0) return new Map();
  const [subjectRows, topicRows] = await Promise.all([
    db.select({ id: subjects.id, name: subjects.name }).from(subjects).where(inArray(subjects.id, ids)),
    db
      .select({ id: topics.id, name: topics.name, subjectId: topics.subjectId })
      .from(topics)
      .where(inArray(topics.subjectId, ids))
      .orderBy(asc(topics.name)),
  ]);
  return new Map(
    subjectRows.map((s) => [
      s.id,
      {
        _id: s.id,
        name: s.name,
        topics: topicRows.filter((t) => t.subjectId === s.id).map((t) => ({ _id: t.id, name: t.name })),
      },
    ]),
  );
}

type ApiAuthor = RoadmapSummary['authors'][number];

/** Curators of each roadmap, in their order. */
async function authorsOf(db: Db, roadmapIds: string[]): Promise<Map<string, ApiAuthor[]>> {
  const out = new Map<string, ApiAuthor[]>();
  if (roadmapIds.length === 0) return out;
  const rows = await db
    .select({
      roadmapId: roadmapAuthors.roadmapId,
      id: authors.id,
      name: authors.name,
      profilePath: authors.profilePath,
      designation: authors.designation,
      shortDescription: authors.shortDescription,
      longDescription: authors.longDescription,
    })
    .from(roadmapAuthors)
    .innerJoin(authors, eq(authors.id, roadmapAuthors.authorId))
    .where(inArray(roadmapAuthors.roadmapId, roadmapIds))
    .orderBy(asc(roadmapAuthors.roadmapId), asc(roadmapAuthors.position), asc(authors.name));
  for (const { roadmapId, id, ...a } of rows) {
    const list = out.get(roadmapId) ?? [];
    list.push({ authorId: { _id: id, ...a } });
    out.set(roadmapId, list);
  }
  return out;
}

export interface PrerequisiteRow {
  roadmapId: string;
  prerequisiteId: string;
  name: string;
  position: number;
}

/** Published prerequisites of each roadmap, in their order. */
export async function prerequisitesOf(db: Db, roadmapIds: string[]): Promise<PrerequisiteRow[]> {
  if (roadmapIds.length === 0) return [];
  return db
    .select({
      roadmapId: roadmapPrerequisites.roadmapId,
      prerequisiteId: roadmapPrerequisites.prerequisiteId,
      name: roadmaps.name,
      position: roadmapPrerequisites.position,
    })
    .from(roadmapPrerequisites)
    .innerJoin(roadmaps, eq(roadmaps.id, roadmapPrerequisites.prerequisiteId))
    .where(and(inArray(roadmapPrerequisites.roadmapId, roadmapIds), eq(roadmaps.isPublished, true)))
    .orderBy(asc(roadmapPrerequisites.roadmapId), asc(roadmapPrerequisites.position), asc(roadmaps.name));
}

/** Lecture count and duration (seconds) of each roadmap, from its sections' resources. */
async function statsOf(
  db: Db,
  roadmapIds: string[],
): Promise<Map<string, { lectures: number; duration: number }>> {
  if (roadmapIds.length === 0) return new Map();
  const rows = await db
    .select({
      roadmapId: sections.roadmapId,
      lectures: sql<number>`count(*)::int`,
      duration: sql<number>`coalesce(sum(${SPAN_SQL}), 0)::int`,
    })
    .from(sections)
    .innerJoin(sectionResources, eq(sectionResources.sectionId, sections.id))
    .innerJoin(resources, eq(resources.id, sectionResources.resourceId))
    .where(inArray(sections.roadmapId, roadmapIds))
    .groupBy(sections.roadmapId);
  return new Map(
    rows.map((r) => [r.roadmapId, { lectures: Number(r.lectures), duration: Number(r.duration) }]),
  );
}

/** Summaries in the API's shape, for these header rows. */
async function toSummaries(db: Db, rows: HeaderRow[]): Promise<RoadmapSummary[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [subjectMap, authorMap, prereqs, stats] = await Promise.all([
    subjectsById(db, [...new Set(rows.map((r) => r.subjectId))]),
    authorsOf(db, ids),
    prerequisitesOf(db, ids),
    statsOf(db, ids),
  ]);
  return rows.map((r) => ({
    _id: r.id,
    name: r.name,
    description: r.description,
    language: { _id: r.languageId, name: r.languageName },
    subject: subjectMap.get(r.subjectId) ?? { _id: r.subjectId, name: '', topics: [] },
    topic: r.topicId && r.topicName ? { _id: r.topicId, name: r.topicName } : null,
    imgPath: r.imgPath,
    authors: authorMap.get(r.id) ?? [],
    prerequisites: prereqs
      .filter((p) => p.roadmapId === r.id)
      .map((p) => ({ _id: p.prerequisiteId, name: p.name })),
    duration: stats.get(r.id)?.duration ?? 0,
    totalLectures: stats.get(r.id)?.lectures ?? 0,
    createdAt: r.createdAt.toISOString(),
  }));
}

/** The catalogue: published roadmaps matching the filter (ids or names), by name. */
export async function listRoadmaps(db: Db, filter: RoadmapFilterInput): Promise<RoadmapSummary[]> {
  return toSummaries(db, await headerRows(db, filter));
}

/** The sections of a roadmap, in order. */
export async function sectionIdsOf(db: Db, roadmapId: string): Promise<string[]> {
  const rows = await db
    .select({ id: sections.id })
    .from(sections)
    .where(eq(sections.roadmapId, roadmapId))
    .orderBy(asc(sections.position), asc(sections.createdAt));
  return rows.map((r) => r.id);
}

/** Per-section extras a learner's copy adds (their test links per resource and section). */
export interface SectionExtras {
  sectionLinks?: Map<string, string[]>;
  resourceLinks?: Map<string, string[]>;
}

/**
 * Sections in the given order with their resources (in order), each resource with the roadmaps it
 * belongs to, and each section's duration.
 */
export async function sectionsWithResources(
  db: Db,
  sectionIds: readonly string[],
  extras: SectionExtras = {},
): Promise<Section[]> {
  if (sectionIds.length === 0) return [];
  const ids = [...sectionIds];
  const [sectionRows, resourceRows] = await Promise.all([
    db.select({ id: sections.id, name: sections.name }).from(sections).where(inArray(sections.id, ids)),
    db
      .select({
        sectionId: sectionResources.sectionId,
        id: resources.id,
        actualTitle: resources.actualTitle,
        userTitle: resources.userTitle,
        type: resources.type,
        url: resources.url,
        shortId: resources.shortId,
        startSeconds: resources.startSeconds,
        endSeconds: resources.endSeconds,
      })
      .from(sectionResources)
      .innerJoin(resources, eq(resources.id, sectionResources.resourceId))
      .where(inArray(sectionResources.sectionId, ids))
      .orderBy(asc(sectionResources.position), asc(resources.actualTitle)),
  ]);
  const resourceIds = [...new Set(resourceRows.map((r) => r.id))];
  const belongRows = resourceIds.length
    ? await db
        .selectDistinct({ resourceId: sectionResources.resourceId, id: roadmaps.id, name: roadmaps.name })
        .from(sectionResources)
        .innerJoin(sections, eq(sections.id, sectionResources.sectionId))
        .innerJoin(roadmaps, eq(roadmaps.id, sections.roadmapId))
        .where(and(inArray(sectionResources.resourceId, resourceIds), eq(roadmaps.isPublished, true)))
        .orderBy(asc(roadmaps.name))
    : [];
  const belongs = new Map<string, { _id: string; name: string }[]>();
  for (const b of belongRows) {
    const list = belongs.get(b.resourceId) ?? [];
    list.push({ _id: b.id, name: b.name });
    belongs.set(b.resourceId, list);
  }
  const byId = new Map(sectionRows.map((s) => [s.id, s]));
  return ids
    .map((id) => byId.get(id))
    .filter((s): s is { id: string; name: string } => Boolean(s))
    .map((s) => {
      const list = resourceRows
        .filter((r) => r.sectionId === s.id)
        .map((r) => ({
          _id: r.id,
          actualTitle: r.actualTitle,
          userTitle: r.userTitle,
          type: r.type,
          url: r.url,
          shortId: r.shortId,
          start: toTimeMark(r.startSeconds),
          end: toTimeMark(r.endSeconds),
          assesmentIds: extras.resourceLinks?.get(r.id) ?? [],
          belongToRoadmap: belongs.get(r.id) ?? [],
          seconds: spanSeconds(r.startSeconds, r.endSeconds),
        }));
      return {
        _id: s.id,
        name: s.name,
        resources: list.map(({ seconds: _s, ...r }) => r),
        assesmentIds: extras.sectionLinks?.get(s.id) ?? [],
        duration: list.reduce((sum, r) => sum + r.seconds, 0),
      };
    });
}

/** A roadmap's tasks in order; `submitted` marks the learner's submitted ones. */
export async function tasksOf(
  db: Db,
  roadmapId: string,
  submitted: ReadonlySet<string> = new Set(),
): Promise<Task[]> {
  const rows = await db
    .select()
    .from(tasks)
    .where(eq(tasks.roadmapId, roadmapId))
    .orderBy(asc(tasks.position), asc(tasks.createdAt));
  return rows.map((t) => ({
    _id: t.id,
    actualTitle: t.actualTitle,
    userTitle: t.userTitle,
    url: t.url,
    type: t.type,
    isSubmited: submitted.has(t.id),
  }));
}

/** One published roadmap with its sections, resources, tasks, curators and prerequisites; null if none. */
export async function loadRoadmap(db: Db, id: string): Promise<Roadmap | null> {
  const header = await roadmapHeader(db, id);
  if (!header) return null;
  const [[summary], sectionList, taskList] = await Promise.all([
    toSummaries(db, [header]),
    sectionIdsOf(db, id).then((ids) => sectionsWithResources(db, ids)),
    tasksOf(db, id),
  ]);
  return { ...summary!, sections: sectionList, tasks: taskList };
}

/** Subject (with topics) and language of a roadmap, for a learner's copy. */
export async function subjectAndLanguage(
  db: Db,
  header: Pick<HeaderRow, 'subjectId' | 'languageId' | 'languageName'>,
): Promise<{ subject: Subject; language: { _id: string; name: string } }> {
  const subjectMap = await subjectsById(db, [header.subjectId]);
  return {
    subject: subjectMap.get(header.subjectId) ?? { _id: header.subjectId, name: '', topics: [] },
    language: { _id: header.languageId, name: header.languageName },
  };
}

/** Any roadmap's header (published or not), for a learner's copy of a roadmap since withdrawn. */
export async function anyRoadmapHeader(db: Db, id: string): Promise<HeaderRow | null> {
  const [row] = await headers(db).where(eq(roadmaps.id, id)).limit(1);
  return row ?? null;
}

/** A resource by its short id (the oldest, should two share one), as its short link answers it. */
export async function resourceByShortId(db: Db, shortId: string) {
  const [row] = await db
    .select({
      id: resources.id,
      url: resources.url,
      actualTitle: resources.actualTitle,
      type: resources.type,
    })
    .from(resources)
    .where(eq(resources.shortId, shortId))
    .orderBy(asc(resources.createdAt))
    .limit(1);
  return row ? { _id: row.id, url: row.url, actualTitle: row.actualTitle, type: row.type } : null;
}
