/**
 * What a link's evaluation changes elsewhere: a final (ROADMAP) link that earns its certificate completes
 * the learner's assigned roadmap (the catalogue's markRoadmapCompleted).
 */
import { markRoadmapCompleted, roadmapsCompletedBy } from '../catalogue/learning';
import type { Db } from '../db/client';
import type { Hooks } from './engine/evaluation';
import type { LinkRow } from './tables';

export const linkHooks: Hooks = {
  earns: (link) => link.type === 'ROADMAP' && Boolean(link.assignedRoadmapId),
  earnsTypes: ['ROADMAP'],
  // the same completion inside the evaluation's one statement
  inStatement: { name: 'roadmap_completed', earned: roadmapsCompletedBy },
  async onEarned(db: Db, link: LinkRow) {
    if (link.type === 'ROADMAP' && link.assignedRoadmapId) {
      await markRoadmapCompleted(db, link.assignedRoadmapId, link.linkId, link.completedAt ?? undefined);
    }
  },
};
