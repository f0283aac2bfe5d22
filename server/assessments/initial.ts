/**
 * The prerequisite (initial) assessment (mentor §2.11, §4; decision 011): questions drawn from each
 * prerequisite roadmap of the selected one, taken with or without signing in, scored on the server with
 * the shared rules, and turned into the learner's roadmap — the sections of every prerequisite scored
 * below 60 % first, then the roadmap's own. The engine of the test links does the drawing, freezing,
 * the taker's view and the scoring (server/assessments/engine/: drawing, view, answers, evaluation); the
 * learner's roadmap is the catalogue's (server/catalogue/learning.ts).
 */

import { passesPrerequisite, percentageOf, summarise } from '@shared/rules/scoring';
import type { Answer, TakerQuestion } from '@shared/schemas/assessment';
import { and, desc, eq } from 'drizzle-orm';
import {
  type AssignedSummary,
  existingOrRoom,
  insertAssigned,
  requireRoadmap,
  summaryOf,
  toSummary,
} from '../catalogue/learning';
import { prerequisitesOf, sectionIdsOf } from '../catalogue/queries';
import { assignedRoadmaps, roadmaps } from '../catalogue/tables';
import type { Db } from '../db/client';
import { inTx } from '../db/helpers';
import { badRequest, forbidden, notFound } from '../http/errors';
import type { Caller } from '../http/routes';
import { answerKey, savedAnswers } from './engine/answers';
import {
  drawQuestions,
  freezeQuestions,
  newLinkId,
  type Pool,
  questionsTargeting,
  recentlySeen,
  resourcesOfSections,
  takerQuestions,
} from './engine/drawing';
import { evaluateLink } from './engine/evaluation';
import { findLink } from './engine/link-life';
import { timeLimitFor } from './engine/rules';
import { type LinkRow, testLinks } from './tables';

/** Questions drawn per prerequisite roadmap (fewer when its bank has fewer). */
export const QUESTIONS_PER_PREREQUISITE = 5;

export const INITIAL_MESSAGES = {
  noPrerequisites: 'This roadmap has no prerequisites: you can assign it directly.',
  noQuestions: 'There are no questions for the prerequisites of this roadmap yet. Please try again later.',
  notFound: 'Assessment not found',
  notYours: 'This assessment belongs to another person.',
  learnersOnly: 'Only learners can take the prerequisite assessment.',
} as const;

type MaybeCaller = Caller | null;

function refuseTenant(caller: MaybeCaller) {
  if (caller && caller.user.role !== 'USER') throw forbidden(INITIAL_MESSAGES.learnersOnly);
}

/** A signed-in person's assessment is theirs only; an anonymous one belongs to whoever holds the link id. */
function assertHolder(link: Pick<LinkRow, 'userId'>, caller: MaybeCaller) {
  if (link.userId && caller?.id !== link.userId) throw forbidden(INITIAL_MESSAGES.notYours);
}

async function initialLink(db: Db, linkId: string): Promise<LinkRow> {
  const link = await findLink(db, linkId);
  if (link?.type !== 'INITIAL-ASSESSMENT' || !link.roadmapId) throw notFound(INITIAL_MESSAGES.notFound);
  return link;
}

/** Published questions in this language aimed at a roadmap, its sections or their resources. */
async function bankOf(db: Db, roadmapId: string, languageId: string): Promise<string[]> {
  const sectionIds = await sectionIdsOf(db, roadmapId);
  return questionsTargeting(
    db,
    { roadmaps: [roadmapId], sections: sectionIds, resources: await resourcesOfSections(db, sectionIds) },
    languageId,
  );
}

/** Draws the assessment and creates its link; returns the link id. */
export async function generateInitialAssessment(
  db: Db,
  roadmapId: string,
  caller: MaybeCaller,
): Promise<string> {
  refuseTenant(caller);
  const roadmap = await requireRoadmap(db, roadmapId);
  const prerequisites = await prerequisitesOf(db, [roadmapId]);
  if (prerequisites.length === 0) throw badRequest(INITIAL_MESSAGES.noPrerequisites, 'id');
  const pools: Pool[] = [];
  for (const p of prerequisites) {
    pools.push({
      // in the language of the roadmap being chosen: the assessment never mixes languages
      candidates: await bankOf(db, p.prerequisiteId, roadmap.languageId),
      count: QUESTIONS_PER_PREREQUISITE,
      roadmapId: p.prerequisiteId,
    });
  }
  const seen = caller
    ? await recentlySeen(
        db,
        caller.id,
        pools.flatMap((p) => p.candidates),
      )
    : new Map<string, number>();
  const drawn = await drawQuestions(db, pools, seen);
  if (drawn.length === 0) throw badRequest(INITIAL_MESSAGES.noQuestions, 'id');
  return inTx(db, async (tx) => {
    const [link] = await tx
      .insert(testLinks)
      .values({
        linkId: newLinkId(),
        type: 'INITIAL-ASSESSMENT',
        userId: caller?.id ?? null,
        subjectId: roadmap.subjectId,
        roadmapId,
        assignedRoadMapName: roadmap.name,
        questionCount: drawn.length,
        timeLimitMinutes: timeLimitFor(drawn.length),
      })
      .returning();
    await freezeQuestions(tx, link!.id, drawn);
    return link!.linkId;
  });
}

export interface InitialAssessmentView {
  linkId: string;
  roadmapId: string;
  roadmapName: string;
  questions: TakerQuestion[];
  answers: Answer[];
  isCompleted: boolean;
}

