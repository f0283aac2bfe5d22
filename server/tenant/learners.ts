/**
 * One of the tenant's learners as the tenant sees them (the caller has found the learner among their own
 * seats first): their test links, the review of one, and assigning them a roadmap. A learner's figures come
 * from the functions the learner's own calls use.
 */
import { TENANT_ERROR_CODES, TENANT_MESSAGES } from '@shared/schemas/tenant';
import { and, desc, eq, gte, lte, ne } from 'drizzle-orm';
import { findLink } from '../assessments/engine/link-life';
import { linksOf, toApiLinks } from '../assessments/queries';
import { testReview } from '../assessments/review';
import { testLinks } from '../assessments/tables';
import { assignToLearner, CATALOGUE_MESSAGES, learnerRoadmaps } from '../catalogue/learning';
import type { Db } from '../db/client';
import { badRequest, forbidden, HttpError, notFound } from '../http/errors';
import type { Actor } from '../integrations/core/principal';
import type { SeatRow } from './accounting';

const RESOURCE_LINK_TYPES = ['RESOURCE', 'RESOURCE-FROM-WHATSAPP'] as const;

/** A learner's test links, newest first: created in the window, and of one assigned roadmap when asked. */
export function learnerTestLinks(
  db: Db,
  userId: string,
  q: { startTime?: number; endTime?: number; assignedRoadmapId?: string },
) {
  return db
    .select()
    .from(testLinks)
    .where(
      and(
        eq(testLinks.userId, userId),
        ne(testLinks.type, 'INITIAL-ASSESSMENT'),
        q.assignedRoadmapId ? eq(testLinks.assignedRoadmapId, q.assignedRoadmapId) : undefined,
        q.startTime === undefined ? undefined : gte(testLinks.createdAt, new Date(q.startTime * 1000)),
        q.endTime === undefined ? undefined : lte(testLinks.createdAt, new Date(q.endTime * 1000 + 999)),
      ),
    )
    .orderBy(desc(testLinks.createdAt), desc(testLinks.id));
}

/** A learner's resource tests of one resource, with their public ids. */
export async function resourceTests(
  db: Db,
  userId: string,
  resourceId: string,
  cooldownMs: number,
  now: Date,
) {
  const rows = (await linksOf(db, userId)).filter(
    (l) => l.resourceId === resourceId && (RESOURCE_LINK_TYPES as readonly string[]).includes(l.type),
  );
  return {
    assessmentIds: rows.map((r) => r.linkId),
    testLinks: await toApiLinks(db, rows, cooldownMs, now),
  };
}

/** The review of one of the learner's tests (404 for a link that is not theirs). */
export async function learnerTestReview(
  db: Db,
  userId: string,
  linkId: string,
  now: Date,
  cooldownMs: number,
) {
  const found = await findLink(db, linkId);
  if (!found || found.userId !== userId) throw notFound('errors.testLinkNotFound');
  return testReview(db, found, now, cooldownMs);
}

/** Whether the learner has this roadmap assigned, and which assignment. */
export async function learnerAssignment(db: Db, userId: string, roadmapId: string) {
  const mine = (await learnerRoadmaps(db, userId)).find((r) => r.roadmapId === roadmapId);
  return { assigned: Boolean(mine), assignedRoadmapId: mine?._id ?? null };
}

/**
 * Assigns a roadmap to the learner of `seat` on the tenant's behalf, with the tenant's choice about its
 * prerequisites; a removed seat can be read, not changed.
 */
export async function assignRoadmapFor(
  db: Db,
  tenant: { id: string; actor: Actor },
  { seat, learnerEmail }: { seat: SeatRow; learnerEmail: string },
  request: { userId: string; roadmapId: string; prerequisites?: 'INCLUDE' | 'WAIVE' },
) {
  if (seat.isDisabled) {
    throw forbidden(
      "This learner's seat has been removed: it can be read until the end of the billing cycle, not changed.",
      'SEAT_DISABLED',
    );
  }
  try {
    const { row, created } = await assignToLearner(db, {
      userId: request.userId,
      roadmapId: request.roadmapId,
      source: 'TENANT',
      assignedBy: tenant.id,
      prerequisites: request.prerequisites,
      audit: { by: tenant.actor, tenantId: tenant.id, learnerEmail },
      refuseWith: () =>
        badRequest(CATALOGUE_MESSAGES.prerequisitesChoice, 'prerequisites', {
          errorCode: 'PREREQUISITES_CHOICE_REQUIRED',
        }),
    });
    return { assignedRoadmapId: row.id, created };
  } catch (err) {
    if (err instanceof HttpError && err.extra.errorCode === TENANT_ERROR_CODES.roadmapLimit) {
      throw new HttpError(400, TENANT_MESSAGES.roadmapLimit, {
        errorCode: TENANT_ERROR_CODES.roadmapLimit,
        field: 'userId',
      });
    }
    throw err;
  }
}
