/**
 * Demo assessments, so /assesments and the award pages are alive on first start: the demo learner gets an
 * assigned roadmap (the catalogue's, when the learner has none) with a few completed test links — an earned
 * feather, a section test without enough marks, a subject certificate — and one link still to take.
 * Safe to run again: nothing is added once the learner has test links.
 */

import { newAttemptToken } from '@shared/rules/attempt-token';
import { isMultiAnswer, isTextAnswer } from '@shared/rules/question-types';
import { and, asc, count, desc, eq, sql } from 'drizzle-orm';
import { linkHooks } from '../assessments/completion';
import { answerKey, type KeyQuestion } from '../assessments/engine/answers';
import { attemptTokenHash } from '../assessments/engine/attempt';
import { questionsOfSubject, questionsTargeting, resourcesOfSections } from '../assessments/engine/drawing';
import { evaluateLink } from '../assessments/engine/evaluation';
import { startLink } from '../assessments/engine/start';
import { createTestLink } from '../assessments/links';
import { ownAssignedRoadmaps, sectionsOfAssigned } from '../assessments/queries';
import { type LinkRow, testLinks } from '../assessments/tables';
import {
  assignedRoadmaps,
  assignedSections,
  resources,
  roadmaps,
  sectionResources,
  sections,
} from '../catalogue/tables';
import type { Db } from '../db/client';
import { users } from '../db/schema';

const DAY = 86400_000;

type Given = { questionId: string; answerId?: string | string[]; answer?: string };

function answerFor(q: KeyQuestion, right: boolean): Given {
  const correct = q.options.filter((o) => o.isCorrect);
  const wrong = q.options.filter((o) => !o.isCorrect);
  if (isTextAnswer(q.type)) {
    return { questionId: q.id, answer: right ? (correct[0]?.value ?? '') : 'not sure' };
  }
  if (isMultiAnswer(q.type)) {
    return {
      questionId: q.id,
      answerId: right ? correct.map((o) => o.id) : wrong.slice(0, 1).map((o) => o.id),
    };
  }
  const pick = right ? correct[0] : (wrong[0] ?? correct[0]);
  return { questionId: q.id, answerId: pick?.id ?? '' };
}

/** Takes a link as of `at`: started, answered (this share of the questions right), evaluated. */
async function takeAt(db: Db, link: LinkRow, at: Date, rightShare: number, minutes: number) {
  // taken here, by no browser: the attempt's token is one nobody holds
  const started = await startLink(db, link, at, attemptTokenHash(link.linkId, newAttemptToken())!);
  const key = await answerKey(db, started.id);
  const rightCount = Math.floor(key.length * rightShare);
  const given = key.map((q, i) => answerFor(q, i < rightCount)).filter((a) => a.answerId !== '');
  // finished within the time limit, or the answers would count as late
  const taken = Math.min(minutes, started.timeLimitMinutes - 1);
  await evaluateLink(db, started, given, new Date(at.getTime() + taken * 60_000), linkHooks);
}

/** A roadmap of the catalogue with questions at every level, assigned to the learner. */
async function demoRoadmap(db: Db, userId: string) {
  const mine = await ownAssignedRoadmaps(db, userId);
  if (mine.length) return mine.find((r) => r.status === 'ONGOING') ?? mine[0]!;
  const candidates = await db
    .select({ id: roadmaps.id, sectionCount: count(sections.id) })
    .from(roadmaps)
    .innerJoin(sections, eq(sections.roadmapId, roadmaps.id))
    .where(eq(roadmaps.isPublished, true))
    .groupBy(roadmaps.id)
    .orderBy(desc(count(sections.id)), asc(roadmaps.name));
  for (const c of candidates) {
    const [{ languageId } = { languageId: '' }] = await db
      .select({ languageId: roadmaps.languageId })
      .from(roadmaps)
      .where(eq(roadmaps.id, c.id));
    const sectionRows = await db
      .select({ id: sections.id })
      .from(sections)
      .where(eq(sections.roadmapId, c.id))
      .orderBy(asc(sections.position));
    const sectionIds = sectionRows.map((s) => s.id);
    const bank = await questionsTargeting(
      db,
      { roadmaps: [c.id], sections: sectionIds, resources: await resourcesOfSections(db, sectionIds) },
      languageId,
    );
    if (bank.length < 5) continue;
    const [ar] = await db
      .insert(assignedRoadmaps)
      .values({
        userId,
        roadmapId: c.id,
        status: 'ONGOING',
        source: 'SELF',
        createdAt: new Date(Date.now() - 14 * DAY),
      })
      .onConflictDoNothing()
      .returning({ id: assignedRoadmaps.id });
    if (!ar) continue;
    await db
      .insert(assignedSections)
      .values(sectionRows.map((s, position) => ({ assignedRoadmapId: ar.id, sectionId: s.id, position })))
      .onConflictDoNothing();
    return (await ownAssignedRoadmaps(db, userId)).find((r) => r.id === ar.id)!;
  }
  return null;
}