/** The questions without any correctness data, with the answers saved so far (without their points). */
export async function readInitialAssessment(
  db: Db,
  linkId: string,
  caller: MaybeCaller,
): Promise<InitialAssessmentView> {
  const link = await initialLink(db, linkId);
  assertHolder(link, caller);
  const [questions, answers] = await Promise.all([takerQuestions(db, link.id), savedAnswers(db, link.id)]);
  return {
    linkId: link.linkId,
    roadmapId: link.roadmapId!,
    roadmapName: link.assignedRoadMapName ?? '',
    questions,
    answers: answers.map(({ points: _p, ...a }) => a),
    isCompleted: link.isCompleted,
  };
}

export interface PrerequisiteScore {
  roadmapId: string;
  roadmapName: string;
  percentage: number;
}

type Given = Answer & { roadmapId: string };

/** The percentage of each prerequisite that had questions, in the prerequisites' order. */
function scoresByPrerequisite(
  prerequisites: { prerequisiteId: string; name: string }[],
  perQuestion: { roadmapId: string | null; points: number }[],
): PrerequisiteScore[] {
  return prerequisites.flatMap((p) => {
    const points = perQuestion.filter((q) => q.roadmapId === p.prerequisiteId).map((q) => q.points);
    if (points.length === 0) return [];
    const { score } = summarise(points);
    return [
      { roadmapId: p.prerequisiteId, roadmapName: p.name, percentage: percentageOf(score, points.length) },
    ];
  });
}

/** Each given answer must be to a question of this assessment and name the prerequisite it tests. */
async function checkGiven(db: Db, link: LinkRow, given: readonly Given[]) {
  const key = new Map((await answerKey(db, link.id)).map((q) => [q.id, q]));
  given.forEach((a, i) => {
    const q = key.get(a.questionId);
    if (!q)
      throw badRequest(
        `answers.${i}.questionId: is not a question of this assessment`,
        `answers.${i}.questionId`,
      );
    if (q.roadmapId && a.roadmapId !== q.roadmapId) {
      throw badRequest(
        `answers.${i}.roadmapId: is not the prerequisite this question tests`,
        `answers.${i}.roadmapId`,
      );
    }
  });
}

/**
 * Scores the assessment and creates the learner's roadmap (unclaimed before sign-in). Evaluating again
 * gives the same result and never a second roadmap.
 */
export async function evaluateInitialAssessment(
  db: Db,
  body: { linkId: string; answers: Given[] },
  caller: MaybeCaller,
  now: Date,
): Promise<AssignedSummary & { prerequisiteScores: PrerequisiteScore[] }> {
  refuseTenant(caller);
  const link = await initialLink(db, body.linkId);
  assertHolder(link, caller);
  const roadmapId = link.roadmapId!;
  const prerequisites = await prerequisitesOf(db, [roadmapId]);
  if (!link.isCompleted) await checkGiven(db, link, body.answers);

  return inTx(db, async (tx) => {
    const [current] = await tx.select().from(testLinks).where(eq(testLinks.id, link.id)).for('update');
    if (!current) throw notFound(INITIAL_MESSAGES.notFound);
    const owner = current.userId ?? caller?.id ?? null;

    if (current.isCompleted && current.assignedRoadmapId) {
      const [row] = await tx
        .select()
        .from(assignedRoadmaps)
        .where(eq(assignedRoadmaps.id, current.assignedRoadmapId));
      if (row) {
        const { scored } = await evaluateLink(tx, current, [], now);
        return {
          ...(await summaryOf(tx, row)),
          prerequisiteScores: scoresByPrerequisite(prerequisites, scored.perQuestion),
        };
      }
    }

    // a learner who has this roadmap already keeps it; one with two ongoing is refused before anything is written
    const existing = owner ? await existingOrRoom(tx, owner, roadmapId) : null;
    const { scored } = await evaluateLink(tx, current, body.answers, now);
    const prerequisiteScores = scoresByPrerequisite(prerequisites, scored.perQuestion);

    let row = existing;
    if (!row) {
      const weak = prerequisites.filter((p) => {
        const s = prerequisiteScores.find((x) => x.roadmapId === p.prerequisiteId);
        return s !== undefined && !passesPrerequisite(s.percentage);
      });
      const sectionIds: string[] = [];
      for (const p of weak) sectionIds.push(...(await sectionIdsOf(tx, p.prerequisiteId)));
      sectionIds.push(...(await sectionIdsOf(tx, roadmapId)));
      row = await insertAssigned(tx, {
        userId: owner,
        roadmapId,
        source: 'INITIAL_ASSESSMENT',
        sectionIds,
        prerequisites: 'ASSESSED',
        now,
      });
    }
    await tx
      .update(testLinks)
      .set({ assignedRoadmapId: row.id, userId: owner })
      .where(eq(testLinks.id, current.id));
    const [name] = await tx.select({ name: roadmaps.name }).from(roadmaps).where(eq(roadmaps.id, roadmapId));
    return { ...toSummary(row, name?.name ?? ''), prerequisiteScores };
  });
}

/**
 * The result of the prerequisite assessment that made an assigned roadmap (its percentage per
 * prerequisite), or null when the roadmap did not come from one (or it is not evaluated).
 */
export async function prerequisiteResultsOf(
  db: Db,
  assigned: { id: string; roadmapId: string },
  now: Date,
): Promise<PrerequisiteScore[] | null> {
  const [link] = await db
    .select()
    .from(testLinks)
    .where(
      and(
        eq(testLinks.assignedRoadmapId, assigned.id),
        eq(testLinks.type, 'INITIAL-ASSESSMENT'),
        eq(testLinks.isCompleted, true),
      ),
    )
    .orderBy(desc(testLinks.createdAt))
    .limit(1);
  if (!link) return null;
  const { scored } = await evaluateLink(db, link, [], now);
  return scoresByPrerequisite(await prerequisitesOf(db, [assigned.roadmapId]), scored.perQuestion);
}
