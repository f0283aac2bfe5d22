/**
 * Loading questions as their authors see them (with correctness), in one query per kind of data. What is
 * known of a question only from the tests that drew it (how often, its feedback) is counted by the caller's
 * `QuestionCounts` (assessments': server/assessments/question-use.ts), so the bank imports no domain above it.
 */

import { hasImageOptions } from '@shared/rules/question-types';
import type { Question } from '@shared/schemas/assessment';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { resources, roadmaps, sectionResources, sections } from '../catalogue/tables';
import type { Db } from '../db/client';
import { languages, users } from '../db/schema';
import { questionOptions, questions, questionTargets } from './tables';

/** How often each question was drawn into a test, and how much feedback it has, by question id. */
export type QuestionCounts = (
  db: Db,
  ids: string[],
) => Promise<{ uses: Map<string, number>; feedback: Map<string, number> }>;

export type QuestionRow = typeof questions.$inferSelect;

/** Author views of the given questions, in the order of `ids`. */
export async function loadQuestions(db: Db, ids: string[], counts: QuestionCounts): Promise<Question[]> {
  if (ids.length === 0) return [];
  const [rows, options, creators, { uses: useCount, feedback: feedbackCount }, targets] = await Promise.all([
    db.select().from(questions).where(inArray(questions.id, ids)),
    db
      .select()
      .from(questionOptions)
      .where(inArray(questionOptions.questionId, ids))
      .orderBy(asc(questionOptions.position)),
    db
      .select({ id: users.id, name: users.name, email: users.email })
      .from(users)
      .innerJoin(questions, eq(questions.createdBy, users.id))
      .where(inArray(questions.id, ids)),
    counts(db, ids),
    loadTargets(db, ids),
  ]);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const creatorById = new Map(creators.map((c) => [c.id, c]));
  return ids
    .map((id) => byId.get(id))
    .filter((r): r is QuestionRow => Boolean(r))
    .map((r) => {
      const creator = r.createdBy ? creatorById.get(r.createdBy) : undefined;
      const t = targets.get(r.id) ?? { roadmap: null, resources: [] };
      return {
        _id: r.id,
        questionId: r.id,
        question: r.question,
        questionType: r.questionType,
        optionType: hasImageOptions(r.questionType) ? 'IMAGE' : 'TEXT',
        code: r.code,
        questionImagePath: r.questionImagePath,
        isQuestionImage: Boolean(r.questionImagePath),
        points: r.points,
        options: options
          .filter((o) => o.questionId === r.id)
          .map((o) => ({ _id: o.id, value: o.value, isCorrect: o.isCorrect, points: o.points })),
        subject: r.subjectId,
        topic: r.topicId,
        language: r.languageId,
        explanation: r.explanation,
        tags: r.tags,
        status: r.status,
        roadmapId: t.roadmap?.id ?? null,
        roadmapName: t.roadmap?.name ?? null,
        createdBy: creator ? { _id: creator.id, name: creator.name ?? creator.email } : null,
        countRepeatedQuestion: useCount.get(r.id) ?? 0,
        feedbackCount: feedbackCount.get(r.id) ?? 0,
        belongToResource: t.resources,
      };
    });
}

/** The roadmap each question assesses (directly, or through a section or resource) and its resources. */
async function loadTargets(db: Db, ids: string[]) {
  const rows = await db
    .select({
      questionId: questionTargets.questionId,
      kind: questionTargets.kind,
      targetId: questionTargets.targetId,
    })
    .from(questionTargets)
    .where(inArray(questionTargets.questionId, ids));
  const roadmapIds = rows.filter((r) => r.kind === 'ROADMAP').map((r) => r.targetId);
  const sectionIds = rows.filter((r) => r.kind === 'SECTION').map((r) => r.targetId);
  const resourceIds = rows.filter((r) => r.kind === 'RESOURCE').map((r) => r.targetId);
  const [roadmapRows, sectionRows, resourceRows] = await Promise.all([
    roadmapIds.length
      ? db
          .select({ id: roadmaps.id, name: roadmaps.name })
          .from(roadmaps)
          .where(inArray(roadmaps.id, roadmapIds))
      : [],
    sectionIds.length
      ? db
          .select({ id: sections.id, roadmapId: roadmaps.id, roadmapName: roadmaps.name })
          .from(sections)
          .innerJoin(roadmaps, eq(roadmaps.id, sections.roadmapId))
          .where(inArray(sections.id, sectionIds))
      : [],
    resourceIds.length
      ? db
          .select({
            id: resources.id,
            actualTitle: resources.actualTitle,
            roadmapId: sql<string | null>`min(${roadmaps.id}::text)`,
            roadmapName: sql<string | null>`min(${roadmaps.name})`,
          })
          .from(resources)
          .leftJoin(sectionResources, eq(sectionResources.resourceId, resources.id))
          .leftJoin(sections, eq(sections.id, sectionResources.sectionId))
          .leftJoin(roadmaps, eq(roadmaps.id, sections.roadmapId))
          .where(inArray(resources.id, resourceIds))
          .groupBy(resources.id, resources.actualTitle)
      : [],
  ]);
  const out = new Map<
    string,
    {
      roadmap: { id: string; name: string } | null;
      resources: { _id: string; actualTitle: string; roadmapId: string | null; roadmapName: string | null }[];
    }
  >();
  for (const r of rows) {
    const entry = out.get(r.questionId) ?? { roadmap: null, resources: [] };
    if (r.kind === 'ROADMAP') {
      const rm = roadmapRows.find((x) => x.id === r.targetId);
      if (rm) entry.roadmap ??= rm;
    } else if (r.kind === 'SECTION') {
      const s = sectionRows.find((x) => x.id === r.targetId);
      if (s) entry.roadmap ??= { id: s.roadmapId, name: s.roadmapName };
    } else {
      const res = resourceRows.find((x) => x.id === r.targetId);
      if (res) {
        entry.resources.push({
          _id: res.id,
          actualTitle: res.actualTitle,
          roadmapId: res.roadmapId,
          roadmapName: res.roadmapName,
        });
        if (res.roadmapId && res.roadmapName) entry.roadmap ??= { id: res.roadmapId, name: res.roadmapName };
      }
    }
    out.set(r.questionId, entry);
  }
  return out;
}

/**
 * The language a new question of this author starts in: that of the question they saved last, else
 * English, else the first language there is (an author changes it in the editor).
 */
export async function defaultLanguageFor(db: Db, userId: string): Promise<string> {
  const [last] = await db
    .select({ id: questions.languageId })
    .from(questions)
    .where(and(eq(questions.createdBy, userId), eq(questions.status, 'PUBLISH')))
    .orderBy(desc(questions.updatedAt))
    .limit(1);
  if (last) return last.id;
  const [english] = await db
    .select({ id: languages.id })
    .from(languages)
    .orderBy(sql`${languages.name} <> 'English'`, asc(languages.name))
    .limit(1);
  if (english) return english.id;
  const [made] = await db
    .insert(languages)
    .values({ name: 'English' })
    .onConflictDoUpdate({ target: languages.name, set: { name: 'English' } })
    .returning({ id: languages.id });
  return made!.id;
}

export async function loadQuestion(db: Db, id: string, counts: QuestionCounts): Promise<Question | null> {
  const [q] = await loadQuestions(db, [id], counts);
  return q ?? null;
}
