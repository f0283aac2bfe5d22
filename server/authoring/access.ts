/**
 * What the authoring routes share (questions.ts, assessments.ts, import.ts): who may read or change a
 * question, a tenant's own assessment, and a question's place at the end of an assessment.
 */
import type { Question } from '@shared/schemas/assessment';
import { eq, sql } from 'drizzle-orm';
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
