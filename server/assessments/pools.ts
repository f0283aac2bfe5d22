/**
 * The pools learners' tests draw from, measured for authors (issue 8, item 7; decision 010): a resource,
 * section or final test draws from the published questions that assess it, a subject test from the
 * subject's. A pool smaller than twice a test's draw cannot give a retake questions the learner has not
 * seen; the builder shows such pools for the questions of an assessment. Sizes come from the same candidate
 * queries the draw uses, so the report cannot drift from what a learner gets.
 */
import type { QuestionPool } from '@shared/contract/authoring';
import { eq, inArray } from 'drizzle-orm';
import { resources, roadmaps, sectionResources, sections } from '../catalogue/tables';
import type { Db } from '../db/client';
import { subjects } from '../db/schema';
import { QUESTION_COUNTS, questionsOfSubject, questionsTargeting, resourcesOfSections } from './engine';
import { questions, questionTargets } from './tables';

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
 * The pools these questions belong to: the subject test of each question's subject, and the resource,
 * section or final test each question assesses directly. The smallest (least able to give fresh retakes)
 * first.
 */
export async function poolsOfQuestions(db: Db, questionIds: readonly string[]): Promise<Pool[]> {
  if (questionIds.length === 0) return [];
  const ids = [...new Set(questionIds)];
  const [own, targets] = await Promise.all([
    db.selectDistinct({ subjectId: questions.subjectId }).from(questions).where(inArray(questions.id, ids)),
    db
      .selectDistinct({ kind: questionTargets.kind, targetId: questionTargets.targetId })
      .from(questionTargets)
      .where(inArray(questionTargets.questionId, ids)),
  ]);
  const out: Pool[] = [];

  const subjectIds = own.map((o) => o.subjectId).filter((id): id is string => Boolean(id));
  if (subjectIds.length) {
    const names = await db
      .select({ id: subjects.id, name: subjects.name })
      .from(subjects)
      .where(inArray(subjects.id, subjectIds));
    for (const s of names) {
      const size = (await questionsOfSubject(db, s.id)).length;
      out.push(
        measured({ kind: 'SUBJECT', id: s.id, name: s.name, context: null }, size, QUESTION_COUNTS.SUBJECT!),
      );
    }
  }

  for (const t of targets) {
    if (t.kind === 'RESOURCE') {
      const [r] = await db
        .select({ title: resources.actualTitle, roadmap: roadmaps.name })
        .from(resources)
        .leftJoin(sectionResources, eq(sectionResources.resourceId, resources.id))
        .leftJoin(sections, eq(sections.id, sectionResources.sectionId))
        .leftJoin(roadmaps, eq(roadmaps.id, sections.roadmapId))
        .where(eq(resources.id, t.targetId))
        .limit(1);
      if (!r) continue;
      const size = (await questionsTargeting(db, { resources: [t.targetId] })).length;
      out.push(
        measured(
          { kind: 'RESOURCE', id: t.targetId, name: r.title, context: r.roadmap ?? null },
          size,
          QUESTION_COUNTS.RESOURCE!,
        ),
      );
    } else if (t.kind === 'SECTION') {
      const [s] = await db
        .select({ name: sections.name, roadmap: roadmaps.name })
        .from(sections)
        .innerJoin(roadmaps, eq(roadmaps.id, sections.roadmapId))
        .where(eq(sections.id, t.targetId))
        .limit(1);
      if (!s) continue;
      const size = (
        await questionsTargeting(db, {
          sections: [t.targetId],
          resources: await resourcesOfSections(db, [t.targetId]),
        })
      ).length;
      out.push(
        measured(
          { kind: 'SECTION', id: t.targetId, name: s.name, context: s.roadmap },
          size,
          QUESTION_COUNTS.SECTION!,
        ),
      );
    } else {
      const [rm] = await db
        .select({ name: roadmaps.name })
        .from(roadmaps)
        .where(eq(roadmaps.id, t.targetId))
        .limit(1);
      if (!rm) continue;
      const sectionIds = (
        await db.select({ id: sections.id }).from(sections).where(eq(sections.roadmapId, t.targetId))
      ).map((x) => x.id);
      const size = (
        await questionsTargeting(db, {
          roadmaps: [t.targetId],
          sections: sectionIds,
          resources: await resourcesOfSections(db, sectionIds),
        })
      ).length;
      out.push(
        measured(
          { kind: 'ROADMAP', id: t.targetId, name: rm.name, context: null },
          size,
          QUESTION_COUNTS.ROADMAP!,
        ),
      );
    }
  }
  return out.sort(
    (a, b) =>
      Number(a.freshRetake) - Number(b.freshRetake) || b.missing - a.missing || a.name.localeCompare(b.name),
  );
}
