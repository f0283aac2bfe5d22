/**
 * A learner's test links as their roadmap shows them: the catalogue's `RoadmapTests`
 * (server/catalogue/learning.ts), implemented here where the links live, so the catalogue imports no
 * assessment (decision 018). server/services.ts hands it to the catalogue's and the tenant's routes.
 */
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { RoadmapTests } from '../catalogue/learning';
import { prerequisiteResultsOf } from './initial';
import { testLinks } from './tables';

/** The link types of a resource's own assessment (taken in the portal, or from a WhatsApp share). */
const RESOURCE_LINK_TYPES = ['RESOURCE', 'RESOURCE-FROM-WHATSAPP'] as const;

export const roadmapTests: RoadmapTests = {
  async claim(tx, assignedRoadmapId, userId) {
    await tx
      .update(testLinks)
      .set({ userId })
      .where(and(eq(testLinks.assignedRoadmapId, assignedRoadmapId), isNull(testLinks.userId)));
  },

  async linksOf(db, userId, assignedRoadmapId) {
    const links = await db
      .select({
        linkId: testLinks.linkId,
        type: testLinks.type,
        sectionId: testLinks.sectionId,
        resourceId: testLinks.resourceId,
      })
      .from(testLinks)
      .where(and(eq(testLinks.userId, userId), eq(testLinks.assignedRoadmapId, assignedRoadmapId)))
      .orderBy(asc(testLinks.createdAt));
    const sectionLinks = new Map<string, string[]>();
    const resourceLinks = new Map<string, string[]>();
    for (const l of links) {
      if (l.type === 'SECTION' && l.sectionId) {
        sectionLinks.set(l.sectionId, [...(sectionLinks.get(l.sectionId) ?? []), l.linkId]);
      }
      if ((RESOURCE_LINK_TYPES as readonly string[]).includes(l.type) && l.resourceId) {
        resourceLinks.set(l.resourceId, [...(resourceLinks.get(l.resourceId) ?? []), l.linkId]);
      }
    }
    return { sectionLinks, resourceLinks };
  },

  async bestResourceScores(db, userId, resourceIds) {
    if (resourceIds.length === 0) return new Map();
    const rows = await db
      .select({ resourceId: testLinks.resourceId, best: sql<string>`max(${testLinks.percentage})` })
      .from(testLinks)
      .where(
        and(
          eq(testLinks.userId, userId),
          eq(testLinks.isCompleted, true),
          inArray(testLinks.type, [...RESOURCE_LINK_TYPES]),
          inArray(testLinks.resourceId, [...resourceIds]),
        ),
      )
      .groupBy(testLinks.resourceId);
    return new Map(
      rows.filter((r) => r.resourceId && r.best !== null).map((r) => [r.resourceId!, Number(r.best)]),
    );
  },

  prerequisiteResults: prerequisiteResultsOf,
};
