/**
 * What the authoring routes share (questions.ts, assessments.ts, import.ts): who may read or change a
 * question, a tenant's own assessment, and a question's place at the end of an assessment.
 */
import type { Question } from '@shared/schemas/assessment';
import { and, asc, eq, sql } from 'drizzle-orm';
import { newLinkId, shuffle } from '../assessments/engine/drawing';
import { testLinkQuestions, testLinks } from '../assessments/tables';
import type { Db } from '../db/client';
import { forbidden, notFound } from '../http/errors';
import type { Caller } from '../http/routes';
import { loadQuestion, type QuestionCounts } from '../questions/load';
import { questions } from '../questions/tables';
import { tenantAssessmentQuestions, tenantAssessments } from './tables';

/** The question, if the caller may read it: their own, or a published one. */
export async function readableQuestion(
  db: Db,
  id: string,
  caller: Caller,
  counts: QuestionCounts,
): Promise<Question> {
  const q = await loadQuestion(db, id, counts);
  if (!q || (q.status !== 'PUBLISH' && q.createdBy?._id !== caller.id)) throw notFound('Question not found');
  return q;
}

/** The question's row, if the caller created it. */
export async function ownedQuestion(db: Db, id: string, caller: Caller) {
  const [row] = await db.select().from(questions).where(eq(questions.id, id)).limit(1);
  if (!row) throw notFound('Question not found');
  if (row.createdBy !== caller.id) throw forbidden('Only the creator of a question can change it.');
  return row;
}

/** The tenant's own assessment; anyone else's is as good as missing. */
export async function ownedAssessment(db: Db, id: string, caller: Caller) {
  const [row] = await db.select().from(tenantAssessments).where(eq(tenantAssessments.id, id)).limit(1);
  if (!row || row.tenantId !== caller.id) throw notFound('Assessment not found');
  return row;
}

/**
 * The questions of an assessment: published ones only, in order. The builder, the list's count, sharing, the
 * pools and the statistics all read this, so the share dialog and the server count the same questions
 * (decision 010).
 */
export async function publishedQuestionIds(db: Db, assessmentId: string): Promise<string[]> {
  const rows = await db
    .select({ id: tenantAssessmentQuestions.questionId })
    .from(tenantAssessmentQuestions)
    .innerJoin(questions, eq(questions.id, tenantAssessmentQuestions.questionId))
    .where(and(eq(tenantAssessmentQuestions.assessmentId, assessmentId), eq(questions.status, 'PUBLISH')))
    .orderBy(asc(tenantAssessmentQuestions.position), asc(tenantAssessmentQuestions.addedAt));
  return rows.map((r) => r.id);
}

/**
 * Custom tests of an assessment, one per learner, with its questions frozen in order and each taker's option
 * order shuffled: the window opens at `start` for `durationHours`, and a started test has `timeLimitMinutes`.
 * Sharing makes them; so does a certificate's renewal (server/renewals). One insert for the links, one for
 * their questions.
 */
export async function createCustomLinks(
  tx: Db,
  spec: {
    assessment: { id: string; name: string };
    questions: readonly { id: string; optionIds: readonly string[] }[];
    learnerIds: readonly string[];
    start: Date;
    durationHours: number;
    timeLimitMinutes: number;
  },
): Promise<{ userId: string; linkId: string; id: string }[]> {
  if (spec.learnerIds.length === 0) return [];
  const end = new Date(spec.start.getTime() + spec.durationHours * 3600_000);
  const links = await tx
    .insert(testLinks)
    .values(
      spec.learnerIds.map((userId) => ({
        linkId: newLinkId(),
        type: 'CUSTOM-TEST' as const,
        userId,
        tenantAssessmentId: spec.assessment.id,
        assignedSubjectName: spec.assessment.name,
        questionCount: spec.questions.length,
        timeLimitMinutes: spec.timeLimitMinutes,
        startTime: spec.start,
        durationHours: spec.durationHours,
        expiresAt: end,
      })),
    )
    .returning({ id: testLinks.id, linkId: testLinks.linkId, userId: testLinks.userId });
  await tx.insert(testLinkQuestions).values(
    links.flatMap((link) =>
      spec.questions.map((q, position) => ({
        testLinkId: link.id,
        questionId: q.id,
        position,
        optionOrder: shuffle([...q.optionIds]),
      })),
    ),
  );
  return links.map((l) => ({ userId: l.userId!, linkId: l.linkId, id: l.id }));
}

/**
 * Adds a question after the last one of an assessment (positions are not renumbered on removal, so not the
 * count); a question already in it stays where it is.
 */
export async function appendToAssessment(tx: Db, assessmentId: string, questionId: string): Promise<boolean> {
  const added = await tx
    .insert(tenantAssessmentQuestions)
    .values({
      assessmentId,
      questionId,
      position: sql`(select coalesce(max(${tenantAssessmentQuestions.position}) + 1, 0) from ${tenantAssessmentQuestions} where ${tenantAssessmentQuestions.assessmentId} = ${assessmentId})`,
    })
    .onConflictDoNothing()
    .returning({ id: tenantAssessmentQuestions.questionId });
  // false: the question was in the assessment already
  return added.length > 0;
}
