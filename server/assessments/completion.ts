/**
 * What a link's evaluation changes elsewhere: a final (ROADMAP) link that earns its certificate completes
 * the learner's assigned roadmap (the catalogue's markRoadmapCompleted).
 */
import { sql } from 'drizzle-orm';
import { markRoadmapCompleted } from '../catalogue/learning';
import { assignedRoadmaps } from '../catalogue/tables';
import type { Db } from '../db/client';
import type { Hooks } from './engine/link-life';
import type { LinkRow } from './tables';

export const linkHooks: Hooks = {
  earns: (link) => link.type === 'ROADMAP' && Boolean(link.assignedRoadmapId),
  earnsTypes: ['ROADMAP'],
  // markRoadmapCompleted inside the evaluation's one statement, its time the link's completion
  inStatement: {
    name: 'roadmap_completed',
    earned: (done) => sql`
      update ${assignedRoadmaps} a
      set status = 'COMPLETED', final_assesment_id = d.link_id, completed_at = d.completed_at
      from ${done} d
      where d.type = 'ROADMAP' and a.id = d.assigned_roadmap_id and a.status <> 'COMPLETED'`,
  },
  async onEarned(db: Db, link: LinkRow) {
    if (link.type === 'ROADMAP' && link.assignedRoadmapId) {
      await markRoadmapCompleted(db, link.assignedRoadmapId, link.linkId);
    }
  },
};
