/**
 * The pools learners' tests draw from, measured for authors (decision 010): a resource,
 * section or final test draws from the published questions that assess it, a subject test from the
 * subject's — each in one language. A pool smaller than twice a test's draw cannot give a retake questions the learner has not
 * seen; the builder shows such pools for the questions of an assessment. Sizes come from the same candidate
 * queries the draw uses, so the report cannot drift from what a learner gets.
 */
import type { QuestionPool } from '@shared/contract/authoring';
import { eq, inArray } from 'drizzle-orm';
import { resources, roadmaps, sectionResources, sections } from '../catalogue/tables';
import type { Db } from '../db/client';
import { languages, subjects } from '../db/schema';
import { questions, questionTargets } from '../questions/tables';
import {
  QUESTION_COUNTS,
  questionsOfSubject,
  questionsTargeting,
  resourcesOfSections,
} from './engine/drawing';

type Pool = QuestionPool;

/** What a pool needs so that a retake can be drawn entirely from questions not seen in the attempt before. */
export const freshRetakeSize = (draw: number) => 2 * draw;

function measured(
  base: Omit<Pool, 'questionCount' | 'drawCount' | 'freshRetake' | 'missing'>,
  size: number,
  draw: number,
): Pool {
  const needed = freshRetakeSize(draw);
  return {
    ...base,
    questionCount: size,
    drawCount: draw,
    freshRetake: size >= needed,
    missing: Math.max(0, needed - size),
  };
}

/**
 * The pool of a test a question assesses directly, by the kind of its target: the target's name and where it
 * sits, and how many questions in the language the test draws from (its candidates, as the draw reads them);
 * null for a target gone.
 */
const TARGET_POOLS: Record<
  'RESOURCE' | 'SECTION' | 'ROADMAP',
  (
    db: Db,
    id: string,
    languageId: string,
  ) => Promise<{ name: string; context: string | null; size: number } | null>
> = {
  async RESOURCE(db, id, languageId) {
    const [r] = await db
      .select({ title: resources.actualTitle, roadmap: roadmaps.name })
      .from(resources)
      .leftJoin(sectionResources, eq(sectionResources.resourceId, resources.id))
      .leftJoin(sections, eq(sections.id, sectionResources.sectionId))
      .leftJoin(roadmaps, eq(roadmaps.id, sections.roadmapId))
      .where(eq(resources.id, id))
      .limit(1);
    if (!r) return null;
    const size = (await questionsTargeting(db, { resources: [id] }, languageId)).length;
    return { name: r.title, context: r.roadmap ?? null, size };
  },
  async SECTION(db, id, languageId) {
    const [s] = await db
      .select({ name: sections.name, roadmap: roadmaps.name })
      .from(sections)
      .innerJoin(roadmaps, eq(roadmaps.id, sections.roadmapId))
      .where(eq(sections.id, id))
      .limit(1);
    if (!s) return null;
    const targets = { sections: [id], resources: await resourcesOfSections(db, [id]) };
    return {
      name: s.name,
      context: s.roadmap,
      size: (await questionsTargeting(db, targets, languageId)).length,
    };
  },
  async ROADMAP(db, id, languageId) {
    const [rm] = await db.select({ name: roadmaps.name }).from(roadmaps).where(eq(roadmaps.id, id)).limit(1);
    if (!rm) return null;
    const sectionIds = (
      await db.select({ id: sections.id }).from(sections).where(eq(sections.roadmapId, id))
    ).map((x) => x.id);
    const targets = {
      roadmaps: [id],
      sections: sectionIds,
      resources: await resourcesOfSections(db, sectionIds),
    };
    return { name: rm.name, context: null, size: (await questionsTargeting(db, targets, languageId)).length };
  },
};

/**
 * The pools these questions belong to: the subject test of each question's subject in its language, and the
 * resource, section or final test each question assesses directly (in that test's language, the question's).
 * The smallest (least able to give fresh retakes) first.
 */
export async function poolsOfQuestions(db: Db, questionIds: readonly string[]): Promise<Pool[]> {
  if (questionIds.length === 0) return [];
  const ids = [...new Set(questionIds)];
  const [own, targets] = await Promise.all([
    db
      .selectDistinct({ subjectId: questions.subjectId, languageId: questions.languageId })
      .from(questions)
      .where(inArray(questions.id, ids)),
    db
      .selectDistinct({
        kind: questionTargets.kind,
        targetId: questionTargets.targetId,
        languageId: questions.languageId,
      })
      .from(questionTargets)
      .innerJoin(questions, eq(questions.id, questionTargets.questionId))
      .where(inArray(questionTargets.questionId, ids)),
  ]);
  const languageIds = [...new Set([...own, ...targets].map((r) => r.languageId))];
  const languageName = new Map(
    (
      await db
        .select({ id: languages.id, name: languages.name })
        .from(languages)
        .where(inArray(languages.id, languageIds))
    ).map((l) => [l.id, l.name]),
  );
  const out: Pool[] = [];

  const subjectIds = [...new Set(own.map((o) => o.subjectId).filter((id): id is string => Boolean(id)))];
  const subjectName = new Map(
    subjectIds.length
      ? (
          await db
            .select({ id: subjects.id, name: subjects.name })
            .from(subjects)
            .where(inArray(subjects.id, subjectIds))
        ).map((s) => [s.id, s.name])
      : [],
  );
  for (const o of own) {
    if (!o.subjectId || !subjectName.has(o.subjectId)) continue;
    const size = (await questionsOfSubject(db, o.subjectId, o.languageId)).length;
    out.push(
      measured(
        {
          kind: 'SUBJECT',
          id: o.subjectId,
          name: subjectName.get(o.subjectId)!,
          context: null,
          language: languageName.get(o.languageId) ?? '',
        },
        size,
        QUESTION_COUNTS.SUBJECT!,
      ),
    );
  }

  for (const t of targets) {
    const pool = await TARGET_POOLS[t.kind](db, t.targetId, t.languageId);
    if (!pool) continue;
    out.push(
      measured(
        {
          kind: t.kind,
          id: t.targetId,
          name: pool.name,
          context: pool.context,
          language: languageName.get(t.languageId) ?? '',
        },
        pool.size,
        QUESTION_COUNTS[t.kind]!,
      ),
    );
  }
  return out.sort(
    (a, b) =>
      Number(a.freshRetake) - Number(b.freshRetake) || b.missing - a.missing || a.name.localeCompare(b.name),
  );
}
