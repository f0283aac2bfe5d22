/**
 * What a link's evaluation changes elsewhere: a final (ROADMAP) link that earns its certificate completes
 * the learner's assigned roadmap.
 */
import { and, eq, ne } from 'drizzle-orm';
import { assignedRoadmaps } from '../catalogue/tables';
import type { Db } from '../db/client';
import type { Hooks, LinkRow } from './engine';

/** Marks the assigned roadmap COMPLETED with the final assessment that earned the certificate. */
export async function markRoadmapCompleted(db: Db, assignedRoadmapId: string, linkId: string): Promise<void> {
  await db
    .update(assignedRoadmaps)
    .set({ status: 'COMPLETED', finalAssesmentId: linkId, completedAt: new Date() })
    .where(and(eq(assignedRoadmaps.id, assignedRoadmapId), ne(assignedRoadmaps.status, 'COMPLETED')));
}

export const linkHooks: Hooks = {
  async onEarned(db: Db, link: LinkRow) {
    if (link.type === 'ROADMAP' && link.assignedRoadmapId) {
      await markRoadmapCompleted(db, link.assignedRoadmapId, link.linkId);
    }
  },
};
