/**
 * The instructor's view of a course (decision 045): an Instructor, TeachingAssistant or Administrator launch
 * opens, inside the LMS's frame, the course's learners as the mentor sees them — their tests of the tenant's
 * assessments, scores and awards. Limited to that launch's tenant and course: the learners a launch from
 * that course (or its member sync) linked, whose identity the tenant's platform vouches for. The launch's
 * token (X-LTI-Launch, 2 hours) is the only key; no Waymark account is signed in.
 */
import { and, asc, eq, gt, inArray } from 'drizzle-orm';
import { testLinks } from '../../assessments/tables';
import { tenantAssessments } from '../../authoring/tables';
import { credentials } from '../../credentials/tables';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';
import { HttpError } from '../../http/errors';
import { externalIdentities } from '../core/tables';
import { sha256 } from './launch';
import { ltiContextMembers, ltiContexts, ltiLaunches, ltiRegistrations } from './tables';

/** An instructor's resource-link launch of this token, still open; else 404 in words. */
async function instructorLaunch(db: Db, token: string, now: Date) {
  const [row] = await db
    .select({ launch: ltiLaunches, registration: ltiRegistrations })
    .from(ltiLaunches)
    .innerJoin(ltiRegistrations, eq(ltiRegistrations.id, ltiLaunches.registrationId))
    .where(and(eq(ltiLaunches.sessionHash, sha256(token)), gt(ltiLaunches.expiresAt, now)))
    .limit(1);
  if (row?.launch.role !== 'INSTRUCTOR' || row.launch.messageType !== 'LtiResourceLinkRequest') {
    throw new HttpError(404, 'This view has expired: open Waymark again from your course.', {
      errorCode: 'LTI_LAUNCH_INVALID',
    });
  }
  return row;
}

export async function courseView(db: Db, token: string, now: Date) {
  const { launch, registration } = await instructorLaunch(db, token, now);
  const [tenant] = await db
    .select({ name: users.name, email: users.email })
    .from(users)
    .where(eq(users.id, launch.tenantId))
    .limit(1);
  const view = { course: launch.contextTitle, tenantName: tenant?.name ?? tenant?.email ?? 'Waymark' };
  if (!launch.contextId) return { ...view, learners: [] };
  const learners = await db
    .selectDistinct({ id: users.id, name: users.name, email: users.email })
    .from(ltiContexts)
    .innerJoin(ltiContextMembers, eq(ltiContextMembers.contextRowId, ltiContexts.id))
    .innerJoin(users, eq(users.id, ltiContextMembers.userId))
    .innerJoin(
      externalIdentities,
      and(
        eq(externalIdentities.userId, users.id),
        eq(externalIdentities.tenantId, launch.tenantId),
        eq(externalIdentities.issuer, registration.issuer),
      ),
    )
    .where(and(eq(ltiContexts.registrationId, registration.id), eq(ltiContexts.contextId, launch.contextId)))
    .orderBy(asc(users.name), asc(users.id));
  const ids = learners.map((l) => l.id);
  const tests = ids.length
    ? await db
        .select({
          userId: testLinks.userId,
          _id: testLinks.id,
          title: tenantAssessments.name,
          status: testLinks.status,
          completed: testLinks.isCompleted,
          score: testLinks.score,
          awardId: credentials.awardId,
        })
        .from(testLinks)
        .innerJoin(tenantAssessments, eq(tenantAssessments.id, testLinks.tenantAssessmentId))
        .leftJoin(credentials, eq(credentials.testLinkId, testLinks.id))
        .where(and(inArray(testLinks.userId, ids), eq(tenantAssessments.tenantId, launch.tenantId)))
        .orderBy(asc(tenantAssessments.name))
    : [];
  return {
    ...view,
    learners: learners.map((l) => ({
      _id: l.id,
      name: l.name,
      email: l.email.endsWith('@users.invalid') ? null : l.email,
      tests: tests
        .filter((t) => t.userId === l.id)
        .map(({ userId: _, score, ...t }) => ({ ...t, score: score === null ? null : Number(score) })),
    })),
  };
}