export async function seedDemoAssessments(
  db: Db,
  opts: { email?: string; log?: (m: string) => void } = {},
): Promise<{ links: number }> {
  const log = opts.log ?? (() => {});
  const email = opts.email ?? 'learner@waymark.local';
  const [learner] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
    .limit(1);
  if (!learner) return { links: 0 };
  const [{ n } = { n: 0 }] = await db
    .select({ n: count() })
    .from(testLinks)
    .where(eq(testLinks.userId, learner.id));
  if (Number(n) > 0) return { links: 0 };
  const ar = await demoRoadmap(db, learner.id);
  if (!ar) {
    log('demo assessments skipped: no roadmap with questions yet');
    return { links: 0 };
  }
  const sectionList = await sectionsOfAssigned(db, ar);
  const now = Date.now();
  let links = 0;

  // an earned feather: the first resource with questions, all right
  let featherDone = false;
  let openResource: { section: { id: string }; id: string } | null = null;
  for (const section of sectionList) {
    const inSection = await db
      .select({ id: resources.id, title: resources.actualTitle })
      .from(sectionResources)
      .innerJoin(resources, eq(resources.id, sectionResources.resourceId))
      .where(eq(sectionResources.sectionId, section.id))
      .orderBy(asc(sectionResources.position));
    for (const r of inSection) {
      const candidates = await questionsTargeting(db, { resources: [r.id] }, ar.languageId);
      if (candidates.length === 0) continue;
      if (!featherDone) {
        const at = new Date(now - 9 * DAY);
        const link = await createTestLink(
          db,
          learner.id,
          { type: 'RESOURCE', assignedRoadmapId: ar.id, sectionId: section.id, resourceId: r.id },
          at,
        );
        await takeAt(db, link, new Date(at.getTime() + 3600_000), 1, 4);
        featherDone = true;
        links++;
      } else if (!openResource) {
        openResource = { section, id: r.id };
      }
    }
  }

  // a section test without enough marks
  const section = sectionList[sectionList.length > 1 ? 1 : 0];
  if (section) {
    const candidates = await questionsTargeting(
      db,
      { sections: [section.id], resources: await resourcesOfSections(db, [section.id]) },
      ar.languageId,
    );
    if (candidates.length) {
      const at = new Date(now - 5 * DAY);
      const link = await createTestLink(
        db,
        learner.id,
        { type: 'SECTION', assignedRoadmapId: ar.id, sectionId: section.id },
        at,
      );
      await takeAt(db, link, new Date(at.getTime() + 1800_000), 0.3, 8);
      links++;
    }
  }

  // a subject certificate (the roadmap's subject), leaving the roadmap itself ongoing
  const subjectBank = await questionsOfSubject(db, ar.subjectId, ar.languageId);
  if (subjectBank.length) {
    const at = new Date(now - 2 * DAY);
    const link = await createTestLink(
      db,
      learner.id,
      { type: 'SUBJECT', subject: ar.subjectId, lookingForJob: 'IN FUTURE' },
      at,
    );
    await takeAt(db, link, new Date(at.getTime() + 600_000), 0.85, Math.min(15, link.questionCount));
    links++;
  }

  // one still to take
  if (openResource) {
    await createTestLink(
      db,
      learner.id,
      {
        type: 'RESOURCE',
        assignedRoadmapId: ar.id,
        sectionId: openResource.section.id,
        resourceId: openResource.id,
      },
      new Date(now - 3600_000),
    );
    links++;
  }
  const earned = await db
    .select({ linkId: testLinks.linkId, type: testLinks.type, status: testLinks.status })
    .from(testLinks)
    .where(and(eq(testLinks.userId, learner.id), eq(testLinks.isCompleted, true)));
  log(
    `seeded ${links} demo test links for ${email} (${earned.map((e) => `${e.type} ${e.status}`).join(', ')})`,
  );
  return { links };
}
